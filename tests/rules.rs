//! One test per edge case of `shared/spec/RULES.md` §3, plus random-playout
//! checks of the hash and of make/unmake.
//!
//! Cells in the comments are axial `(q, r)` offsets from White's first piece;
//! `X-` is east of X, `-X` west, `X/` north-east, `/X` south-west, `X\`
//! south-east and `\X` north-west.

use waggle::hive::game::{Game, PlayError};
use waggle::hive::notation::{ground_move_string, move_string, parse_move};
use waggle::hive::{Color, Direction, GameType, Move, MoveList, Outcome, Position, Rules};

fn load(s: &str) -> Game {
    Game::from_game_string(s, Rules::default(), true)
        .unwrap_or_else(|e| panic!("test GameString does not load: {e}\n{s}"))
}

fn moves_of(g: &Game, piece: &str) -> Vec<String> {
    let prefix = format!("{piece} ");
    let mut v: Vec<String> = g
        .legal_move_strings()
        .into_iter()
        .filter(|m| m.starts_with(&prefix))
        .collect();
    v.sort();
    v
}

fn illegal_reason(g: &Game, text: &str) -> String {
    let mut copy = g.clone();
    match copy.play_str(text) {
        Err(PlayError::Illegal(r)) => r,
        other => panic!("expected '{text}' to be illegal, got {other:?}"),
    }
}

