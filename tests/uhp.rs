//! UHP transcripts: scripted sessions with their expected output, run both in
//! memory through `UhpServer` and through the real binary (with `\r\n` line
//! endings and stdin closed at the end, as hivegame.com's bridge does).
//!
//! Transcript format (`tests/transcripts/*.txt`): `# comment`, `> command`,
//! then the expected answer lines. An expected line ending in `*` matches any
//! line with that prefix; a line `?` matches any one line; a line `~a;b;c`
//! matches the same `;`-separated moves in any order, each once.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use waggle::uhp::UhpServer;

struct Step {
    command: String,
    expected: Vec<String>,
}

fn parse(text: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("> ") {
            steps.push(Step {
                command: cmd.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(step) = steps.last_mut() {
            step.expected.push(line.to_string());
        }
    }
    steps
}

fn matches(expected: &str, got: &str) -> bool {
    if let Some(set) = expected.strip_prefix('~') {
        let mut a: Vec<&str> = set.split(';').collect();
        let mut b: Vec<&str> = got.split(';').collect();
        a.sort_unstable();
        b.sort_unstable();
        return a == b && b.windows(2).all(|w| w[0] != w[1]);
    }
    if expected == "?" {
        true
    } else if let Some(prefix) = expected.strip_suffix('*') {
        got.starts_with(prefix)
    } else {
        expected == got
    }
}

fn compare(name: &str, expected: &[String], got: &[String]) {
    for (i, e) in expected.iter().enumerate() {
        let g = got.get(i).map(String::as_str).unwrap_or("<missing>");
        assert!(
            matches(e, g),
            "{name}: line {} differs\nexpected: {e}\n     got: {g}\n\nfull output:\n{}",
            i + 1,
            got.join("\n")
        );
    }
    assert_eq!(
        got.len(),
        expected.len(),
        "{name}: extra output:\n{}",
        got[expected.len().min(got.len())..].join("\n")
    );
}

const TRANSCRIPTS: [(&str, &str); 4] = [
    ("session", include_str!("transcripts/session.txt")),
    ("spellings", include_str!("transcripts/spellings.txt")),
    ("endings", include_str!("transcripts/endings.txt")),
    ("errors", include_str!("transcripts/errors.txt")),
];

fn greeting() -> Vec<String> {
    vec![
        "id waggle *".to_string(),
        "Mosquito;Ladybug;Pillbug".to_string(),
        "ok".to_string(),
    ]
}

#[test]
fn transcripts_in_memory() {
    for (name, text) in TRANSCRIPTS {
        let mut server = UhpServer::new(Vec::new());
        server.greet();
        let mut expected = greeting();
        let mut seen = 0;
        for step in parse(text) {
            server.handle_line(&format!("{}\n", step.command));
            expected.extend(step.expected.iter().cloned());
            let out = String::from_utf8_lossy(server.output()).to_string();
            let lines: Vec<String> = out.lines().map(str::to_string).collect();
            compare(
                &format!("{name} after '{}'", step.command),
                &expected[seen..],
                &lines[seen.min(lines.len())..],
            );
            seen = lines.len();
        }
    }
}

#[test]
fn transcripts_through_the_binary() {
    for (name, text) in TRANSCRIPTS {
        let steps = parse(text);
        let mut input = String::new();
        let mut expected = greeting();
        for step in &steps {
            input.push_str(&step.command);
            input.push_str("\r\n");
            expected.extend(step.expected.iter().cloned());
        }
        let got = run_binary(&input, Duration::from_secs(60));
        compare(name, &expected, &got);
    }
}

/// The engine binary with piped stdin and stdout.
fn spawn_engine() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_waggle"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start waggle")
}

/// Runs the engine on `input` (stdin then closed) and returns its stdout lines.
fn run_binary(input: &str, limit: Duration) -> Vec<String> {
    let mut child = spawn_engine();
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the engine did not exit at the end of its input");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = writer.join();
    let out = reader.join().expect("reader");
    out.lines().map(str::to_string).collect()
}

