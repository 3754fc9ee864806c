//! Differential test: Waggle's move generator against a deliberately naive,
//! independent one written here straight from `shared/spec/RULES.md`
//! (explicit board map, a flood fill for One Hive per piece, paths walked
//! step by step), over random games of every game type.
//!
//! The two sides share nothing but the UHP notation: the reference keeps its
//! own board in axial coordinates, spells its moves with any adjacent
//! reference piece, and Waggle parses them. Every position of every game must
//! give the same set of moves.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use waggle::hive::game::Game;
use waggle::hive::notation::{move_string, parse_move};
use waggle::hive::{GameType, Rules};

type Cell = (i32, i32);

/// Axial offsets clockwise from NW: NW, NE, E, SE, SW, W.
const DIRS: [Cell; 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

fn add(a: Cell, b: Cell) -> Cell {
    (a.0 + b.0, a.1 + b.1)
}

fn neighbors(c: Cell) -> [Cell; 6] {
    DIRS.map(|d| add(c, d))
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
struct P {
    white: bool,
    bug: char,
    num: u8,
}

impl P {
    fn name(self) -> String {
        let count = match self.bug {
            'S' | 'B' => 2,
            'G' | 'A' => 3,
            _ => 1,
        };
        let c = if self.white { 'w' } else { 'b' };
        if count > 1 {
            format!("{c}{}{}", self.bug, self.num)
        } else {
            format!("{c}{}", self.bug)
        }
    }
}

/// The reference engine's whole state.
#[derive(Clone)]
struct Ref {
    bugs: Vec<char>,
    board: HashMap<Cell, Vec<P>>,
    ply: u32,
    last_moved: Option<P>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
struct RMove {
    piece: P,
    to: Cell,
}

impl Ref {
    fn new(game_type: &str) -> Ref {
        let mut bugs = vec!['Q', 'S', 'B', 'G', 'A'];
        let ext = game_type.strip_prefix("Base+").unwrap_or("");
        bugs.extend(ext.chars());
        Ref {
            bugs,
            board: HashMap::new(),
            ply: 0,
            last_moved: None,
        }
    }

    fn white_to_move(&self) -> bool {
        self.ply.is_multiple_of(2)
    }

    fn height(&self, c: Cell) -> usize {
        self.board.get(&c).map_or(0, Vec::len)
    }

    fn top(&self, c: Cell) -> Option<P> {
        self.board.get(&c).and_then(|s| s.last().copied())
    }

    fn find(&self, p: P) -> Option<(Cell, usize)> {
        self.board
            .iter()
            .find_map(|(c, s)| s.iter().position(|&x| x == p).map(|i| (*c, i)))
    }

    fn placed(&self, white: bool, bug: char) -> u8 {
        self.board
            .values()
            .flatten()
            .filter(|p| p.white == white && p.bug == bug)
            .count() as u8
    }

    fn count(bug: char) -> u8 {
        match bug {
            'S' | 'B' => 2,
            'G' | 'A' => 3,
            _ => 1,
        }
    }

    fn connected(board: &HashMap<Cell, Vec<P>>) -> bool {
        let cells: Vec<Cell> = board
            .iter()
            .filter(|(_, s)| !s.is_empty())
            .map(|(c, _)| *c)
            .collect();
        let Some(&start) = cells.first() else {
            return true;
        };
        let set: HashSet<Cell> = cells.iter().copied().collect();
        let mut seen = HashSet::from([start]);
        let mut queue = VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            for n in neighbors(c) {
                if set.contains(&n) && seen.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        seen.len() == set.len()
    }

    /// The board with the top piece of `c` lifted off.
    fn without(&self, c: Cell) -> HashMap<Cell, Vec<P>> {
        let mut b = self.board.clone();
        if let Some(s) = b.get_mut(&c) {
            s.pop();
            if s.is_empty() {
                b.remove(&c);
            }
        }
        b
    }

    fn moves(&self) -> BTreeSet<RMove> {
        let mut out = BTreeSet::new();
        let white = self.white_to_move();
        let turn = self.ply / 2 + 1;
        // Placements.
        let queen_in_hand = self.placed(white, 'Q') == 0;
        let mut hand = Vec::new();
        for &bug in &self.bugs {
            let placed = self.placed(white, bug);
            if placed == Self::count(bug) {
                continue;
            }
            if bug == 'Q' && turn == 1 {
                continue;
            }
            if turn == 4 && queen_in_hand && bug != 'Q' {
                continue;
            }
            hand.push(P {
                white,
                bug,
                num: placed + 1,
            });
        }
        let cells: Vec<Cell> = if self.ply == 0 {
            vec![(0, 0)]
        } else if self.ply == 1 {
            neighbors((0, 0)).to_vec()
        } else {
            let mut v = HashSet::new();
            for (c, s) in &self.board {
                if s.last().is_some_and(|t| t.white == white) {
                    for n in neighbors(*c) {
                        let ok = self.height(n) == 0
                            && neighbors(n)
                                .iter()
                                .all(|&m| self.top(m).is_none_or(|t| t.white == white));
                        if ok {
                            v.insert(n);
                        }
                    }
                }
            }
            v.into_iter().collect()
        };
        for &p in &hand {
            for &c in &cells {
                out.insert(RMove { piece: p, to: c });
            }
        }
        // Movements.
        if queen_in_hand {
            return out;
        }
        let mine: Vec<(Cell, P)> = self
            .board
            .iter()
            .filter_map(|(c, s)| s.last().filter(|t| t.white == white).map(|t| (*c, *t)))
            .collect();
        for &(from, p) in &mine {
            if Some(p) == self.last_moved {
                continue;
            }
            let b = self.without(from);
            if Self::connected(&b) {
                for to in piece_moves(&b, from, p, self.height(from) - 1) {
                    if to != from {
                        out.insert(RMove { piece: p, to });
                    }
                }
            }
            // Pillbug powers (also a Mosquito on the ground touching a Pillbug).
            let ground = self.height(from) == 1;
            let thrower = p.bug == 'P'
                || (p.bug == 'M'
                    && neighbors(from)
                        .iter()
                        .any(|&n| self.top(n).is_some_and(|t| t.bug == 'P')));
            if ground && thrower {
                for n in neighbors(from) {
                    let Some(t) = self.top(n) else { continue };
                    if self.height(n) != 1 || Some(t) == self.last_moved {
                        continue;
                    }
                    let b = self.without(n);
                    if !Self::connected(&b) {
                        continue;
                    }
                    // Lift n onto the thrower, then drop to an empty neighbour.
                    if !step_ok(&b, n, 0, from) {
                        continue;
                    }
                    for c in neighbors(from) {
                        if b.get(&c).is_none_or(|s| s.is_empty())
                            && c != n
                            && step_ok(&b, from, 1, c)
                        {
                            out.insert(RMove { piece: t, to: c });
                        }
                    }
                }
            }
        }
        out
    }

    fn play(&mut self, m: RMove) {
        if let Some((c, _)) = self.find(m.piece) {
            let s = self.board.get_mut(&c).expect("stack");
            s.pop();
            if s.is_empty() {
                self.board.remove(&c);
            }
        }
        self.board.entry(m.to).or_default().push(m.piece);
        self.last_moved = Some(m.piece);
        self.ply += 1;
    }

    fn pass(&mut self) {
        self.last_moved = None;
        self.ply += 1;
    }

    /// Some valid spelling of `m`: a climb names the top piece there, a
    /// ground cell names an adjacent piece (not the mover) with its mark.
    fn spell(&self, m: RMove) -> String {
        let me = m.piece.name();
        if self.ply == 0 {
            return me;
        }
        let from = self.find(m.piece).map(|(c, _)| c);
        let lifted = |c: Cell| -> Option<P> {
            let s = self.board.get(&c)?;
            if Some(c) == from {
                s.iter().rev().nth(1).copied()
            } else {
                s.last().copied()
            }
        };
        if let Some(t) = lifted(m.to) {
            return format!("{me} {}", t.name());
        }
        // Prefer the last direction found, to differ from the canonical scan.
        let mut spelled = None;
        for (i, d) in DIRS.iter().enumerate() {
            if let Some(x) = lifted(add(m.to, *d)) {
                let x = x.name();
                spelled = Some(match i {
                    0 => format!("{me} {x}\\"),
                    1 => format!("{me} /{x}"),
                    2 => format!("{me} -{x}"),
                    3 => format!("{me} \\{x}"),
                    4 => format!("{me} {x}/"),
                    _ => format!("{me} {x}-"),
                });
            }
        }
        spelled.unwrap_or(me)
    }

    /// Reads a MoveString written by Waggle.
    fn parse(&self, s: &str) -> RMove {
        let mut it = s.split(' ');
        let me = it.next().expect("piece");
        let piece = self.piece_named(me);
        let to = match it.next() {
            None => (0, 0),
            Some(r) => {
                let (mark_before, name, mark_after) = if r.starts_with(['-', '/', '\\']) {
                    (r.chars().next(), &r[1..], None)
                } else if r.ends_with(['-', '/', '\\']) {
                    (None, &r[..r.len() - 1], r.chars().last())
                } else {
                    (None, r, None)
                };
                let (rc, _) = self
                    .find(self.piece_named(name))
                    .expect("reference on the board");
                let d = match (mark_before, mark_after) {
                    (None, None) => (0, 0),
                    (None, Some('-')) => (1, 0),
                    (None, Some('/')) => (1, -1),
                    (None, Some(_)) => (0, 1),
                    (Some('-'), _) => (-1, 0),
                    (Some('/'), _) => (-1, 1),
                    (Some(_), _) => (0, -1),
                };
                add(rc, d)
            }
        };
        RMove { piece, to }
    }

    fn piece_named(&self, s: &str) -> P {
        let b: Vec<char> = s.chars().collect();
        P {
            white: b[0] == 'w',
            bug: b[1],
            num: b.get(2).and_then(|c| c.to_digit(10)).unwrap_or(1) as u8,
        }
    }
}

fn h(b: &HashMap<Cell, Vec<P>>, c: Cell) -> usize {
    b.get(&c).map_or(0, Vec::len)
}

/// One step from `from` (with `hf` pieces left under the mover) to the
/// neighbour `to`: the height gate of RULES.md and contact with the hive.
fn step_ok(b: &HashMap<Cell, Vec<P>>, from: Cell, hf: usize, to: Cell) -> bool {
    let d = (to.0 - from.0, to.1 - from.1);
    let i = DIRS.iter().position(|&x| x == d).expect("adjacent");
    let l = h(b, add(from, DIRS[(i + 5) % 6]));
    let r = h(b, add(from, DIRS[(i + 1) % 6]));
    let ht = h(b, to);
    if hf == 0 && ht == 0 {
        // A slide: one flank keeps contact, two flanks make a gate.
        (l > 0) != (r > 0)
    } else {
        l.min(r) <= hf.max(ht)
    }
}

fn slides(b: &HashMap<Cell, Vec<P>>, c: Cell) -> Vec<Cell> {
    neighbors(c)
        .into_iter()
        .filter(|&n| h(b, n) == 0 && step_ok(b, c, 0, n))
        .collect()
}

/// Destinations of piece `p` lifted from `from` (board `b` without it, `hf`
/// pieces left under it).
fn piece_moves(b: &HashMap<Cell, Vec<P>>, from: Cell, p: P, hf: usize) -> HashSet<Cell> {
    let mut out = HashSet::new();
    let bug_moves = |bug: char, out: &mut HashSet<Cell>| match bug {
        'Q' | 'P' => out.extend(slides(b, from)),
        'B' => {
            for n in neighbors(from) {
                if step_ok(b, from, hf, n) {
                    out.insert(n);
                }
            }
        }
        'G' => {
            for d in DIRS {
                let mut c = add(from, d);
                if h(b, c) == 0 {
                    continue;
                }
                while h(b, c) > 0 {
                    c = add(c, d);
                }
                out.insert(c);
            }
        }
        'A' => {
            let mut seen = HashSet::from([from]);
            let mut queue = VecDeque::from([from]);
            while let Some(c) = queue.pop_front() {
                for n in slides(b, c) {
                    if seen.insert(n) {
                        out.insert(n);
                        queue.push_back(n);
                    }
                }
            }
        }
        'S' => {
            for a in slides(b, from) {
                for c2 in slides(b, a) {
                    if c2 == from {
                        continue;
                    }
                    for c3 in slides(b, c2) {
                        if c3 != a && c3 != from {
                            out.insert(c3);
                        }
                    }
                }
            }
        }
        'L' => {
            for a in neighbors(from) {
                if h(b, a) == 0 || !step_ok(b, from, 0, a) {
                    continue;
                }
                for c2 in neighbors(a) {
                    if h(b, c2) == 0 || !step_ok(b, a, h(b, a), c2) {
                        continue;
                    }
                    for c3 in neighbors(c2) {
                        if h(b, c3) == 0 && c3 != from && step_ok(b, c2, h(b, c2), c3) {
                            out.insert(c3);
                        }
                    }
                }
            }
        }
        _ => {}
    };
    if p.bug == 'M' {
        if hf > 0 {
            bug_moves('B', &mut out);
        } else {
            let copied: HashSet<char> = neighbors(from)
                .iter()
                .filter_map(|n| b.get(n).and_then(|s| s.last()).map(|t| t.bug))
                .filter(|&bug| bug != 'M')
                .collect();
            for bug in copied {
                bug_moves(bug, &mut out);
            }
        }
    } else {
        bug_moves(p.bug, &mut out);
    }
    out
}

fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// Plays `games` random games of `game_type` in both generators and checks
/// every position. Moves of climbing and special bugs are favoured so that
/// stacks, gates at height and Pillbug throws come up often.
fn compare(game_type: &str, games: u64, max_plies: usize) -> usize {
    let mut positions = 0;
    for seed in 1..=games {
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut game = Game::new(
            GameType::parse(game_type).expect("type"),
            Rules::default(),
            false,
        );
        let mut reference = Ref::new(game_type);
        for _ in 0..max_plies {
            if game.outcome().is_some() {
                break;
            }
            let pos = game.position().clone();
            let ours: BTreeSet<String> = game.legal_move_strings().into_iter().collect();
            let theirs_raw = reference.moves();
            let theirs: BTreeSet<String> = if theirs_raw.is_empty() {
                BTreeSet::from(["pass".to_string()])
            } else {
                theirs_raw
                    .iter()
                    .map(|&m| {
                        let s = reference.spell(m);
                        match parse_move(&pos, &s) {
                            Ok(mv) => move_string(&pos, mv),
                            Err(e) => format!("<{s}: {e}>"),
                        }
                    })
                    .collect()
            };
            assert_eq!(
                ours,
                theirs,
                "{game_type} seed {seed}: move sets differ in {}\nonly Waggle: {:?}\nonly reference: {:?}",
                game.game_string(),
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>()
            );
            positions += 1;
            let list: Vec<&String> = ours.iter().collect();
            let special: Vec<&String> = list
                .iter()
                .copied()
                .filter(|m| m.len() > 2 && matches!(&m[1..2], "B" | "M" | "P" | "L"))
                .collect();
            let pick = if !special.is_empty() && next(&mut rng).is_multiple_of(2) {
                special[next(&mut rng) as usize % special.len()]
            } else {
                list[next(&mut rng) as usize % list.len()]
            };
            if pick == "pass" {
                reference.pass();
            } else {
                reference.play(reference.parse(pick));
            }
            game.play_str(pick).expect("our own move is legal");
        }
    }
    positions
}

#[test]
fn random_games_agree_in_every_game_type() {
    let mut total = 0;
    for t in [
        "Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP",
    ] {
        total += compare(t, 12, 100);
    }
    assert!(total > 5_000, "only {total} positions compared");
}

#[test]
#[ignore = "long: thousands of Base+MLP games; run with --release -- --ignored"]
fn thousands_of_mlp_games_agree() {
    let n = compare("Base+MLP", 2_000, 150);
    assert!(n > 100_000);
}
