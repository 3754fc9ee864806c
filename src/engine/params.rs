//! Every tuned number of the engine, with its unit, in one place.
//!
//! Scores are in *centi-liberties*: 100 is worth about one more filled cell
//! around the enemy Queen in the middlegame. Evaluation weights live in
//! [`EvalWeights`] so that the tuner and in-process matches can vary them at
//! run time; [`EvalWeights::for_game_type`] says which the engine plays
//! with. Search constants are plain `const`s.

use crate::hive::{Bug, GameType};

/// Evaluation weights. Every field is in centi-liberties per unit named in
/// its comment; a term is added for the side to move and subtracted for the
/// opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// Penalty for a Queen with `n` occupied neighbours, indexed by `n`
    /// (0 to 5; 6 is a lost game and never evaluated).
    pub queen_surround: [i32; 6],
    /// Extra penalty per neighbour of a Queen held by an enemy piece that
    /// cannot move (pinned, covered, or a stack the enemy owns): it will not
    /// go away.
    pub stuck_enemy_at_queen: i32,
    /// Bonus per own piece next to the own Queen that can move away (it can
    /// free a liberty when needed).
    pub free_own_at_queen: i32,
    /// Bonus per own Queen slide available (how easily she escapes).
    pub queen_slide: i32,
    /// Bonus per piece that is free to move, by bug (slot order of
    /// [`Bug::ALL`]: Q S B G A M L P).
    pub mobile: [i32; 8],
    /// Bonus per piece still in hand, by bug (same order).
    pub in_hand: [i32; 8],
    /// Penalty per own ground piece pinned by the One Hive rule or trapped
    /// (no slide for a sliding insect), by bug (same order).
    pub pinned: [i32; 8],
    /// Bonus per Beetle (or Mosquito) on top of a stack.
    pub beetle_on_top: i32,
    /// Bonus per Beetle (or Mosquito) on top of the enemy Queen (she is
    /// frozen, and the cell above her is ours).
    pub beetle_on_queen: i32,
    /// Bonus for a Pillbug next to its own Queen, free to throw.
    pub pillbug_guard: i32,
    /// Bonus per own Ant, Beetle or Grasshopper that is free to move and
    /// stands within two cells of the enemy Queen (ready to fill a liberty).
    pub attacker_near_queen: i32,
    /// Bonus for having the move.
    pub tempo: i32,
    /// Bonus per cell a side could place on (counted up to
    /// [`SPAWN_CELLS_MAX`], and only while it holds pieces).
    pub spawn_cell: i32,
    /// Bonus per own Grasshopper, free to move, that can jump into an empty
    /// cell next to the enemy Queen.
    pub hopper_in: i32,
    /// Bonus per empty cell next to the enemy Queen that a slider can enter,
    /// when the side has a free Ant (which can usually get there).
    pub ant_open_liberty: i32,
    /// Bonus per own Beetle (or Mosquito on top) that is free to move and
    /// stands next to the enemy Queen (it can climb on her next move).
    pub beetle_by_queen: i32,
}

/// See [`EvalWeights::spawn_cell`].
pub const SPAWN_CELLS_MAX: usize = 6;

impl EvalWeights {
    /// The weights the engine plays games with expansions with,
    /// [`EvalWeights::SPSA_FOUR`] (Base games: [`EvalWeights::for_game_type`]);
    /// the tuner's `--start default`.
    pub const DEFAULT: EvalWeights = EvalWeights::SPSA_FOUR;