/// §3.1: a piece that is the only link cannot move, even with room around it.
#[test]
fn the_only_link_is_pinned() {
    // wQ(-1,0) wS1(0,0) bS1(1,0) bQ(2,0): wS1 holds the line together.
    let g = load("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
    assert!(moves_of(&g, "wS1").is_empty());
    assert!(
        !moves_of(&g, "wQ").is_empty(),
        "the end of the line is free"
    );
    let reason = illegal_reason(&g, "wS1 \\wQ");
    assert!(reason.contains("split"), "{reason}");
}

/// §3.2: a Beetle on top of the only link may leave it.
#[test]
fn a_beetle_on_the_link_may_leave() {
    // wB1 climbs onto wS1, the link between wQ and bS1.
    let g = load(
        "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bB1 bQ-;wB1 wS1;bA1 bB1-",
    );
    let beetle = moves_of(&g, "wB1");
    assert_eq!(beetle.len(), 6, "{beetle:?}");
    assert!(
        moves_of(&g, "wS1").is_empty(),
        "the covered Spider is frozen"
    );
}

/// §3.3: no slide through a gate; an Ant cannot reach a hole that only a gate
/// opens onto.
#[test]
fn ants_do_not_enter_gated_holes() {
    // The empty cell X = (1,0) has five occupied neighbours (wQ, wS2, wS1,
    // wA1, wG1); its sixth, (2,0), is empty but the step from there into X
    // has both flanks (wS2, wS1) occupied.
    let g = load(
        "Base;InProgress;Black[5];wG1;bG1 -wG1;wQ wG1/;bQ \\bG1;wA1 wG1\\;bA1 -bG1;wS1 wA1-;bA2 -bA1;wS2 wQ-",
    );
    let pos = g.position();
    let x = pos
        .hex_of(piece(pos, "wG1"))
        .expect("on board")
        .neighbor(Direction::East);
    assert!(!pos.is_occupied(x));
    assert_eq!(pos.occupied_neighbors(x), 5);
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    let ant = piece(pos, "bA2");
    let ant_dests: Vec<_> = list
        .iter()
        .filter(|m| m.piece() == Some(ant))
        .filter_map(|m| m.to())
        .collect();
    assert!(!ant_dests.is_empty());
    assert!(!ant_dests.contains(&x), "the Ant slid into a gated hole");
    // The cell in front of the gate is reachable.
    assert!(ant_dests.contains(&x.neighbor(Direction::East)));
}

/// §3.4: the Spider moves exactly three cells, never back, never through its
/// start, and each destination is listed once.
#[test]
fn spider_walks_three_without_backtracking() {
    // A line wS1(-2,0) wQ wG1 bG1 bQ bS1(3,0): the Spider at the end reaches
    // (1,-1) over the top and (0,1) underneath, nothing else.
    let g = load("Base;InProgress;White[4];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wS1 -wQ;bS1 bQ-");
    let spider = moves_of(&g, "wS1");
    assert_eq!(
        spider,
        vec!["wS1 \\bG1".to_string(), "wS1 wG1\\".to_string()]
    );
}

/// §3.5: a Grasshopper jumps over a line to the first empty cell only.
#[test]
fn grasshopper_jumps_only_over_pieces() {
    let g = load("Base;InProgress;White[4];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wG2 -wQ;bS1 bQ-");
    assert_eq!(moves_of(&g, "wG2"), vec!["wG2 bS1-".to_string()]);
}

/// §3.6: a Beetle on a Queen freezes her; she is not surrounded by it.
#[test]
fn beetle_on_queen_freezes_her() {
    let g = load(
        "Base;InProgress;White[5];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wB1 \\wQ;bA1 bQ-;wB1 wQ;bA2 bA1-",
    );
    assert!(moves_of(&g, "wQ").is_empty());
    assert!(!g.position().queen_surrounded(Color::White));
    assert_eq!(g.outcome(), None);
    assert!(!moves_of(&g, "wB1").is_empty());
}

/// §3.7: a win by surround, a loss by surrounding one's own Queen, and a draw
/// when both Queens are surrounded by one move.
#[test]
fn surround_wins_loses_and_draws() {
    let won = "Base;InProgress;White[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1";
    let g = load(won);
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));
    assert!(g.game_string().starts_with("Base;WhiteWins;Black[8];"));
    let mut g2 = g.clone();
    assert!(matches!(
        g2.play_str("bA1 bG2/"),
        Err(PlayError::GameOver(_))
    ));
    g2.undo(1).expect("undo a finished game");
    assert_eq!(g2.outcome(), None);

    // Every move that completes a surround, found by walking games that
    // steer pieces next to the Queens: the mover's own Queen alone means a
    // loss, both Queens a draw.
    let (mut own, mut both, mut enemy) = (0, 0, 0);
    for seed in 1..=40u64 {
        let mut rng = seed;
        let mut pos = Position::new(GameType::BASE, Rules::default());
        for _ in 0..120 {
            if pos.surround_outcome().is_some() {
                break;
            }
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            let mover = pos.side_to_move();
            for &mv in &list {
                pos.make(mv);
                let w = pos.queen_surrounded(mover);
                let b = pos.queen_surrounded(mover.opponent());
                let out = pos.surround_outcome();
                match (w, b) {
                    (true, true) => {
                        both += 1;
                        assert_eq!(out, Some(Outcome::Draw));
                    }
                    (true, false) => {
                        own += 1;
                        assert_eq!(out, Some(Outcome::Win(mover.opponent())));
                    }
                    (false, true) => {
                        enemy += 1;
                        assert_eq!(out, Some(Outcome::Win(mover)));
                    }
                    (false, false) => assert_eq!(out, None),
                }
                pos.unmake();
            }
            let mv = steer_to_queens(&pos, &list, &mut rng);
            pos.make(mv);
        }
    }
    assert!(own > 0 && enemy > 0, "own {own} enemy {enemy} both {both}");
}

/// §3.8: only Queen placements on turn 4 with the Queen in hand, and no
/// movement before the Queen is down.
#[test]
fn queen_deadline_and_no_movement_before_her() {
    let mut g = load("Base;InProgress;White[3];wS1;bS1 wS1-;wG1 -wS1;bG1 bS1-");
    let pos = g.position();
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    assert!(list.iter().all(|m| matches!(m, Move::Place { .. })));
    assert!(list
        .iter()
        .any(|m| m.piece().is_some_and(|p| p.to_string() == "wQ")));
    let reason = illegal_reason(&g, "wS1 -wG1");
    assert!(reason.contains("Queen"), "{reason}");

    g.play_str("wA1 -wG1").expect("legal");
    g.play_str("bA1 bG1-").expect("legal");
    let all = g.legal_move_strings();
    assert!(!all.is_empty());
    assert!(all.iter().all(|m| m.starts_with("wQ ")), "{all:?}");
    let reason = illegal_reason(&g, "wA2 -wA1");
    assert!(reason.contains("fourth turn"), "{reason}");
}

