//! Soak test (issue 6, item 4): one engine process, the real binary, through
//! many complete games that mix `newgame` (by game type and by GameString),
//! `play` (canonical and re-spelled), `pass`, `undo`, `validmoves`,
//! `options set` and `bestmove depth 1`, plus bad input now and then.
//!
//! * Every answer is framed by exactly one `ok`, with `err`/`invalidmove`
//!   only as the whole answer.
//! * Every GameString and move list matches an in-process [`Game`] mirror
//!   that plays the same moves, so the engine never drifts out of sync.
//! * Memory stays flat: VmRSS after the warm-up and at the end, both taken
//!   with the largest `HashMB` table just cleared, differ by a few MiB at
//!   most, and stay within the start plus that table.
//!
//! Moves are chosen by the test (mostly greedily towards surrounding a
//! Queen, so games end) or by `bestmove depth 1`; the test never depends on
//! which move the search picks, only that it is legal.
//!
//! The always-on test plays 50 games; the full soak of 1,000 games is
//! `cargo test --release --test soak -- --ignored`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;
use waggle::hive::game::Game;
use waggle::hive::notation::parse_move;
use waggle::hive::{Color, GameType, Move, Position, Rules};

const GAME_TYPES: [&str; 8] = [
    "Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP",
];

/// `HashMB` values the soak switches between.
const HASH_SIZES_MB: [u64; 4] = [1, 4, 8, 16];

/// A game still going after this many plies is abandoned (and counted).
const MAX_PLIES: u32 = 1500;

/// How long the engine may stay silent before the test gives up. This only
/// turns a hang into a failure; no assertion depends on timing.
const SILENCE_LIMIT: Duration = Duration::from_secs(120);