    /// The weights the engine plays a game type with: round eleven's Base
    /// weights in Base games, [`EvalWeights::DEFAULT`] in the others.
    pub fn for_game_type(game_type: GameType) -> &'static EvalWeights {
        if game_type == GameType::BASE {
            &EvalWeights::ROUND_ELEVEN_BASE
        } else {
            &EvalWeights::DEFAULT
        }
    }

    /// SPSA four: SPSA two's weights with eight more tuned by game results,
    /// `waggle spsa --param queen_surround.2 --param queen_surround.3
    /// --param queen_surround.4:10 --param beetle_on_queen --param tempo
    /// --param spawn_cell --param hopper_in --param pinned.B --game-type
    /// Base+MLP --pairs 2000 --nodes 20000 --c-end 6 --r-end 0.02 --seed
    /// 2061` (4,000 Base+MLP games on 2 threads, 55 minutes; SPSA three
    /// tuned search parameters and is not built in): the side to move 28 →
    /// 56, cells to place on 24 → 12, Grasshoppers that can jump next to
    /// the enemy Queen 17 → 1, two, three and four pieces around a Queen 88
    /// → 96, 157 → 158, 281 → 272, a Beetle on the enemy Queen 81 → 82, a
    /// pinned Beetle 26 → 24. Against SPSA two on
    /// `bench-positions/openings-mlp.txt` at 0.3 s a move: 697-631-85 in
    /// 1,413 games over three runs, +16 Elo from the 705 pairs, 95%
    /// interval −0.6 to +32.7; no SPRT `0,25` accepted it (README,
    /// *Measured*). The engine's weights in games with expansions.
    pub const SPSA_FOUR: EvalWeights = EvalWeights {
        queen_surround: [0, 51, 96, 158, 272, 451],
        //       Q    S   B   G   A   M   L   P
        pinned: [-86, 0, 24, -5, 5, -26, -21, -63],
        beetle_on_queen: 82,
        tempo: 56,
        spawn_cell: 12,
        hopper_in: 1,
        ..EvalWeights::SPSA_TWO
    };

    /// SPSA two: SPSA one's weights with eight more tuned by game results,
    /// `waggle spsa --param mobile.A --param mobile.G --param mobile.Q
    /// --param stuck_enemy_at_queen --param free_own_at_queen --param
    /// queen_slide --param attacker_near_queen --param beetle_on_top
    /// --game-type Base+MLP --pairs 2000 --nodes 20000 --c-end 6 --r-end
    /// 0.02 --seed 2060` (4,000 Base+MLP games on 2 threads, 48 minutes):
    /// Ant mobility 54 → 48, Grasshopper 21 → 29, Queen 39 → 54, stuck
    /// enemy pieces at a Queen 25 → 24, own pieces free to move at the own
    /// Queen 23 → 35, Queen slides 35 → 40, attackers near the enemy Queen
    /// 28 → 10, a Beetle on top 47 → 75. Against SPSA one on
    /// `bench-positions/openings-mlp.txt` at 0.3 s a move: 170-124-21, SPRT
    /// `0,25` accepted after 315 games (README, *Measured*). The engine's
    /// weights in games with expansions until SPSA four.
    pub const SPSA_TWO: EvalWeights = EvalWeights {
        stuck_enemy_at_queen: 24,
        free_own_at_queen: 35,
        queen_slide: 40,
        //       Q    S   B   G   A   M   L   P
        mobile: [54, 49, 50, 29, 48, 61, 42, 53],
        beetle_on_top: 75,
        attacker_near_queen: 10,
        ..EvalWeights::SPSA_ONE
    };

    /// SPSA one: round seven's weights with five of them tuned by game
    /// results, `waggle spsa --param mobile.B --param in_hand.A --param
    /// beetle_by_queen --param pinned.Q --param pillbug_guard --game-type
    /// Base+MLP --pairs 2000 --nodes 20000 --c-end 6 --r-end 0.02 --seed 2038`
    /// (4,000 Base+MLP games on 2 threads, 47 minutes): Beetle mobility 27 →
    /// 50, Ants in hand 28 → 7, a free Beetle by the enemy Queen 49 → 74, a
    /// pinned Queen −72 → −86, the Pillbug guard 69 → 73. Against round seven
    /// on `bench-positions/openings-mlp.txt` at 0.3 s a move: 206-169-25
    /// (README, *Measured*). The engine's weights in games with expansions
    /// until SPSA two.
    pub const SPSA_ONE: EvalWeights = EvalWeights {
        //       Q    S   B   G   A   M   L   P
        mobile: [39, 49, 50, 21, 54, 61, 42, 53],
        in_hand: [1, 22, -8, 11, 7, -17, -11, -55],
        pinned: [-86, 0, 26, -5, 5, -26, -21, -63],
        pillbug_guard: 73,
        beetle_by_queen: 74,
        ..EvalWeights::ROUND_SEVEN
    };

    /// Round eleven, round seven's terms fitted on the Base games alone:
    /// `cat tuning/round{3,4,5,6,8,10}.txt > r3456810.txt; grep -P
    /// '^\S+\tBase;' r3456810.txt > r-base.txt; waggle tune r-base.txt
    /// --start round-seven --ridge 1e-7 --iterations 3000` (3,600 games,
    /// 228,513 training positions; every tenth Base game held out, error
    /// 0.12550 → 0.12492, where the fit on both game types gave 0.12553).
    /// Against round seven on the Base openings: 124-53-23 at 0.3 s a move
    /// (README, *Measured*). The same fit on the Base+MLP games alone
    /// (0.16168 → 0.16075) lost 40-56-4 in Base+MLP games, so those keep
    /// round seven's.
    pub const ROUND_ELEVEN_BASE: EvalWeights = EvalWeights {
        queen_surround: [0, 57, 89, 159, 287, 438],
        stuck_enemy_at_queen: 31,
        free_own_at_queen: 23,
        queen_slide: 32,
        //       Q    S   B   G   A   M   L   P
        mobile: [38, 51, 26, 25, 73, 61, 42, 53],
        in_hand: [2, 26, -4, 21, 43, -17, -11, -55],
        pinned: [-70, 4, 38, 1, 14, -26, -21, -63],
        beetle_on_top: 53,
        beetle_on_queen: 52,
        pillbug_guard: 69,
        attacker_near_queen: 21,
        tempo: 24,
        spawn_cell: 24,
        hopper_in: 19,
        ant_open_liberty: 3,
        beetle_by_queen: 61,
    };

    /// Round seven (the weights in games with expansions until SPSA one),
    /// four new terms (`spawn_cell`, `hopper_in`,
    /// `ant_open_liberty`, `beetle_by_queen`) fitted with the others by
    /// `waggle tune <round3.txt + … + round6.txt> --start round-five --ridge 1e-7 --iterations 3000`
    /// on the games of rounds three to six (no new games; hold-out error
    /// 0.17073 → 0.16883, where the same fit without the new terms reached
    /// 0.17031), starting from [`EvalWeights::ROUND_FIVE`] with the new
    /// terms at 0.
    pub const ROUND_SEVEN: EvalWeights = EvalWeights {
        queen_surround: [0, 51, 88, 157, 281, 451],
        stuck_enemy_at_queen: 25,
        free_own_at_queen: 23,
        queen_slide: 35,
        //       Q    S   B   G   A   M   L   P
        mobile: [39, 49, 27, 21, 54, 61, 42, 53],
        in_hand: [1, 22, -8, 11, 28, -17, -11, -55],
        pinned: [-72, 0, 26, -5, 5, -26, -21, -63],
        beetle_on_top: 47,
        beetle_on_queen: 81,
        pillbug_guard: 69,
        attacker_near_queen: 28,
        tempo: 28,
        spawn_cell: 24,
        hopper_in: 17,
        ant_open_liberty: 4,
        beetle_by_queen: 49,
    };

    /// Round five, the engine's weights until round seven: fitted by
    /// `waggle tune <round3.txt + round4.txt + round5.txt> --start round-four --ridge 1e-7 --iterations 6000`
    /// on the games of `tuning/round3.txt`, `tuning/round4.txt` and
    /// `tuning/round5.txt` (hold-out error 0.17332 → 0.17091), starting
    /// from [`EvalWeights::ROUND_FOUR`]. Against those: 66-43-31 at 0.5 s a
    /// move (`waggle arena`, Threads=1). Round six's games
    /// (`tuning/round6.txt`) were played with these.
    pub const ROUND_FIVE: EvalWeights = EvalWeights {
        queen_surround: [0, 46, 82, 157, 284, 458],
        stuck_enemy_at_queen: 18,
        free_own_at_queen: 29,
        queen_slide: 30,
        //       Q    S   B   G   A   M   L   P
        mobile: [36, 35, 36, 23, 51, 57, 37, 43],
        in_hand: [0, 34, 6, 19, 34, -7, -4, -46],
        pinned: [-54, 10, 27, -2, 8, -22, -17, -49],
        beetle_on_top: 40,
        beetle_on_queen: 91,
        pillbug_guard: 64,
        attacker_near_queen: 30,
        tempo: 26,
        spawn_cell: 0,
        hopper_in: 0,
        ant_open_liberty: 0,
        beetle_by_queen: 0,
    };

    /// Round four, the engine's weights until round five: fitted by
    /// `waggle tune <round3.txt + round4.txt> --start round-three --ridge 1e-6`
    /// on the games of `tuning/round3.txt` and
    /// `tuning/round4.txt` (the second made by
    /// `waggle tune tuning/round4.txt --generate 1200 --nodes 30000 --seed 2031 --start round-three`;
    /// hold-out error 0.18256 → 0.18161), starting from
    /// [`EvalWeights::ROUND_THREE`]. Against those: 58-40-42 at 0.5 s a
    /// move (`waggle arena`, Threads=1).
    pub const ROUND_FOUR: EvalWeights = EvalWeights {
        queen_surround: [0, 36, 75, 161, 281, 474],
        stuck_enemy_at_queen: 24,
        free_own_at_queen: 28,
        queen_slide: 19,
        //       Q    S   B   G   A   M   L   P
        mobile: [30, 22, 48, 26, 54, 48, 34, 29],
        in_hand: [0, 28, 16, 15, 38, 11, 5, -24],
        pinned: [-27, 18, 18, -2, 8, -3, -6, -25],
        beetle_on_top: 30,
        beetle_on_queen: 103,
        pillbug_guard: 51,
        attacker_near_queen: 28,
        tempo: 24,
        spawn_cell: 0,
        hopper_in: 0,
        ant_open_liberty: 0,
        beetle_by_queen: 0,
    };

    /// Round three: fitted by
    /// `waggle tune tuning/round3.txt --generate 1200 --nodes 30000 --seed 2030 --start round-one --ridge 1e-6`
    /// (Texel method on 1,200 self-play games of the engine at `1cc30df`,
    /// half Base, half Base+MLP; hold-out error 0.20948 → 0.20542), starting
    /// from [`EvalWeights::ROUND_ONE`]. Against those: 92-80-28 at 0.2 s and
    /// 82-42-36 at 0.5 s a move (`waggle arena`, Threads=1).
    pub const ROUND_THREE: EvalWeights = EvalWeights {
        queen_surround: [0, 33, 74, 163, 281, 477],
        stuck_enemy_at_queen: 25,
        free_own_at_queen: 21,
        queen_slide: 16,
        //       Q    S   B   G   A   M   L   P
        mobile: [28, 18, 51, 30, 53, 46, 35, 27],
        in_hand: [0, 23, 17, 14, 38, 16, 6, -16],
        pinned: [-20, 14, 16, -1, 5, 1, -4, -16],
        beetle_on_top: 27,
        beetle_on_queen: 101,
        pillbug_guard: 48,
        attacker_near_queen: 30,
        tempo: 23,
        spawn_cell: 0,
        hopper_in: 0,
        ant_open_liberty: 0,
        beetle_by_queen: 0,
    };

    /// Round one, the engine's weights until round three: fitted by
    /// `waggle tune tuning/selfplay.txt --generate 600 --nodes 3000 --seed 2026 --ridge 1e-6`
    /// (Texel method on 600 self-play games, half Base, half Base+MLP;
    /// hold-out error 0.2127 → 0.2070), starting from
    /// [`EvalWeights::HAND_PICKED`]. A second round on 1,000 games at
    /// 30,000 nodes found nothing to gain.
    pub const ROUND_ONE: EvalWeights = EvalWeights {
        queen_surround: [0, 30, 76, 165, 280, 478],
        stuck_enemy_at_queen: 33,
        free_own_at_queen: 11,
        queen_slide: 12,
        //       Q    S   B   G   A   M   L   P
        mobile: [26, 11, 54, 36, 56, 41, 33, 22],
        in_hand: [0, 9, 17, 15, 37, 22, 14, -6],
        pinned: [-12, -1, 15, 6, 4, 4, 2, -9],
        beetle_on_top: 26,
        beetle_on_queen: 99,
        pillbug_guard: 43,
        attacker_near_queen: 32,
        tempo: 20,
        spawn_cell: 0,
        hopper_in: 0,
        ant_open_liberty: 0,
        beetle_by_queen: 0,
    };

    /// The hand-picked weights the tuner started from (kept for A/B
    /// matches: `waggle selfplay --b-hand-picked`).
    pub const HAND_PICKED: EvalWeights = EvalWeights {
        queen_surround: [0, 30, 80, 160, 280, 480],
        stuck_enemy_at_queen: 30,
        free_own_at_queen: 15,
        queen_slide: 10,
        //       Q   S   B   G   A   M   L   P
        mobile: [25, 20, 45, 35, 70, 45, 35, 20],
        in_hand: [0, 10, 25, 15, 35, 25, 15, 10],
        pinned: [0, 5, 10, 5, 15, 10, 5, 5],
        beetle_on_top: 20,
        beetle_on_queen: 90,
        pillbug_guard: 40,
        attacker_near_queen: 15,
        tempo: 15,
        spawn_cell: 0,
        hopper_in: 0,
        ant_open_liberty: 0,
        beetle_by_queen: 0,
    };

    /// Number of weights in [`EvalWeights::to_vec`].
    pub const LEN: usize = 6 + 3 + 3 * 8 + 4 + 4 + 1;
    /// Where `tempo` is in [`EvalWeights::to_vec`]: last.
    pub const TEMPO: usize = Self::LEN - 1;

    /// The weights as a flat vector (the tuner's parameter order):
    /// `queen_surround[0..6]`, `stuck_enemy_at_queen`, `free_own_at_queen`,
    /// `queen_slide`, `mobile[0..8]`, `in_hand[0..8]`, `pinned[0..8]`,
    /// `beetle_on_top`, `beetle_on_queen`, `pillbug_guard`,
    /// `attacker_near_queen`, `spawn_cell`, `hopper_in`, `ant_open_liberty`,
    /// `beetle_by_queen`, and last
    /// `tempo` (at [`EvalWeights::TEMPO`]).
    pub fn to_vec(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(Self::LEN);
        v.extend_from_slice(&self.queen_surround);
        v.push(self.stuck_enemy_at_queen);
        v.push(self.free_own_at_queen);
        v.push(self.queen_slide);
        v.extend_from_slice(&self.mobile);
        v.extend_from_slice(&self.in_hand);
        v.extend_from_slice(&self.pinned);
        v.push(self.beetle_on_top);
        v.push(self.beetle_on_queen);
        v.push(self.pillbug_guard);
        v.push(self.attacker_near_queen);
        v.push(self.spawn_cell);
        v.push(self.hopper_in);
        v.push(self.ant_open_liberty);
        v.push(self.beetle_by_queen);
        v.push(self.tempo);
        v
    }

    /// The inverse of [`EvalWeights::to_vec`]; `None` unless `v` has
    /// [`EvalWeights::LEN`] entries.
    pub fn from_vec(v: &[i32]) -> Option<EvalWeights> {
        if v.len() != Self::LEN {
            return None;
        }
        let arr8 = |i: usize| {
            let mut a = [0; 8];
            a.copy_from_slice(&v[i..i + 8]);
            a
        };
        let mut queen_surround = [0; 6];
        queen_surround.copy_from_slice(&v[0..6]);
        Some(EvalWeights {
            queen_surround,
            stuck_enemy_at_queen: v[6],
            free_own_at_queen: v[7],
            queen_slide: v[8],
            mobile: arr8(9),
            in_hand: arr8(17),
            pinned: arr8(25),
            beetle_on_top: v[33],
            beetle_on_queen: v[34],
            pillbug_guard: v[35],
            attacker_near_queen: v[36],
            spawn_cell: v[37],
            hopper_in: v[38],
            ant_open_liberty: v[39],
            beetle_by_queen: v[40],
            tempo: v[Self::TEMPO],
        })
    }

    /// The name of the weight at `index` of [`EvalWeights::to_vec`], as the
    /// field is called, with the entry of an array after a dot: its count
    /// for `queen_surround` (`queen_surround.3`), its bug letter for the
    /// per-bug tables (`mobile.B`, `in_hand.A`). `None` past the end.
    pub fn weight_name(index: usize) -> Option<String> {
        const SINGLE: [&str; 3] = ["stuck_enemy_at_queen", "free_own_at_queen", "queen_slide"];
        const TABLES: [&str; 3] = ["mobile", "in_hand", "pinned"];
        const LATER: [&str; 8] = [
            "beetle_on_top",
            "beetle_on_queen",
            "pillbug_guard",
            "attacker_near_queen",
            "spawn_cell",
            "hopper_in",
            "ant_open_liberty",
            "beetle_by_queen",
        ];
        match index {
            0..=5 => Some(format!("queen_surround.{index}")),
            6..=8 => Some(SINGLE[index - 6].to_string()),
            9..=32 => {
                let (table, bug) = ((index - 9) / 8, (index - 9) % 8);
                Some(format!("{}.{}", TABLES[table], Bug::ALL[bug].letter()))
            }
            33..=40 => Some(LATER[index - 33].to_string()),
            Self::TEMPO => Some("tempo".to_string()),
            _ => None,
        }
    }

    /// The index in [`EvalWeights::to_vec`] of the weight called `name`
    /// (see [`EvalWeights::weight_name`]).
    pub fn weight_index(name: &str) -> Option<usize> {
        (0..Self::LEN).find(|&i| Self::weight_name(i).as_deref() == Some(name))
    }

    /// The weight of `bug` in one of the per-bug tables.
    #[inline(always)]
    pub fn per_bug(table: &[i32; 8], bug: Bug) -> i32 {
        table[bug.index()]
    }
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights::DEFAULT
    }
}