/// §3.9: `pass` only when it is the only legal move.
#[test]
fn pass_only_when_forced() {
    let mut forced = load("Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1");
    assert_eq!(forced.legal_move_strings(), vec!["pass".to_string()]);
    forced.play_str("pass").expect("forced pass");
    assert!(forced.game_string().ends_with(";pass"));
    assert!(forced.game_string().contains("Black[7]"));

    let free = load("Base;InProgress;White[2];wS1;bS1 wS1-");
    assert!(illegal_reason(&free, "pass").contains("pass"));
}

/// §3.10: the third occurrence of a position anywhere in the game is a draw;
/// undo takes the count back; the option turns it off.
#[test]
fn threefold_repetition_draws_and_undo_resumes() {
    let shuffle = [
        "wS1", "bB1 wS1-", "wQ \\wS1", "bQ bB1\\", "wQ -wS1", "bQ bB1-", "wQ \\wS1", "bQ bB1\\",
        "wQ -wS1", "bQ bB1-", "wQ \\wS1", "bQ bB1\\",
    ];
    let mut g = Game::new(GameType::BASE, Rules::default(), true);
    for (i, m) in shuffle.iter().enumerate() {
        assert_eq!(g.outcome(), None, "over too early, before move {}", i + 1);
        g.play_str(m).expect("legal shuffle");
    }
    // The position after move 4 recurs after moves 8 and 12.
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert!(g.game_string().starts_with("Base;Draw;White[7];"));
    assert!(matches!(g.play_str("wQ -wS1"), Err(PlayError::GameOver(_))));
    g.undo(1).expect("undo");
    assert_eq!(g.outcome(), None);
    g.play_str("bQ bB1\\").expect("replay");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    g.set_repetition_draw(false);
    assert_eq!(g.outcome(), None);
    assert!(g.game_string().starts_with("Base;InProgress;"));
}

/// §3.11: every valid spelling of a legal move is accepted: any adjacent
/// reference (including covered pieces and the mover itself), any case, any
/// spacing.
#[test]
fn every_spelling_of_a_move_is_accepted() {
    let mut checked = 0;
    for (seed, game_type) in [(7u64, GameType::BASE), (11, GameType::MLP)] {
        let uniform =
            |_: &Position, list: &MoveList, rng: &mut u64| list[next(rng) as usize % list.len()];
        playout(game_type, 60, seed, uniform, |pos, list| {
            for &mv in list {
                for spelling in spellings(pos, mv) {
                    let parsed = parse_move(pos, &spelling)
                        .unwrap_or_else(|e| panic!("'{spelling}' rejected: {e}"));
                    assert_eq!(parsed, mv, "'{spelling}'");
                    checked += 1;
                }
            }
        });
    }
    assert!(checked > 1000, "only {checked} spellings checked");
}

/// All the ways to write `mv` in `pos`, as a GUI or a peer engine might.
fn spellings(pos: &Position, mv: Move) -> Vec<String> {
    let canonical = move_string(pos, mv);
    let mut out = vec![
        canonical.clone(),
        canonical.to_uppercase().replace("PASS", "pass"),
        format!("  {}  ", canonical.replace(' ', "   ")),
    ];
    let (Some(piece), Some(to)) = (mv.piece(), mv.to()) else {
        return out;
    };
    if pos.ply() == 0 {
        return out;
    }
    if pos.is_occupied(to) {
        return out; // a climb names the top piece only
    }
    for d in Direction::ALL {
        let n = to.neighbor(d);
        // Every piece of the neighbouring stack, top or covered.
        let mut stack = Vec::new();
        let mut p = pos.top(n);
        while let Some(x) = p {
            stack.push(x);
            p = pos.below(x);
        }
        for x in stack {
            // `to` lies in direction opposite(d) from x.
            let s = ground_move_string(&piece.to_string(), &x.to_string(), d.opposite());
            out.push(s.to_lowercase());
            out.push(s);
        }
    }
    out
}

