//! Property tests over random playouts of every game type (issue 6, item 2).
//!
//! A playout is a game type, a rule switch and one number per ply; the number
//! picks the move among the legal ones, so proptest can shrink a failing game
//! to a short one. Along each playout we check that:
//!
//! * the incremental Zobrist hash equals the hash computed from scratch;
//! * make/unmake restores the position exactly (stacks, hand, hash, legal
//!   moves), one move at a time and all the way back to the start;
//! * every generated move, written canonically, parses back to the same move
//!   and is accepted by `play`; so is every other valid spelling of it (any
//!   adjacent reference, any piece of the reference stack, any letter case);
//! * `validmoves` never lists a move twice;
//! * `undo N` and replaying the same moves gives the same GameStrings;
//! * a GameString re-loads to the same game, however its moves are spelled.
//!
//! The case counts are kept small so `cargo test` stays quick on two cores;
//! `PROPTEST_CASES=1000 cargo test --release --test properties` runs more.

use proptest::prelude::*;
use std::collections::HashSet;
use waggle::engine::eval::Features;
use waggle::engine::params::SPAWN_CELLS_MAX;
use waggle::hive::diagram::diagram;
use waggle::hive::game::Game;
use waggle::hive::notation::{ground_move_string, move_string, parse_move};
use waggle::hive::{Bug, Color, Direction, GameType, Hex, Move, MoveList, Position, Rules};
use waggle::uhp::UhpServer;

/// The eight UHP game types.
const GAME_TYPES: [&str; 8] = [
    "Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP",
];

/// Longest playout: long enough for every piece to enter play, for Pillbug
/// throws, stacks of beetles and the odd repetition.
const MAX_PLIES: usize = 90;

/// A random game: game type, tournament opening on or off, and the choice of
/// move at each ply.
#[derive(Clone, Debug)]
struct Playout {
    game_type: usize,
    tournament_opening: bool,
    choices: Vec<u16>,
}

fn playout() -> impl Strategy<Value = Playout> {
    (
        0..GAME_TYPES.len(),
        prop::bool::weighted(0.8),
        prop::collection::vec(any::<u16>(), 0..MAX_PLIES),
    )
        .prop_map(|(game_type, tournament_opening, choices)| Playout {
            game_type,
            tournament_opening,
            choices,
        })
}

impl Playout {
    fn new_game(&self) -> Game {
        let ty = GameType::parse(GAME_TYPES[self.game_type]).expect("a canonical game type");
        let rules = Rules {
            tournament_opening: self.tournament_opening,
        };
        Game::new(ty, rules, true)
    }

    /// Plays the playout, calling `visit` on the start position and after
    /// every move. Stops early when the game ends.
    fn play(&self, mut visit: impl FnMut(&Game)) -> Game {
        let mut game = self.new_game();
        visit(&game);
        for &c in &self.choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[c as usize % moves.len()];
            if let Err(e) = game.play(mv) {
                panic!(
                    "generated move {} rejected in {}: {e}",
                    move_string(game.position(), mv),
                    game.game_string()
                );
            }
            visit(&game);
        }
        game
    }
}

/// `cases` cases, unless `PROPTEST_CASES` asks for another number.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        // Persisting failures would write files next to the tests; a failing
        // case is printed in full (game type and choices) instead.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Everything that makes a position what it is: every stack from the bottom