/// Deepest ply the search reaches (root is ply 0). The stack has a margin
/// beyond it so that `ply + 1` indexing never needs a bound check branch.
pub const MAX_PLY: usize = 96;
/// Extra search-stack entries beyond [`MAX_PLY`].
pub const STACK_MARGIN: usize = 4;

/// Aspiration window half-width at the first aspirated iteration, in
/// centi-liberties. 25 rather than 40: against 40 at 0.3 s a move
/// (`waggle arena`, Threads=1, the Base and Base+MLP openings alternating)
/// it scored 52-38-10 on the first 50 opening lines and 59-49-12 on lines
/// 51 to 110 (111-87-22 in all, 55.5%, about +38 Elo, 95% interval about
/// −8 to +87), while 60 scored 41-51-8 against 40, and 15 scored 97-116-27
/// against 25 (240 games at `c70d442`, 0.3 s a move, the same openings).
pub const ASPIRATION_WINDOW: i32 = 25;
/// First iteration that uses an aspiration window.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Lazy SMP: odd-numbered helper threads start each iteration this many
/// plies deeper than the deepest completed one. 1 rather than 0: two threads
/// reach depth 10 on the bench positions in 6109 ms against 6334 ms (12 runs
/// each, alternating) and 5842 against 6126 ms (8 runs), with 4% fewer
/// nodes; one thread takes about 9200 ms. Since the busy key has no depth
/// in it, depth 12 (6 runs each, alternating with `ABDADA_MIN_DEPTH` 2
/// below): 20.1 s a run with 1, 20.3 s with 0; noise. 2 reaches depths 7 to
/// 10 sooner (0.52 of one thread's time at depth 7, against 0.62) but scored
/// 78-94-28 in 200 games of two threads against two at 0.3 and 0.5 s a move
/// (README, *Tried and not kept*).
pub const HELPER_DEPTH_SKIP: u32 = 1;
/// Simplified ABDADA (several threads): nodes at least this deep defer
/// moves that another thread is searching. 2 against 3, depth 12 (see
/// [`HELPER_DEPTH_SKIP`]): 20.8 s against 20.1 s a run; noise.
pub const ABDADA_MIN_DEPTH: i32 = 3;
/// At most this many deferred moves per node; later ones are not deferred.
pub const ABDADA_MAX_DEFERRED: usize = 32;
/// Futility pruning: in non-PV nodes this deep or shallower whose static
/// evaluation is more than `FUTILITY_MARGIN · depth` below alpha, quiet moves
/// after the first are skipped.
pub const FUTILITY_MAX_DEPTH: i32 = 2;
/// See [`FUTILITY_MAX_DEPTH`], in centi-liberties per ply.
pub const FUTILITY_MARGIN: i32 = 150;
/// Late-move pruning: in non-PV nodes this deep or shallower, quiet moves
/// after the first `LMP_BASE + LMP_PER_DEPTH2 · depth²` are skipped. 6
/// (also 112 moves at depth 6) rather than 5: 119-90-31 against 5 at 0.3 s
/// a move (`waggle arena`, Threads=1, 240 games at `c70d442`, the Base and
/// Base+MLP openings alternating), with nearly the same bench nodes (only
/// nodes with more than 112 quiet moves change). At 1 s a move, even:
/// 51-51-18 against 5 (120 games on every other pair of the alternating
/// openings, in three runs of 21-28-7, 16-9-7 and 14-14-4; 95% interval
/// −58 to +58 Elo), so no gain confirmed there. 7 (151 moves) scored
/// 37-46-11 against 6 (94 games at 0.3 s, stopped). 5 (also 52 and 79
/// moves at depth 4 and 5) rather than 3: 40-31-9 against 3 at 0.5 s a move
/// (80 games), and 47-42-11 against 4, which scored 66-52-22 against 3 (140
/// games).
pub const LMP_MAX_DEPTH: i32 = 6;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_BASE: usize = 4;
/// See [`LMP_MAX_DEPTH`]. 3 (7, 16 and 31 moves at depth 1 to 3) rather
/// than 2: 46-37-17 at 0.4 s and 49-36-15 at 0.5 s a move against 2
/// (`waggle arena`, Threads=1, 100 games each); 1 scored 42-46-12 at 0.4 s
/// against 2, and 4 30-44-6 at 0.4 s against 3 (80 games).
pub const LMP_PER_DEPTH2: usize = 3;
/// Late-move reductions: from this depth on.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reductions: moves searched before reductions start.
pub const LMR_MIN_MOVES: usize = 3;
/// Late-move reductions: `r = LMR_BASE + ln(depth)·ln(moves)/LMR_DIVISOR`
/// plies, rounded down.
pub const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`]. 2.0 since late-move pruning came: 71/120 against 1.5
/// (`selfplay --pairs 15 --movetime-ms 100 --b-lmr-divisor 2.0`, seeds 9,
/// 13, 21, 33); 1.2 scored 25.5/60 and 2.5 29/60 against 1.5.
/// With history-scaled reductions, 1.75 scored 110-106-24 against 2.0
/// (`waggle arena`, 0.3 s a move, Threads=1, 240 games, the Base and
/// Base+MLP openings alternating), and 50-60-10 at 1 s a move (120 games,
/// every other pair of those openings).
pub const LMR_DIVISOR: f64 = 2.0;
/// Late-move reductions: a reduced move gets one ply less for each this
/// much history it has earned (up to four at [`HISTORY_MAX`]), one more for
/// each this much it has lost. 2048 rather than 4096 (up to two plies):
/// against 4096 (`fb24b47`) at 0.3 s a move 65-45-10 (`waggle arena`,
/// Threads=1, 120 games, the Base and Base+MLP openings alternating, +58
/// Elo, 95% interval −1 to +121); 1024 scored 54-56-10 against 2048 in the
/// same way, and [`LMR_BASE`] 1.0 with 2048 49-58-13. 4096 against none:
/// 60-42-18 at 0.3 s a move against `11bec28` (+53 Elo, 95% interval −4 to
/// +112); earlier 90-61-49 at 0.2 s against `122f429`, and 48-53-19 and
/// 46-39-15 at 0.5 s against `122f429` and `5eb7cc6`: 244-195-101 over the
/// 540 games, about +32 Elo.
/// 3072 scored 51-56-13 against 2048 (120 games at 0.3 s, as above).
pub const LMR_HISTORY_DIVISOR: i32 = 2048;

/// Internal iterative reduction: from this depth on, a node the table knows
/// no move for is searched one ply shallower. 3 scored 74-96-30 against 4
/// at 0.3 s a move (`waggle arena`, Threads=1, 200 games at `87db082`, the
/// Base and Base+MLP openings alternating; −38 Elo, 95% interval −84 to +6).
pub const IIR_MIN_DEPTH: i32 = 4;
/// Internal iterative reduction: only while the side to move's Queen has at
/// least this many free cells (or is in hand). With 2, the search missed
/// two of the first four surrounds in three in `tests/search.rs` at depth 5.
pub const IIR_QUEEN_FREE: usize = 3;

/// Singular extension: from this depth on. With these constants the
/// engine scored 54-39-7 at 0.5 s and 43-27-10 at 1 s a move against itself
/// without the extension (`waggle arena`, Threads=1), and the negative
/// extension (the table move one ply shallower where it is not singular
/// but its score holds beta) 48-38-14 at 0.5 s against none.
pub const SINGULAR_MIN_DEPTH: i32 = 6;
/// Singular extension: the table entry must be at most this many plies
/// shallower than the node.
pub const SINGULAR_TT_DEPTH: i32 = 3;
/// Singular extension: the other moves are searched against the table's
/// score minus this much per ply of depth, in centi-liberties. Against 4,
/// 2 scored 25-24-11 and 8 24-29-7 at 0.5 s a move (`waggle arena --mode
/// gauntlet`, Threads=1, 60 games each).
pub const SINGULAR_MARGIN: i32 = 4;
/// Double singular extension: at a non-PV node, a table move whose
/// alternatives stay this far below the singular bound, in
/// centi-liberties, gets two plies instead of one. With 40 and at most 3
/// a line: 50-34-16 at 0.5 s a move against none (`waggle arena`,
/// Threads=1, 100 games); with the negative extension, 47-43-10 at 1 s
/// against neither (100 games). In a gauntlet against 40 at 0.5 s (90
/// games each, stopped for time), 20 scored 39-43-8 and 60 44-37-9; 60
/// then scored 48-49-9 in 106 more games on other openings, 92-86-18 in
/// all (51.5%, +11 Elo, 95% interval about −35 to +56): 40 stays.
pub const DOUBLE_EXTENSION_MARGIN: i32 = 40;
/// Double singular extensions allowed on one line from the root.
pub const DOUBLE_EXTENSION_MAX: u8 = 3;