fn piece(pos: &Position, name: &str) -> waggle::hive::Piece {
    let p = waggle::hive::notation::parse_piece(name).expect("piece name");
    assert!(pos.is_on_board(p), "{name} is not on the board");
    p
}

/// xorshift64*: a tiny deterministic generator for playouts.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// Plays up to `plies` moves of `game_type` from the start, chosen by
/// `choose` from a generator seeded with `seed`, and stops once a Queen is
/// surrounded. `visit` sees every position before its move is chosen, with
/// its legal moves, and must leave it as it found it.
fn playout(
    game_type: GameType,
    plies: usize,
    seed: u64,
    choose: impl Fn(&Position, &MoveList, &mut u64) -> Move,
    mut visit: impl FnMut(&mut Position, &MoveList),
) {
    let mut rng = seed;
    let mut pos = Position::new(game_type, Rules::default());
    for _ in 0..plies {
        if pos.surround_outcome().is_some() {
            break;
        }
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        visit(&mut pos, &list);
        let mv = choose(&pos, &list, &mut rng);
        pos.make(mv);
    }
}

/// A random move, preferring ones that land next to a Queen.
fn steer_to_queens(pos: &Position, list: &MoveList, rng: &mut u64) -> Move {
    let near: Vec<Move> = list
        .iter()
        .copied()
        .filter(|m| {
            m.to().is_some_and(|to| {
                Color::ALL
                    .iter()
                    .filter_map(|&c| pos.queen(c))
                    .any(|q| q.is_adjacent(to))
            })
        })
        .collect();
    if !near.is_empty() && !next(rng).is_multiple_of(4) {
        near[next(rng) as usize % near.len()]
    } else {
        list[next(rng) as usize % list.len()]
    }
}

/// `surround_outcome_after` answers what playing the move and asking
/// `surround_outcome` would, for every legal move along playouts steered
/// towards the Queens (so that surrounds, and moves that fill one cell of a
/// Queen while emptying another, are common).
#[test]
fn the_outcome_of_a_move_is_known_before_it_is_played() {
    let types = ["Base", "Base+M", "Base+P", "Base+MLP"];
    let mut decided = [0usize; 2];
    for (i, t) in types.iter().enumerate() {
        let game_type = GameType::parse(t).expect("game type");
        for seed in 0..12u64 {
            let rng = 0x5DEE_CE66 + 977 * seed + i as u64;
            playout(game_type, 200, rng, steer_to_queens, |pos, list| {
                for &mv in list {
                    let predicted = pos.surround_outcome_after(mv);
                    pos.make(mv);
                    let played = pos.surround_outcome();
                    pos.unmake().expect("the move just made");
                    assert_eq!(predicted, played, "{t}: {:?} in {pos:?}", mv);
                    match played {
                        Some(Outcome::Win(_)) => decided[0] += 1,
                        Some(Outcome::Draw) => decided[1] += 1,
                        None => {}
                    }
                }
            });
        }
    }
    assert!(decided[0] >= 20, "too few winning moves seen: {decided:?}");
}