/// up, the pieces in hand, the side to move, the piece that moved last, the
/// repetition count, the hash and the legal moves in generation order.
fn fingerprint(pos: &Position) -> String {
    let mut s = format!(
        "ply {} side {:?} hash {:016x} last {:?} reps {}\n",
        pos.ply(),
        pos.side_to_move(),
        pos.hash(),
        pos.last_moved(),
        pos.repetitions()
    );
    for hex in pos.occupied().iter() {
        let mut stack: Vec<String> = pos.stack(hex).map(|p| p.to_string()).collect();
        stack.reverse();
        s += &format!(
            "{hex:?}: {} (height {})\n",
            stack.join(" "),
            pos.height(hex)
        );
    }
    for color in Color::ALL {
        for bug in Bug::ALL {
            s += &format!("{}", pos.in_hand(color, bug));
        }
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    s += &format!("\n{moves:?}");
    s
}

/// Every valid spelling of `mv` in `pos` (the canonical one included): each
/// piece of each stack next to a ground destination, with the matching
/// mark, including the moving piece itself (UHP.md §4.4, "self-reference").
fn all_spellings(pos: &Position, mv: Move) -> Vec<String> {
    let (Some(piece), Some(to)) = (mv.piece(), mv.to()) else {
        return vec!["pass".into(), "PASS".into(), " Pass ".into()];
    };
    let name = piece.to_string();
    if pos.ply() == 0 {
        return vec![name.clone(), name.to_ascii_uppercase()];
    }
    let mut out = Vec::new();
    if let Some(top) = pos.top(to) {
        out.push(format!("{name} {top}"));
    } else {
        for d in Direction::ALL {
            // The reference X sits in direction d of `to`, so `to` lies in
            // the opposite direction from X.
            let x_hex: Hex = to.neighbor(d);
            for x in pos.stack(x_hex) {
                out.push(ground_move_string(&name, &x.to_string(), d.opposite()));
            }
        }
    }
    // Any letter case, and runs of spaces.
    let extra: Vec<String> = out
        .iter()
        .flat_map(|s| {
            [
                s.to_ascii_uppercase(),
                s.to_ascii_lowercase(),
                format!("  {}  ", s.replace(' ', "   ")),
            ]
        })
        .collect();
    out.extend(extra);
    out
}

/// Reads the answers a server wrote since `from`, checking the `ok` framing.
fn answer(server: &UhpServer<Vec<u8>>, from: &mut usize) -> Vec<String> {
    let out = server.output();
    let text = String::from_utf8_lossy(&out[*from..]).into_owned();
    *from = out.len();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(
        lines.pop().as_deref(),
        Some("ok"),
        "answer not ended by ok: {text}"
    );
    assert!(!lines.iter().any(|l| l == "ok"), "stray ok in {text}");
    lines
}

/// Checks `waggle analyse --board`'s drawing against the position: every
/// top piece is drawn once, each neighbour sits where its direction says
/// (NW and NE half a cell left and right on the line above, E and W a whole
/// cell away on the same line, SW and SE on the line below), every empty
/// cell next to the hive is a dot, each stack is spelled out from the top
/// down, and the pieces in hand are listed.
fn check_diagram(pos: &Position, game_string: &str) {
    let lines = diagram(pos);
    let grid_len = lines
        .iter()
        .position(|l| l.contains(" on ") || l.contains(" in hand: ") || l == "(the board is empty)")
        .expect("the hands are listed");
    let (grid, rest) = lines.split_at(grid_len);
    // Where each top piece's five-character slot starts: (line, column).
    let mut at = std::collections::HashMap::new();
    for hex in pos.occupied().iter() {
        let piece = pos.top(hex).expect("an occupied cell has a top piece");
        let name = piece.to_string();
        let label = if pos.height(hex) > 1 {
            format!("({name})")
        } else {
            name.clone()
        };
        let found: Vec<(usize, usize)> = grid
            .iter()
            .enumerate()
            .flat_map(|(i, l)| l.match_indices(&label).map(move |(c, _)| (i, c)))
            .collect();
        assert_eq!(
            found.len(),
            1,
            "{label} drawn once in {game_string}:\n{}",
            lines.join("\n")
        );
        let (line, column) = found[0];
        // Labels are centred in five characters, a spare space on the right.
        let slot = column - (5 - label.len()) / 2;
        at.insert(hex, (line as i64, slot as i64));
    }
    // (line, column) steps of NW, NE, E, SE, SW, W.
    const STEPS: [(i64, i64); 6] = [(-1, -3), (-1, 3), (0, 6), (1, 3), (1, -3), (0, -6)];
    let mut empty_neighbours = HashSet::new();
    for (&hex, &(line, column)) in &at {
        for (d, (dl, dc)) in Direction::ALL.into_iter().zip(STEPS) {
            let n = hex.neighbor(d);
            match at.get(&n) {
                Some(&there) => assert_eq!(
                    there,
                    (line + dl, column + dc),
                    "{d:?} of {:?} in {game_string}:\n{}",
                    pos.top(hex),
                    lines.join("\n")
                ),
                None => {
                    empty_neighbours.insert(n);
                }
            }
        }
    }
    let dots: usize = grid.iter().map(|l| l.matches('.').count()).sum();
    assert_eq!(
        dots,
        empty_neighbours.len(),
        "{game_string}:\n{}",
        lines.join("\n")
    );
    let mut stacks: Vec<String> = pos
        .occupied()
        .iter()
        .filter(|&h| pos.height(h) > 1)
        .map(|h| {
            let names: Vec<String> = pos.stack(h).map(|p| p.to_string()).collect();
            assert_eq!(names.len(), usize::from(pos.height(h)));
            names.join(" on ")
        })
        .collect();
    let mut drawn: Vec<String> = rest
        .iter()
        .filter(|l| l.contains(" on "))
        .cloned()
        .collect();
    stacks.sort();
    drawn.sort();
    assert_eq!(drawn, stacks, "{game_string}");
    for color in Color::ALL {
        let hand = rest
            .iter()
            .find_map(|l| l.strip_prefix(&format!("{} in hand: ", color.name())))
            .expect("each side's hand is listed");
        let listed = if hand == "nothing" {
            0
        } else {
            hand.split(' ').count()
        };
        let held: usize = Bug::ALL
            .iter()
            .map(|&b| usize::from(pos.in_hand(color, b)))
            .sum();
        assert_eq!(listed, held, "{color:?} in {game_string}");
    }
}

/// The evaluation's features counted the plain way, one piece at a time from
/// the public queries (the cells that hold the hive together, stacks, slides,
/// a Grasshopper's jumps walked cell by cell), for comparison with
/// `Features::extract`, which counts the piece terms on bitmasks.
fn features_piece_by_piece(pos: &Position) -> Features {
    let cuts = pos.articulation_points();
    let queens = [pos.queen(Color::White), pos.queen(Color::Black)];
    let queen = |c: Color| queens[c.index()];
    // A top piece may leave its cell: its Queen is down, and it is on a stack
    // or its cell does not hold the hive together.
    let may_leave = |hex: Hex, piece: waggle::hive::Piece| {
        queen(piece.color()).is_some() && (pos.height(hex) > 1 || !cuts.contains(hex))
    };
    let mut f = Features::default();
    for color in Color::ALL {
        for bug in Bug::ALL {
            f.in_hand[color][bug.index()] = i32::from(pos.in_hand(color, bug));
        }
        if f.in_hand[color].iter().any(|&n| n > 0) {
            f.spawn_cells[color] = pos.placement_cells(color).len().min(SPAWN_CELLS_MAX) as i32;
        }
    }
    for piece in pos.pieces_on_board() {
        let hex = pos.hex_of(piece).expect("on the board");
        if pos.top(hex) != Some(piece) {
            continue;
        }
        let (color, bug, height) = (piece.color(), piece.bug(), pos.height(hex));
        let enemy_queen = queen(color.opponent());
        let slider = matches!(bug, Bug::Queen | Bug::Spider | Bug::Ant | Bug::Pillbug);
        let free = may_leave(hex, piece) && !(slider && height == 1 && pos.slide_count(hex) == 0);
        if free {
            f.mobile[color][bug.index()] += 1;
            if let Some(q) = enemy_queen {
                if matches!(bug, Bug::Ant | Bug::Beetle | Bug::Grasshopper) && q.within_two(hex) {
                    f.attackers[color] += 1;
                }
                let jumps_next_to_her = bug == Bug::Grasshopper
                    && Direction::ALL.iter().any(|&d| {
                        let mut to = hex.neighbor(d);
                        if pos.height(to) == 0 {
                            return false;
                        }
                        while pos.height(to) > 0 {
                            to = to.neighbor(d);
                        }
                        q.is_adjacent(to)
                    });
                if jumps_next_to_her {
                    f.hoppers_in[color] += 1;
                }
                let climber = bug == Bug::Beetle || (bug == Bug::Mosquito && height > 1);
                if climber && q.is_adjacent(hex) {
                    f.beetles_by_queen[color] += 1;
                }
            }
        } else if height == 1 {
            f.pinned[color][bug.index()] += 1;
        }
        if height > 1 {
            f.beetle_on_top[color] += 1;
            if enemy_queen == Some(hex) {
                f.beetle_on_queen[color] += 1;
            }
        }
        if bug == Bug::Queen && free && height == 1 {
            f.queen_slides[color] = pos.slide_count(hex) as i32;
        }
        if bug == Bug::Pillbug
            && height == 1
            && !cuts.contains(hex)
            && queen(color).is_some_and(|q| q.is_adjacent(hex))
        {
            f.pillbug_guard[color] += 1;
        }
    }
    // Around each Queen: her neighbours that hold a piece, and the empty
    // ones an enemy Ant could slide into.
    for color in Color::ALL {
        let Some(q) = queen(color) else { continue };
        let them = color.opponent();
        let held: Vec<_> = q
            .neighbors()
            .into_iter()
            .filter_map(|n| Some((n, pos.top(n)?)))
            .collect();
        f.queen_occupied[color] = Some(held.len() as u8);
        f.free_own_at_queen[color] = held
            .iter()
            .filter(|&&(n, top)| top.color() == color && may_leave(n, top))
            .count() as i32;
        f.stuck_enemy_at_queen[color] = held
            .iter()
            .filter(|&&(n, top)| top.color() == them && !may_leave(n, top))
            .count() as i32;
        if f.mobile[them][Bug::Ant.index()] > 0 {
            f.ant_open_liberties[them] = q
                .neighbors()
                .into_iter()
                .filter(|&n| pos.top(n).is_none() && pos.slide_count(n) > 0)
                .count() as i32;
        }
    }
    f
}

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn incremental_hash_equals_hash_from_scratch(p in playout()) {
        p.play(|g| {
            let pos = g.position();
            assert_eq!(pos.hash(), pos.compute_hash(), "after {}", g.game_string());
        });
    }

    #[test]
    fn make_unmake_restores_the_position(p in playout()) {
        let mut fingerprints = Vec::new();
        let game = p.play(|g| {
            let pos = g.position();
            let before = fingerprint(pos);
            let game_string = g.game_string();
            for &mv in &g.legal_moves() {
                let mut q = pos.clone();
                q.make(mv);
                assert_eq!(q.hash(), q.compute_hash());
                assert_eq!(q.unmake(), Some(mv));
                assert_eq!(fingerprint(&q), before, "make/unmake {mv:?} in {game_string}");
            }
            fingerprints.push(before);
        });
        // And all the way back to the start.
        let mut pos = game.position().clone();
        while let Some(expected) = fingerprints.pop() {
            assert_eq!(fingerprint(&pos), expected, "unwinding {}", game.game_string());
            pos.unmake();
        }
        assert_eq!(pos.ply(), 0);
        assert_eq!(pos.unmake(), None);
    }

    #[test]
    fn generated_moves_round_trip_through_their_move_strings(p in playout()) {
        p.play(|g| {
            let pos = g.position();
            for &mv in &g.legal_moves() {
                let canonical = move_string(pos, mv);
                assert_eq!(parse_move(pos, &canonical), Ok(mv), "{canonical} in {}", g.game_string());
                for text in all_spellings(pos, mv) {
                    assert_eq!(parse_move(pos, &text), Ok(mv), "'{text}' in {}", g.game_string());
                }
                let mut after = g.clone();
                after.play_str(&canonical).unwrap_or_else(|e| {
                    panic!("play {canonical} in {}: {e}", g.game_string())
                });
                assert_eq!(after.move_strings().last(), Some(&canonical));
            }
        });
    }

    #[test]
    fn placement_count_counts_the_placement_cells(p in playout()) {
        p.play(|g| {
            let pos = g.position();
            for color in Color::ALL {
                let cells = pos.placement_cells(color);
                let distinct: HashSet<_> = cells.iter().collect();
                assert_eq!(distinct.len(), cells.len(), "{}", g.game_string());
                for limit in [usize::MAX, 6, 1] {
                    let count = pos.placement_count(color, limit);
                    assert_eq!(count, cells.len().min(limit), "{color:?} in {}", g.game_string());
                }
            }
        });
    }

    #[test]
    fn piece_features_match_a_count_piece_by_piece(p in playout()) {
        p.play(|g| {
            let pos = g.position();
            // The cells that hold the hive together, two ways: one
            // Hopcroft–Tarjan pass, and a search from each cell.
            let cuts = pos.articulation_points();
            for hex in pos.occupied().iter() {
                assert_eq!(cuts.contains(hex), pos.splits_hive(hex), "{}", g.game_string());
            }
            let mut f = Features::default();
            f.extract(pos);
            assert_eq!(f, features_piece_by_piece(pos), "{}", g.game_string());
        });
    }

    #[test]
    fn hoppers_in_are_the_grasshoppers_that_can_jump_next_to_the_enemy_queen(p in playout()) {
        p.play(|g| {
            let pos = g.position();
            let us = pos.side_to_move();
            let Some(queen) = pos.queen(us.opponent()) else { return };
            // A Pillbug's throw is a move of the thrown piece, and a piece
            // thrown last turn may not move: the evaluation does not look at
            // throws.
            if pos.game_type().pillbug || pos.game_type().mosquito || pos.surround_outcome().is_some() {
                return;
            }
            let mut hoppers: Vec<_> = g
                .legal_moves()
                .iter()
                .filter_map(|&mv| match mv {
                    Move::Move { piece, to, .. }
                        if piece.bug() == Bug::Grasshopper && queen.is_adjacent(to) =>
                    {
                        Some(piece)
                    }
                    _ => None,
                })
                .collect();
            hoppers.sort();
            hoppers.dedup();
            let mut f = Features::default();
            f.extract(pos);
            assert_eq!(f.hoppers_in[us] as usize, hoppers.len(), "{}", g.game_string());
        });
    }

    #[test]
    fn confirms_legal_agrees_with_the_move_list(p in playout()) {
        // Candidates: this position's moves, the opponent's (as if it were
        // their turn) and those of every earlier position, most of them
        // illegal here, as a table move from another position would be
        // (or a killer from a sibling).
        let mut earlier: Vec<Move> = Vec::new();
        p.play(|g| {
            let pos = g.position();
            let mut legal = MoveList::new();
            pos.generate_moves(&mut legal);
            let mut theirs = MoveList::new();
            let mut flipped = pos.clone();
            flipped.make(Move::Pass);
            flipped.generate_moves(&mut theirs);
            // And each movement back onto its own cell, which no list has.
            let standing: Vec<Move> = legal
                .iter()
                .filter_map(|&m| match m {
                    Move::Move { piece, from, .. } => Some(Move::Move { piece, from, to: from }),
                    _ => None,
                })
                .collect();
            for &mv in legal.iter().chain(theirs.iter()).chain(earlier.iter()).chain(standing.iter()) {
                if pos.confirms_legal(mv) {
                    assert!(legal.contains(&mv), "{mv:?} confirmed but not legal in {}", g.game_string());
                }
            }
            // Only throws (and a pass) are left to the move list: every
            // move of a piece no Pillbug or Mosquito of the mover touches
            // is confirmed.
            let us = pos.side_to_move();
            let thrower = |hex: Hex| {
                pos.top(hex).is_some_and(|t| {
                    t.color() == us && matches!(t.bug(), Bug::Pillbug | Bug::Mosquito)
                })
            };
            for &mv in &legal {
                let thrown = matches!(mv, Move::Move { from, .. } if from.neighbors().into_iter().any(thrower));
                if mv != Move::Pass && !thrown {
                    assert!(pos.confirms_legal(mv), "{mv:?} legal but not confirmed in {}", g.game_string());
                }
            }
            earlier.extend(legal.iter().copied());
        });
    }

    #[test]
    fn a_move_sparing_the_own_queen_is_found_where_one_exists(p in playout()) {
        p.play(|g| {
            let pos = g.position();
            let us = pos.side_to_move();
            let Some(free) = pos.queen_free_cells(us) else {
                assert!(pos.has_move_sparing_own_queen(), "{}", g.game_string());
                return;
            };
            if pos.surround_outcome().is_some() {
                return;
            }
            let mut legal = MoveList::new();
            pos.generate_moves(&mut legal);
            let mut after = pos.clone();
            let sparing: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&mv| {
                    after.make(mv);
                    let spares = after.queen_free_cells(us).is_some_and(|f| f >= free);
                    after.unmake();
                    spares
                })
                .collect();
            if pos.has_move_sparing_own_queen() {
                assert!(!sparing.is_empty(), "no move spares her in {}", g.game_string());
            } else {
                // Only a throw or a forced pass, which the move list alone
                // knows, may spare her.
                for &mv in &sparing {
                    assert!(!pos.confirms_legal(mv), "{mv:?} spares her in {}", g.game_string());
                }
            }
        });
    }

    #[test]
    fn moves_onto_a_cell_are_the_listed_moves_that_end_there(p in playout()) {
        p.play(|g| {
            let pos = g.position();
            let mut legal = MoveList::new();
            pos.generate_moves(&mut legal);
            let mut cells: HashSet<Hex> = HashSet::new();
            for hex in pos.occupied().iter() {
                cells.insert(hex);
                cells.extend(hex.neighbors());
            }
            let mut onto = MoveList::new();
            for &cell in &cells {
                pos.moves_onto(cell, &mut onto);
                let got: HashSet<Move> = onto.iter().copied().collect();
                assert_eq!(got.len(), onto.len(), "a move twice onto {cell:?} in {}", g.game_string());
                let want: HashSet<Move> =
                    legal.iter().copied().filter(|mv| mv.to() == Some(cell)).collect();
                assert_eq!(got, want, "moves onto {cell:?} in {}", g.game_string());
            }
        });
    }

    #[test]
    fn validmoves_never_lists_a_move_twice(p in playout()) {
        p.play(|g| {
            let moves = g.legal_moves();
            let distinct: HashSet<Move> = moves.iter().copied().collect();
            assert_eq!(distinct.len(), moves.len(), "{}", g.game_string());
            let strings = g.legal_move_strings();
            let distinct: HashSet<&String> = strings.iter().collect();
            assert_eq!(distinct.len(), strings.len(), "{}: {strings:?}", g.game_string());
            if strings.iter().any(|s| s == "pass") {
                assert_eq!(strings, ["pass"]);
            }
        });
    }

    #[test]
    fn undo_then_replay_gives_the_same_game_strings(p in playout(), back in any::<u16>()) {
        // Through the UHP loop: newgame, play the moves `validmoves` offers,
        // undo N, then play the same moves again.
        let mut server = UhpServer::new(Vec::new());
        let mut at = 0;
        let options = format!("options set TournamentOpening {}", p.tournament_opening);
        server.handle_line(&options);
        answer(&server, &mut at);
        server.handle_line(&format!("newgame {}", GAME_TYPES[p.game_type]));
        let mut game_strings = answer(&server, &mut at);
        let mut played = Vec::new();
        for &c in &p.choices {
            server.handle_line("validmoves");
            let lines = answer(&server, &mut at);
            if lines[0].starts_with("err") {
                break; // the game is over
            }
            let moves: Vec<&str> = lines[0].split(';').collect();
            let distinct: HashSet<&str> = moves.iter().copied().collect();
            assert_eq!(distinct.len(), moves.len(), "validmoves lists a move twice: {}", lines[0]);
            let mv = moves[c as usize % moves.len()].to_string();
            server.handle_line(&format!("play {mv}"));
            let lines = answer(&server, &mut at);
            assert_eq!(lines.len(), 1, "{lines:?}");
            game_strings.push(lines[0].clone());
            played.push(mv);
        }
        prop_assume!(!played.is_empty());
        let n = 1 + back as usize % played.len();
        server.handle_line(&format!("undo {n}"));
        let lines = answer(&server, &mut at);
        assert_eq!(&lines, &[game_strings[played.len() - n].clone()]);
        for (i, mv) in played.iter().enumerate().skip(played.len() - n) {
            server.handle_line(&format!("play {mv}"));
            let lines = answer(&server, &mut at);
            assert_eq!(&lines, &[game_strings[i + 1].clone()]);
        }
    }

    #[test]
    fn the_board_diagram_draws_every_cell_where_its_neighbours_are(p in playout()) {
        p.play(|g| check_diagram(g.position(), &g.game_string()));
    }

    #[test]
    fn game_strings_reload_to_the_same_game(p in playout(), upper in any::<bool>()) {
        let rules = Rules { tournament_opening: p.tournament_opening };
        p.play(|g| {
            let written = g.game_string();
            let reloaded = Game::from_game_string(&written, rules, true)
                .unwrap_or_else(|e| panic!("reload {written}: {e}"));
            assert_eq!(reloaded.game_string(), written);
            assert_eq!(fingerprint(reloaded.position()), fingerprint(g.position()));
            // The state and turn fields are ignored; the moves may be spelled
            // in any case and with extra spaces.
            let mut fields: Vec<String> = written.split(';').map(str::to_string).collect();
            fields[1] = "Foo".into();
            fields[2] = "Bar[99]".into();
            for f in fields.iter_mut().skip(3) {
                *f = f.replace(' ', "  ");
                *f = if upper { f.to_ascii_uppercase() } else { f.to_ascii_lowercase() };
            }
            let respelled = fields.join(";");
            let reloaded = Game::from_game_string(&respelled, rules, true)
                .unwrap_or_else(|e| panic!("reload {respelled}: {e}"));
            assert_eq!(reloaded.game_string(), written);
        });
    }
}