/// Null-move pruning: from this depth on.
pub const NULL_MIN_DEPTH: i32 = 3;
/// Null-move pruning: reduction `NULL_BASE + depth / NULL_DIVISOR`, in plies.
pub const NULL_BASE: i32 = 3;
/// See [`NULL_BASE`].
pub const NULL_DIVISOR: i32 = 4;

/// Contempt: a draw (by repetition, or both Queens surrounded at once) is
/// worth this much less than nothing to the side to move at the root, in
/// centi-liberties, so that the engine plays on rather than repeat a
/// position it judges about level.
pub const CONTEMPT: i32 = 25;

/// Reverse futility pruning: deepest depth it applies at. 5 scored
/// 41-52-23 at 0.2 s and 27-38-7 at 0.5 s a move against 3 (`waggle
/// arena`, Threads=1; 72 games, stopped), though it cut the nodes to depth
/// 10 on the bench positions by 22%.
pub const RFP_MAX_DEPTH: i32 = 3;
/// Reverse futility pruning: margin per ply of depth, in centi-liberties.
/// 80 scored 97-67-36 at 0.1 s a move against 120 (`waggle arena`, 200
/// games, Threads=1); then 40 scored 62-52-35 at 0.2 s and 67-58-25 at
/// 0.3 s against 80 (150 games each), and 60 scored 63-58-29 at 0.2 s.
pub const RFP_MARGIN: i32 = 40;