/// The cells that hold the hive together, found by the articulation pass
/// (which decides from each cell's ring of neighbours alone where the hive
/// encloses no empty cell) and by a search from each cell, agree along
/// playouts steered towards the Queens, which often close a ring of pieces
/// around an empty cell; and the hive's own count of such rings (Euler's
/// formula, kept as cells fill and empty) agrees with a flood fill of the
/// empty cells. Both kinds of position must be seen.
#[test]
fn cut_cells_agree_with_and_without_enclosed_empty_cells() {
    let mut seen = [0usize; 2];
    for (i, t) in ["Base", "Base+MLP"].iter().enumerate() {
        let game_type = GameType::parse(t).expect("game type");
        for seed in 0..48u64 {
            let rng = 0x2545_F491 + 131 * seed + i as u64;
            playout(game_type, 200, rng, steer_to_queens, |pos, _| {
                let cut = pos.articulation_points();
                for hex in pos.occupied().iter() {
                    assert_eq!(cut.contains(hex), pos.splits_hive(hex), "{t}: {pos:?}");
                }
                let holes = encloses_empty_cells(pos);
                assert_eq!(pos.encloses_empty_cells(), holes, "{t}: {pos:?}");
                seen[usize::from(holes)] += 1;
            });
        }
    }
    assert!(
        seen[0] >= 100 && seen[1] >= 100,
        "positions without and with holes: {seen:?}"
    );
}

/// Whether some empty cell next to the hive cannot reach the outside through
/// empty cells: its region of empty cells is small (the outside spans the
/// whole board).
fn encloses_empty_cells(pos: &Position) -> bool {
    let occupied: Vec<_> = pos.occupied().iter().collect();
    occupied.iter().flat_map(|h| h.neighbors()).any(|start| {
        if pos.is_occupied(start) {
            return false;
        }
        let mut region = vec![start];
        let mut k = 0;
        while k < region.len() && region.len() <= 200 {
            for n in region[k].neighbors() {
                if !pos.is_occupied(n) && !region.contains(&n) {
                    region.push(n);
                }
            }
            k += 1;
        }
        region.len() <= 200
    })
}

/// After random playouts in every game type, the incremental hash equals the
/// from-scratch hash and unmake restores every position exactly.
#[test]
fn playouts_keep_hash_and_unmake_exact() {
    let types = [
        "Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP",
    ];
    for (i, t) in types.iter().enumerate() {
        let game_type = GameType::parse(t).expect("game type");
        let mut rng = 0x9E37_79B9 + i as u64;
        let mut pos = Position::new(game_type, Rules::default());
        let mut snapshots = Vec::new();
        for _ in 0..150 {
            if pos.surround_outcome().is_some() {
                break;
            }
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            let mut sorted: Vec<_> = list.iter().map(|&m| format!("{m:?}")).collect();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), list.len(), "duplicate moves in {t}");
            // Two independent answers to "which cells hold the hive
            // together": a Hopcroft–Tarjan pass and the per-cell search.
            let cut = pos.articulation_points();
            for hex in pos.occupied().iter() {
                assert_eq!(cut.contains(hex), pos.splits_hive(hex), "{t}: {pos:?}");
            }
            snapshots.push((pos.hash(), pos.clone(), list.len()));
            let mv = list[next(&mut rng) as usize % list.len()];
            pos.make(mv);
            assert_eq!(pos.hash(), pos.compute_hash());
        }
        while let Some((hash, before, count)) = snapshots.pop() {
            pos.unmake().expect("a move to undo");
            assert_eq!(pos.hash(), hash);
            assert_eq!(pos.compute_hash(), hash);
            assert_eq!(pos.count_moves(), count);
            assert_eq!(format!("{pos:?}"), format!("{before:?}"));
            assert_eq!(pos.heights(), before.heights());
        }
        assert_eq!(pos.ply(), 0);
    }
}

/// The Zobrist keys are fixed on purpose: `tests/data/zobrist.tsv` pins the
/// hash of a few positions, so any change of keys is deliberate.
#[test]
fn zobrist_hashes_match_the_golden_file() {
    let mut checked = 0;
    for line in include_str!("data/zobrist.tsv").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (gs, hex) = line.split_once('\t').expect("two columns");
        let g = load(gs);
        let want = u64::from_str_radix(hex, 16).expect("hex hash");
        assert_eq!(g.position().hash(), want, "{gs}");
        assert_eq!(g.position().compute_hash(), want, "{gs}");
        checked += 1;
    }
    assert!(checked >= 5);
}