#[test]
fn exit_prints_nothing_and_ends_the_process() {
    let got = run_binary(
        "newgame Base\r\nexit\r\nnewgame Base+M\r\n",
        Duration::from_secs(20),
    );
    let mut expected = greeting();
    expected.extend(["Base;NotStarted;White[1]".to_string(), "ok".to_string()]);
    compare("exit", &expected, &got);
}

#[test]
fn blank_lines_and_garbage_bytes_are_harmless() {
    let mut input = String::from("\r\n   \r\n\t\r\n");
    input.push_str("newgame Base\r\n");
    input.push_str(&"x".repeat(100_000));
    input.push_str("\r\n\u{0}\u{7f}play \u{202e}wS1\r\nplay wS1\r\n");
    let got = run_binary(&input, Duration::from_secs(20));
    let mut expected = greeting();
    expected.extend(
        [
            "Base;NotStarted;White[1]",
            "ok",
            "err *",
            "ok",
            "err *",
            "ok",
            "Base;InProgress;Black[1];wS1",
            "ok",
        ]
        .map(String::from),
    );
    compare("garbage", &expected, &got);
}

/// An engine process driven line by line, for the tests that need to act
/// (send a signal) in the middle of a command.
struct Live {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    out: std::io::BufReader<std::process::ChildStdout>,
}

impl Live {
    fn start() -> Live {
        let mut child = spawn_engine();
        let stdin = child.stdin.take().expect("stdin");
        let out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        let mut live = Live { child, stdin, out };
        live.answer();
        live
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The lines of the next answer, without its `ok`.
    fn answer(&mut self) -> Vec<String> {
        use std::io::BufRead;
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            if self.out.read_line(&mut l).expect("read") == 0 {
                panic!("engine closed stdout; got {lines:?}");
            }
            let l = l.trim_end().to_string();
            if l == "ok" {
                return lines;
            }
            lines.push(l);
        }
    }

    fn interrupt(&self) {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("kill -INT");
        assert!(status.success());
    }

    fn close(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

/// SIGINT during `bestmove` answers at once with a legal move and `ok`, and
/// the engine keeps serving commands (UHP.md §7.9).
#[test]
#[cfg(unix)]
fn sigint_stops_the_search_and_still_answers() {
    let start = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
    let mut engine = Live::start();
    engine.send(&format!("newgame {start}"));
    engine.answer();
    engine.send("bestmove time 00:10:00");
    std::thread::sleep(Duration::from_millis(500));
    engine.interrupt();
    let answer = engine.answer();
    assert_eq!(answer.len(), 1, "{answer:?}");
    let mut game =
        waggle::hive::game::Game::from_game_string(start, waggle::hive::Rules::default(), true)
            .expect("loads");
    game.play_str(&answer[0])
        .expect("the interrupted answer is legal");
    engine.send(&format!("play {}", answer[0]));
    assert_eq!(engine.answer(), vec![game.game_string()]);
    engine.close();
}

/// SIGINT during a long `perft` stops it: the depths already counted are
/// printed, then `ok`, and the engine goes on.
#[test]
#[cfg(unix)]
fn sigint_stops_perft() {
    let mut engine = Live::start();
    engine.send("newgame Base+MLP");
    assert_eq!(engine.answer(), vec!["Base+MLP;NotStarted;White[1]"]);
    engine.send("perft 12");
    std::thread::sleep(Duration::from_millis(700));
    engine.interrupt();
    let lines = engine.answer();
    assert!(!lines.is_empty() && lines.len() < 13, "{lines:?}");
    assert!(lines.iter().all(|l| l.starts_with("perft(")), "{lines:?}");
    engine.send("validmoves");
    assert_eq!(engine.answer().len(), 1);
    engine.close();
}