/// The search's margins and reductions that `waggle spsa` can tune: read
/// at run time from [`crate::engine::search::Config`] rather than from the
/// constants, which [`SearchParams::DEFAULT`] holds and which document
/// the matches that chose them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// [`ASPIRATION_WINDOW`], in centi-liberties.
    pub aspiration_window: i32,
    /// [`FUTILITY_MARGIN`], in centi-liberties per ply.
    pub futility_margin: i32,
    /// [`RFP_MARGIN`], in centi-liberties per ply.
    pub rfp_margin: i32,
    /// [`LMP_BASE`], in moves.
    pub lmp_base: i32,
    /// [`LMP_PER_DEPTH2`], in moves per ply squared.
    pub lmp_per_depth2: i32,
    /// [`LMR_BASE`], in plies.
    pub lmr_base: f64,
    /// [`LMR_DIVISOR`].
    pub lmr_divisor: f64,
    /// [`LMR_HISTORY_DIVISOR`], in history points per ply.
    pub lmr_history_divisor: i32,
    /// [`NULL_BASE`], in plies.
    pub null_base: i32,
    /// [`NULL_DIVISOR`], in plies of depth per ply of reduction.
    pub null_divisor: i32,
    /// [`SINGULAR_MARGIN`], in centi-liberties per ply.
    pub singular_margin: i32,
    /// [`DOUBLE_EXTENSION_MARGIN`], in centi-liberties.
    pub double_extension_margin: i32,
}