/// xorshift64*: a small deterministic generator, so a failure can be rerun.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The engine process and a thread reading its stdout line by line.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    commands: u64,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_waggle"))
            .args(["--threads", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdin = child.stdin.take().expect("engine stdin");
        let stdout = child.stdout.take().expect("engine stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            commands: 0,
        };
        let greeting = engine.read_answer("(start)");
        assert!(greeting[0].starts_with("id "), "{greeting:?}");
        engine
    }

    fn read_answer(&mut self, command: &str) -> Vec<String> {
        let mut answer = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(SILENCE_LIMIT)
                .unwrap_or_else(|_| panic!("no ok after {command:?}: {answer:?}"));
            if line == "ok" {
                break;
            }
            answer.push(line);
        }
        for (i, l) in answer.iter().enumerate() {
            if l.starts_with("err") || l.starts_with("invalidmove") {
                assert_eq!(answer.len(), 1, "{command:?} got {answer:?} (line {i})");
            }
        }
        answer
    }

    /// Sends a command and returns its answer without the final `ok`.
    fn send(&mut self, command: &str) -> Vec<String> {
        writeln!(self.stdin, "{command}").expect("write to the engine");
        self.stdin.flush().expect("flush to the engine");
        self.commands += 1;
        self.read_answer(command)
    }

    /// Resident memory of the engine process, in KiB.
    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("read /proc/<pid>/status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("a VmRSS line")
    }

    /// Resident memory with the table at `mb` MiB and cleared (every page
    /// of it written), so that two measurements compare the same table
    /// whatever size the random options left it at: a smaller table really
    /// gives its memory back.
    fn rss_kib_with_table(&mut self, mb: u64) -> u64 {
        self.send(&format!("options set HashMB {mb}"));
        self.send("newgame Base");
        self.rss_kib()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "exit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

fn refused(answer: &[String]) -> bool {
    answer.len() == 1 && (answer[0].starts_with("err") || answer[0].starts_with("invalidmove"))
}

/// Liberties taken from the enemy Queen minus liberties lost by our own,
/// after `mv`; a win scores highest and a loss lowest.
fn greedy_score(pos: &mut Position, mv: Move) -> i32 {
    let us = pos.side_to_move();
    pos.make(mv);
    let queen_pressure = |c: Color| pos.queen(c).map_or(0, |q| pos.occupied_neighbors(q) as i32);
    let score = match (
        pos.queen_surrounded(us.opponent()),
        pos.queen_surrounded(us),
    ) {
        (true, false) => 1000,
        (_, true) => -1000,
        _ => 2 * queen_pressure(us.opponent()) - queen_pressure(us),
    };
    pos.unmake();
    score
}

/// The rule options as last set in the engine.
struct Options {
    tournament: bool,
    repetition: bool,
}

/// Sets a random option in the engine (and the mirror, for rule options).
///
/// `TournamentOpening` changes only between games (when `mirror` is
/// `None`): a game begun with a Queen on turn 1 is not a legal game under
/// the tournament opening, so it would not reload from its GameString once
/// the option is back on.
fn set_option(
    engine: &mut Engine,
    rng: &mut Rng,
    options: &mut Options,
    mirror: Option<&mut Game>,
) {
    let mut pick = rng.below(4);
    if mirror.is_some() && pick == 2 {
        pick = 3;
    }
    let (name, value) = match pick {
        0 => (
            "HashMB",
            HASH_SIZES_MB[rng.below(HASH_SIZES_MB.len())].to_string(),
        ),
        1 => ("Threads", (1 + rng.below(2)).to_string()),
        2 => {
            options.tournament = !rng.chance(15);
            ("TournamentOpening", options.tournament.to_string())
        }
        _ => {
            options.repetition = !rng.chance(10);
            let value = if options.repetition { "True" } else { "false" };
            ("RepetitionDraw", value.to_string())
        }
    };
    let answer = engine.send(&format!("options set {name} {value}"));
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(answer[0].starts_with(&format!("{name};")), "{answer:?}");
    if let Some(m) = mirror {
        m.set_rules(Rules {
            tournament_opening: options.tournament,
        });
        m.set_repetition_draw(options.repetition);
    }
}

struct Totals {
    games: usize,
    finished: usize,
    plies: u64,
    bestmoves: u64,
    undos: u64,
    refusals: u64,
}

fn soak(games: usize, seed: u64) -> Totals {
    let mut rng = Rng(seed | 1);
    let mut engine = Engine::start();
    let rss_start = engine.rss_kib();
    // The warm-up allocates the second thread's tables once, whatever the
    // random options pick; both measurements below also set the largest
    // table, so they compare the most the soak needs.
    let largest = HASH_SIZES_MB.iter().max().copied().unwrap_or(1);
    for command in [
        "newgame Base".to_string(),
        "options set Threads 2".to_string(),
        format!("options set HashMB {largest}"),
        "bestmove depth 2".to_string(),
        "options set Threads 1".to_string(),
    ] {
        engine.send(&command);
    }
    let mut rss_warm = rss_start;
    let warm_up = (games / 20).max(2);
    let mut totals = Totals {
        games,
        finished: 0,
        plies: 0,
        bestmoves: 0,
        undos: 0,
        refusals: 0,
    };
    let mut options = Options {
        tournament: true,
        repetition: true,
    };
    for g in 0..games {
        if g == warm_up {
            rss_warm = engine.rss_kib_with_table(largest);
        }
        if g == 0 || rng.chance(30) {
            set_option(&mut engine, &mut rng, &mut options, None);
        }
        let ty = GAME_TYPES[rng.below(GAME_TYPES.len())];
        let rules = Rules {
            tournament_opening: options.tournament,
        };
        let mut mirror = Game::new(
            GameType::parse(ty).expect("game type"),
            rules,
            options.repetition,
        );
        assert_eq!(
            engine.send(&format!("newgame {ty}")),
            [mirror.game_string()]
        );

        loop {
            if mirror.outcome().is_some() {
                // The game is over: moves are refused, undo still works.
                let answer = engine.send(if rng.chance(50) {
                    "validmoves"
                } else {
                    "bestmove depth 1"
                });
                assert!(answer[0].starts_with("err"), "{answer:?}");
                if rng.chance(20) {
                    mirror.undo(1).expect("undo a finished game");
                    totals.undos += 1;
                    assert_eq!(engine.send("undo"), [mirror.game_string()]);
                    continue;
                }
                totals.finished += 1;
                break;
            }
            if mirror.position().ply() >= MAX_PLIES {
                break;
            }
            let plies = mirror.move_strings().len();
            let r = rng.below(100);
            if r < 4 && plies > 0 {
                let n = 1 + rng.below(plies.min(4));
                mirror.undo(n).expect("undo");
                totals.undos += 1;
                assert_eq!(engine.send(&format!("undo {n}")), [mirror.game_string()]);
                continue;
            }
            if r < 7 {
                assert_eq!(
                    engine.send("validmoves"),
                    [mirror.legal_move_strings().join(";")]
                );
                continue;
            }
            if r < 9 {
                set_option(&mut engine, &mut rng, &mut options, Some(&mut mirror));
                continue;
            }
            if r < 11 {
                // Bad input leaves the game as it was (checked by the next
                // GameString).
                let bad = ["pass", "play zz", "undo 0", "play wQ wQ", "frobnicate"];
                let line = bad[rng.below(bad.len())];
                let answer = engine.send(line);
                if !(line == "pass" && mirror.legal_moves().as_slice() == [Move::Pass]) {
                    assert!(refused(&answer), "{line} got {answer:?}");
                    totals.refusals += 1;
                    continue;
                }
                mirror.play(Move::Pass).expect("forced pass");
                assert_eq!(answer, [mirror.game_string()]);
                totals.plies += 1;
                continue;
            }
            if r < 12 {
                // Reload the game from its own GameString.
                let gs = mirror.game_string();
                assert_eq!(engine.send(&format!("newgame {gs}")), [gs]);
                continue;
            }
            let text = if r < 30 {
                totals.bestmoves += 1;
                let answer = engine.send("bestmove depth 1");
                let text = answer.last().expect("a bestmove answer").clone();
                let mv = parse_move(mirror.position(), &text)
                    .unwrap_or_else(|e| panic!("bestmove {text}: {e}"));
                assert!(
                    mirror.legal_moves().contains(&mv),
                    "bestmove {text} is illegal"
                );
                text
            } else {
                let moves = mirror.legal_moves();
                let mv = if rng.chance(80) {
                    let mut pos = mirror.position().clone();
                    let best = moves
                        .iter()
                        .map(|&m| greedy_score(&mut pos, m))
                        .max()
                        .unwrap_or(0);
                    let top: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| greedy_score(&mut pos, m) == best)
                        .collect();
                    top[rng.below(top.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                let canonical = waggle::hive::notation::move_string(mirror.position(), mv);
                // Re-spelled now and then: the engine must accept any case.
                if rng.chance(10) {
                    canonical.to_ascii_uppercase()
                } else {
                    canonical
                }
            };
            mirror.play_str(&text).expect("the mirror plays the move");
            totals.plies += 1;
            let command = if text == "pass" && rng.chance(50) {
                "pass".to_string()
            } else {
                format!("play {text}")
            };
            assert_eq!(engine.send(&command), [mirror.game_string()], "{command}");
        }
    }
    let rss_end = engine.rss_kib_with_table(largest);
    let max_hash_kib = largest * 1024;
    eprintln!(
        "soak: {} games ({} finished), {} plies, {} bestmoves, {} undos, {} refusals, {} commands; \
         VmRSS start {rss_start} KiB, after warm-up {rss_warm} KiB, end {rss_end} KiB",
        totals.games,
        totals.finished,
        totals.plies,
        totals.bestmoves,
        totals.undos,
        totals.refusals,
        engine.commands
    );
    // Flat: what the warm-up allocated (tables sized by HashMB) is reused.
    assert!(
        rss_end <= rss_warm + 8 * 1024,
        "memory grew from {rss_warm} KiB after the warm-up to {rss_end} KiB"
    );
    // Bounded by the largest hash table the soak asked for, plus slack for
    // the process itself.
    assert!(
        rss_end <= rss_start + max_hash_kib + 48 * 1024,
        "memory {rss_end} KiB exceeds start {rss_start} KiB + HashMB {max_hash_kib} KiB + 48 MiB"
    );
    totals
}

/// Nine games in ten reach a result (the rest hit the ply cap).
fn assert_most_games_ended(t: &Totals) {
    assert!(
        t.finished * 10 >= t.games * 9,
        "only {} of {} games ended",
        t.finished,
        t.games
    );
}

#[test]
fn soak_50_games_in_one_process() {
    assert_most_games_ended(&soak(50, 0x5EED_0001));
}

#[test]
#[ignore = "1,000 games: run with cargo test --release --test soak -- --ignored"]
fn soak_1000_games_in_one_process() {
    assert_most_games_ended(&soak(1000, 0x5EED_1000));
}

/// Changing `HashMB` back and forth keeps memory flat: the table is resized
/// in place, so an old table never stays resident as a hole in the heap.
/// (When each size change freed the table and allocated a new one, this
/// cycle left the engine 8 MiB larger than after the first 16 MiB table.)
#[test]
fn hash_size_changes_keep_memory_flat() {
    let mut engine = Engine::start();
    for command in ["newgame Base", "options set HashMB 16", "bestmove depth 2"] {
        engine.send(command);
    }
    let rss_warm = engine.rss_kib();
    for _ in 0..10 {
        for mb in [8, 16, 4, 16] {
            engine.send(&format!("options set HashMB {mb}"));
            for _ in 0..3 {
                let answer = engine.send("bestmove depth 1");
                let text = answer.last().expect("a bestmove answer").clone();
                engine.send(&format!("play {text}"));
            }
            engine.send("newgame Base");
        }
    }
    let rss_end = engine.rss_kib();
    assert!(
        rss_end <= rss_warm + 4 * 1024,
        "memory grew from {rss_warm} KiB with the first 16 MiB table to {rss_end} KiB"
    );
}