impl SearchParams {
    /// The constants above: what the engine plays with.
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration_window: ASPIRATION_WINDOW,
        futility_margin: FUTILITY_MARGIN,
        rfp_margin: RFP_MARGIN,
        lmp_base: LMP_BASE as i32,
        lmp_per_depth2: LMP_PER_DEPTH2 as i32,
        lmr_base: LMR_BASE,
        lmr_divisor: LMR_DIVISOR,
        lmr_history_divisor: LMR_HISTORY_DIVISOR,
        null_base: NULL_BASE,
        null_divisor: NULL_DIVISOR,
        singular_margin: SINGULAR_MARGIN,
        double_extension_margin: DOUBLE_EXTENSION_MARGIN,
    };

    /// Number of entries of [`SearchParams::to_vec`].
    pub const LEN: usize = 12;

    /// The entries' names, in the order of [`SearchParams::to_vec`]: the
    /// fields' names.
    pub const NAMES: [&'static str; Self::LEN] = [
        "aspiration_window",
        "futility_margin",
        "rfp_margin",
        "lmp_base",
        "lmp_per_depth2",
        "lmr_base",
        "lmr_divisor",
        "lmr_history_divisor",
        "null_base",
        "null_divisor",
        "singular_margin",
        "double_extension_margin",
    ];

    /// A perturbation for tuning each entry by SPSA (its `c_end`), in its
    /// own unit: about a tenth to a fifth of its value, and at least 1 for
    /// the whole numbers, so that both sides round to different values.
    pub const C_END: [f64; Self::LEN] = [
        4.0, 15.0, 6.0, 1.0, 1.0, 0.1, 0.2, 250.0, 1.0, 1.0, 1.0, 6.0,
    ];

    /// The entries as reals, in the order of [`SearchParams::NAMES`].
    pub fn to_vec(&self) -> Vec<f64> {
        vec![
            f64::from(self.aspiration_window),
            f64::from(self.futility_margin),
            f64::from(self.rfp_margin),
            f64::from(self.lmp_base),
            f64::from(self.lmp_per_depth2),
            self.lmr_base,
            self.lmr_divisor,
            f64::from(self.lmr_history_divisor),
            f64::from(self.null_base),
            f64::from(self.null_divisor),
            f64::from(self.singular_margin),
            f64::from(self.double_extension_margin),
        ]
    }

    /// The inverse of [`SearchParams::to_vec`], with the whole-number
    /// entries rounded and each entry kept where the search works: the
    /// divisors at least 1 (`lmr_divisor` at least 0.1), the rest at
    /// least 0. `None` unless `v` has [`SearchParams::LEN`] finite entries.
    pub fn from_vec(v: &[f64]) -> Option<SearchParams> {
        if v.len() != Self::LEN || v.iter().any(|x| !x.is_finite()) {
            return None;
        }
        // `as` saturates, so a huge entry stays a huge whole number.
        let whole = |i: usize, min: i32| (v[i].round() as i32).max(min);
        Some(SearchParams {
            aspiration_window: whole(0, 1),
            futility_margin: whole(1, 0),
            rfp_margin: whole(2, 0),
            lmp_base: whole(3, 0),
            lmp_per_depth2: whole(4, 0),
            lmr_base: v[5].max(0.0),
            lmr_divisor: v[6].max(0.1),
            lmr_history_divisor: whole(7, 1),
            null_base: whole(8, 0),
            null_divisor: whole(9, 1),
            singular_margin: whole(10, 0),
            double_extension_margin: whole(11, 0),
        })
    }

    /// The index in [`SearchParams::to_vec`] of the entry called `name`.
    pub fn index(name: &str) -> Option<usize> {
        Self::NAMES.iter().position(|&n| n == name)
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

/// Number of tunables: the evaluation weights ([`EvalWeights::to_vec`]'s
/// entries), then the search parameters ([`SearchParams::to_vec`]'s).
pub const TUNABLES: usize = EvalWeights::LEN + SearchParams::LEN;

/// The name of the tunable at `index`: [`EvalWeights::weight_name`] for the
/// weights, the field's name for the search parameters
/// ([`SearchParams::NAMES`]). `None` past the end.
pub fn tunable_name(index: usize) -> Option<String> {
    if index < EvalWeights::LEN {
        EvalWeights::weight_name(index)
    } else {
        SearchParams::NAMES
            .get(index - EvalWeights::LEN)
            .map(|n| n.to_string())
    }
}

/// Every tunable's value in `weights` and `search`, by index (see
/// [`tunable_name`]).
pub fn tunable_values(weights: &EvalWeights, search: &SearchParams) -> Vec<f64> {
    let mut v: Vec<f64> = weights.to_vec().into_iter().map(f64::from).collect();
    v.extend(search.to_vec());
    v
}

/// The inverse of [`tunable_values`]: the weights, rounded to whole
/// numbers, and the search parameters as [`SearchParams::from_vec`] keeps
/// them. `None` unless `v` has [`TUNABLES`] finite entries.
pub fn from_tunable_values(v: &[f64]) -> Option<(EvalWeights, SearchParams)> {
    if v.len() != TUNABLES || v.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let (weights, search) = v.split_at(EvalWeights::LEN);
    let weights: Vec<i32> = weights.iter().map(|x| x.round() as i32).collect();
    Some((
        EvalWeights::from_vec(&weights)?,
        SearchParams::from_vec(search)?,
    ))
}

/// Every tunable's name, in order, separated by commas: for the messages
/// that refuse an unknown one.
pub fn tunable_names() -> String {
    let all: Vec<String> = (0..TUNABLES).filter_map(tunable_name).collect();
    all.join(", ")
}

/// The index of the tunable called `name` (see [`tunable_name`]).
pub fn tunable_index(name: &str) -> Option<usize> {
    EvalWeights::weight_index(name)
        .or_else(|| SearchParams::index(name).map(|i| EvalWeights::LEN + i))
}

/// The largest magnitude `waggle --set` gives a weight, in centi-liberties:
/// twice the largest tuned weight, and small enough that no evaluation
/// comes near a mate score.
pub const MAX_SET_WEIGHT: f64 = 1_000.0;
/// The largest value `waggle --set` gives a search parameter (margins in
/// centi-liberties, divisors, plies): far past any that plays, and small
/// enough that no margin times a depth overflows.
pub const MAX_SET_SEARCH: f64 = 100_000.0;

/// Weights and search parameters set by name over those the engine plays
/// with (`waggle --set NAME=VALUE`), so that a match can try tuned values
/// without a rebuild. A value set without a game type applies in every game
/// type, over [`EvalWeights::for_game_type`]'s; one set for a game type
/// (`--set Base:mobile.A=70`) in games of that type only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// (index among the tunables, value, the game type it is for or `None`
    /// for all), in the order set.
    values: Vec<(usize, f64, Option<GameType>)>,
}

impl Overrides {
    /// Sets the tunable called `name` (see [`tunable_name`]) to `value`; a
    /// later setting of a name replaces the earlier one.
    ///
    /// # Errors
    /// An unknown name (the message lists the names), a weight that is not
    /// a whole number within ±[`MAX_SET_WEIGHT`], or a search parameter that
    /// is not a number within ±[`MAX_SET_SEARCH`]. The search parameters
    /// are then kept as [`SearchParams::from_vec`] keeps them (divisors at
    /// least 1, the rest at least 0).
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        self.set_for(None, name, value)
    }

    /// Sets the tunable called `name` to `value` in games of `game_type`
    /// only (`None`: in all, as [`Overrides::set`]). In a game of that type
    /// it wins over a value set for all game types, whichever came first; a
    /// later setting of a name for the same game types replaces the earlier
    /// one.
    ///
    /// # Errors
    /// As [`Overrides::set`].
    pub fn set_for(
        &mut self,
        game_type: Option<GameType>,
        name: &str,
        value: f64,
    ) -> Result<(), String> {
        let Some(index) = tunable_index(name) else {
            return Err(format!(
                "no weight or search parameter '{name}'; the names: {}",
                tunable_names()
            ));
        };
        let weight = index < EvalWeights::LEN;
        let max = if weight {
            MAX_SET_WEIGHT
        } else {
            MAX_SET_SEARCH
        };
        if !value.is_finite() || value.abs() > max {
            return Err(format!("{name}: {value} is not a number within ±{max}"));
        }
        if weight && value.fract() != 0.0 {
            return Err(format!("{name}: weights are whole numbers, not {value}"));
        }
        self.values
            .retain(|&(i, _, gt)| (i, gt) != (index, game_type));
        self.values.push((index, value, game_type));
        Ok(())
    }

    /// Sets one `NAME=VALUE`, or `GAMETYPE:NAME=VALUE` for games of that
    /// type only (`Base:mobile.A=70`; see [`Overrides::set_for`]).
    ///
    /// # Errors
    /// No `=`, a game type that is not one, a value that is not a number,
    /// or what [`Overrides::set`] refuses.
    pub fn set_assignment(&mut self, assignment: &str) -> Result<(), String> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("'{assignment}': expected NAME=VALUE or GAMETYPE:NAME=VALUE"))?;
        let (game_type, name) = match name.split_once(':') {
            Some((gt, name)) => {
                let gt = GameType::parse(gt.trim()).ok_or_else(|| {
                    format!(
                        "'{assignment}': '{gt}' is not a game type (Base, Base+M, …, \
                         Base+MLP)"
                    )
                })?;
                (Some(gt), name)
            }
            None => (None, name),
        };
        let value: f64 = value
            .trim()
            .parse()
            .map_err(|_| format!("'{assignment}': '{value}' is not a number"))?;
        self.set_for(game_type, name.trim(), value)
    }

    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `weights` and `search` with the values set here for a game of
    /// `game_type` in place.
    pub fn apply(
        &self,
        game_type: GameType,
        weights: &EvalWeights,
        search: SearchParams,
    ) -> (EvalWeights, SearchParams) {
        let mut v = tunable_values(weights, &search);
        // Those for every game type first, so that the game type's win.
        let all = self.values.iter().filter(|&&(_, _, gt)| gt.is_none());
        let own = self
            .values
            .iter()
            .filter(|&&(_, _, gt)| gt == Some(game_type));
        for &(i, x, _) in all.chain(own) {
            if let Some(p) = v.get_mut(i) {
                *p = x;
            }
        }
        from_tunable_values(&v).unwrap_or_else(|| (weights.clone(), search))
    }
}

/// Move ordering scores (bigger first).
pub mod order {
    /// The transposition-table move.
    pub const TT_MOVE: i32 = 1 << 30;
    /// A move that surrounds the enemy Queen (wins at once).
    pub const WINNING: i32 = 1 << 29;
    /// First killer of the ply.
    pub const KILLER_1: i32 = 1 << 24;
    /// Second killer of the ply.
    pub const KILLER_2: i32 = (1 << 24) - 1;
    /// The countermove to the opponent's last move.
    pub const COUNTER: i32 = (1 << 24) - 2;
    /// Per cell around the enemy Queen the move fills.
    pub const FILL_ENEMY_QUEEN: i32 = 12_000;
    /// Per cell around the own Queen the move frees.
    pub const FREE_OWN_QUEEN: i32 = 8_000;
    /// Per cell around the own Queen the move fills (a penalty).
    pub const FILL_OWN_QUEEN: i32 = -6_000;
    /// A placement from hand (moves on the board are usually sharper).
    pub const PLACEMENT: i32 = -2_000;
}

/// History scores saturate at this magnitude.
pub const HISTORY_MAX: i32 = 8_192;

/// Time management: fraction of a fixed `bestmove time` after which no new
/// iteration starts.
///
/// Searching on to the hard deadline instead scored even against it at
/// 0.2 s, 0.3 s and 1 s a move (81-85-34, 51-56-13, 53-51-16; README, *Tried
/// and not kept*).
pub const SOFT_FRACTION: f64 = 0.65;
/// Time management: safety margin kept from a fixed move time, in ms
/// (thread joins, output, process scheduling).
pub const MOVE_OVERHEAD_MS: u64 = 50;
/// Time management with a clock: expected number of moves still to play.
pub const CLOCK_MOVES_TO_GO: u64 = 25;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_put_each_value_in_its_place_and_nothing_else() {
        let mut o = Overrides::default();
        assert!(o.is_empty());
        assert_eq!(
            o.apply(GameType::MLP, &EvalWeights::DEFAULT, SearchParams::DEFAULT),
            (EvalWeights::DEFAULT, SearchParams::DEFAULT)
        );
        o.set_assignment("mobile.A=7").expect("a weight");
        o.set_assignment(" lmr_base = 1.5")
            .expect("a search parameter");
        o.set("queen_surround.3", -200.0).expect("a weight");
        o.set("mobile.A", 9.0).expect("set again");
        let (w, p) = o.apply(
            GameType::BASE,
            &EvalWeights::ROUND_ELEVEN_BASE,
            SearchParams::DEFAULT,
        );
        assert_eq!(
            w,
            EvalWeights {
                mobile: {
                    let mut m = EvalWeights::ROUND_ELEVEN_BASE.mobile;
                    m[Bug::Ant.index()] = 9;
                    m
                },
                queen_surround: {
                    let mut q = EvalWeights::ROUND_ELEVEN_BASE.queen_surround;
                    q[3] = -200;
                    q
                },
                ..EvalWeights::ROUND_ELEVEN_BASE
            }
        );
        assert_eq!(
            p,
            SearchParams {
                lmr_base: 1.5,
                ..SearchParams::DEFAULT
            }
        );
        // Search parameters are kept where the search works.
        o.set("null_divisor", -5.0).expect("within the bound");
        assert_eq!(
            o.apply(GameType::BASE, &w, SearchParams::DEFAULT)
                .1
                .null_divisor,
            1
        );
    }

    #[test]
    fn overrides_for_a_game_type_apply_in_its_games_only() {
        let mut o = Overrides::default();
        o.set_assignment("Base:mobile.A=70").expect("Base");
        o.set_assignment("tempo=30").expect("every game type");
        o.set_assignment("Base+MLP : tempo=40").expect("Base+MLP");
        // Set for all after the game type's: the game type's still wins.
        o.set_assignment("mobile.A=60").expect("every game type");
        o.set_assignment("Base:lmr_base=1.25")
            .expect("a search parameter");
        let w = &EvalWeights::DEFAULT;
        let ant = |w: &EvalWeights| w.mobile[Bug::Ant.index()];
        let (base, base_search) = o.apply(GameType::BASE, w, SearchParams::DEFAULT);
        assert_eq!((ant(&base), base.tempo), (70, 30));
        assert_eq!(base_search.lmr_base, 1.25);
        let (mlp, mlp_search) = o.apply(GameType::MLP, w, SearchParams::DEFAULT);
        assert_eq!((ant(&mlp), mlp.tempo), (60, 40));
        assert_eq!(mlp_search, SearchParams::DEFAULT);
        // A game type the values do not name gets those for all.
        let m = GameType::parse("Base+M").expect("a game type");
        let (only_m, _) = o.apply(m, w, SearchParams::DEFAULT);
        assert_eq!((ant(&only_m), only_m.tempo), (60, 30));
        // Set again for the same game type: replaced.
        o.set_assignment("Base:mobile.A=71").expect("Base");
        assert_eq!(
            ant(&o.apply(GameType::BASE, w, SearchParams::DEFAULT).0),
            71
        );
        for bad in ["Base+X:tempo=1", "base:tempo=1", ":tempo=1", "Base:tempo=x"] {
            assert!(o.set_assignment(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tunable_values_round_trip() {
        let (w, s) = (EvalWeights::ROUND_ELEVEN_BASE, SearchParams::DEFAULT);
        let mut v = tunable_values(&w, &s);
        assert_eq!(v.len(), TUNABLES);
        assert_eq!(from_tunable_values(&v), Some((w.clone(), s)));
        // Weights are rounded; a value lands under its name.
        let tempo = tunable_index("tempo").expect("a weight");
        let lmr = tunable_index("lmr_base").expect("a search parameter");
        v[tempo] = 41.6;
        v[lmr] = 1.25;
        let (w2, s2) = from_tunable_values(&v).expect("TUNABLES entries");
        assert_eq!(w2, EvalWeights { tempo: 42, ..w });
        assert_eq!(
            s2,
            SearchParams {
                lmr_base: 1.25,
                ..s
            }
        );
        assert_eq!(from_tunable_values(&v[1..]), None);
        v[tempo] = f64::NAN;
        assert_eq!(from_tunable_values(&v), None);
    }

    #[test]
    fn overrides_refuse_unknown_names_and_unplayable_values() {
        let mut o = Overrides::default();
        let e = o.set("futility", 1.0).expect_err("no such name");
        assert!(
            e.contains("futility_margin") && e.contains("in_hand.P"),
            "{e}"
        );
        assert!(o.set("mobile.B", 0.5).is_err());
        assert!(o.set("mobile.B", MAX_SET_WEIGHT + 1.0).is_err());
        assert!(o.set("mobile.B", f64::NAN).is_err());
        assert!(o.set("lmr_divisor", f64::INFINITY).is_err());
        assert!(o.set("futility_margin", MAX_SET_SEARCH * 2.0).is_err());
        assert!(o.set_assignment("mobile.B").is_err());
        assert!(o.set_assignment("mobile.B=x").is_err());
        assert!(o.is_empty());
    }

    #[test]
    fn search_params_round_trip_and_stay_where_the_search_works() {
        let d = SearchParams::DEFAULT;
        assert_eq!(SearchParams::from_vec(&d.to_vec()), Some(d));
        assert_eq!(d.to_vec().len(), SearchParams::LEN);
        // Each entry lands in its own field: a distinct value per index.
        let v: Vec<f64> = (0..SearchParams::LEN).map(|i| 10.0 + i as f64).collect();
        let p = SearchParams::from_vec(&v).expect("LEN entries");
        assert_eq!(p.to_vec(), v);
        assert_eq!(SearchParams::index("lmr_history_divisor"), Some(7));
        assert_eq!(p.lmr_history_divisor, 17);
        // Whole numbers are rounded; nothing goes below what the search
        // can divide by or count with.
        let mut v = vec![-5.0; SearchParams::LEN];
        v[1] = 149.6;
        let p = SearchParams::from_vec(&v).expect("LEN entries");
        assert_eq!(p.futility_margin, 150);
        assert_eq!((p.null_divisor, p.lmr_history_divisor), (1, 1));
        assert_eq!((p.aspiration_window, p.lmp_base, p.null_base), (1, 0, 0));
        assert_eq!((p.lmr_base, p.lmr_divisor), (0.0, 0.1));
        assert_eq!(SearchParams::from_vec(&v[1..]), None);
        v[3] = f64::NAN;
        assert_eq!(SearchParams::from_vec(&v), None);
    }

    #[test]
    fn every_weight_has_a_name_that_finds_its_field() {
        let mut names = Vec::new();
        for i in 0..EvalWeights::LEN {
            let name = EvalWeights::weight_name(i).expect("a name for every index");
            assert_eq!(EvalWeights::weight_index(&name), Some(i), "{name}");
            names.push(name);
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), EvalWeights::LEN, "the names are distinct");
        assert_eq!(EvalWeights::weight_name(EvalWeights::LEN), None);
        assert_eq!(EvalWeights::weight_index("mobile.X"), None);

        // A 1 written at a name's index lands in the field of that name.
        let set = |name: &str| {
            let mut v = vec![0; EvalWeights::LEN];
            v[EvalWeights::weight_index(name).expect(name)] = 1;
            EvalWeights::from_vec(&v).expect("LEN entries")
        };
        assert_eq!(set("mobile.B").mobile[Bug::Beetle.index()], 1);
        assert_eq!(set("in_hand.A").in_hand[Bug::Ant.index()], 1);
        assert_eq!(set("pinned.Q").pinned[Bug::Queen.index()], 1);
        assert_eq!(set("pinned.P").pinned[Bug::Pillbug.index()], 1);
        assert_eq!(set("queen_surround.3").queen_surround[3], 1);
        assert_eq!(set("queen_slide").queen_slide, 1);
        assert_eq!(set("beetle_on_top").beetle_on_top, 1);
        assert_eq!(set("beetle_by_queen").beetle_by_queen, 1);
        assert_eq!(set("tempo").tempo, 1);
    }
}
