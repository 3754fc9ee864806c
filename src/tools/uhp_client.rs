//! A client for UHP engines run as child processes (UHP.md §1–§3).
//!
//! [`UhpClient::spawn`] starts an engine from a command line, split the way
//! MzingaViewer splits it (see [`EngineCommand::parse`]), and reads the
//! unprompted `id` / capabilities / `ok` block. [`UhpClient::send`] writes one
//! command and collects the answer up to `ok`. A reader thread forwards the
//! engine's stdout over a channel, so every wait has a timeout: a hung engine
//! is reported as [`ClientError::Timeout`], a dead one as
//! [`ClientError::Crashed`], and `err` / `invalidmove` answers as their own
//! variants. After a timeout or a crash the engine's state is unknown (late
//! lines would be read as the answer to the next command), so the client
//! refuses further commands until [`UhpClient::restart`] is called.
//!
//! The engine's stderr is drained by a second thread, which keeps its last
//! lines for error messages ([`UhpClient::stderr_tail`]).

use parking_lot::Mutex;
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How many lines of the engine's stderr are kept for error messages.
const STDERR_LINES: usize = 20;

/// A program and its arguments.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct EngineCommand {
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

impl EngineCommand {
    /// Splits an engine command line the way MzingaViewer does: the program
    /// ends at the first space, or at the closing quote when the line begins
    /// with `"`. The rest is split into arguments on whitespace, where double
    /// quotes group words (`a "b c"` gives `a` and `b c`).
    ///
    /// # Errors
    /// An empty line, or a quote that is never closed.
    pub fn parse(line: &str) -> Result<EngineCommand, String> {
        let line = line.trim();
        if line.is_empty() {
            return Err("the engine command line is empty".into());
        }
        let (program, rest) = if let Some(quoted) = line.strip_prefix('"') {
            let end = quoted
                .find('"')
                .ok_or_else(|| format!("the engine command line '{line}' has an unclosed quote"))?;
            (&quoted[..end], &quoted[end + 1..])
        } else {
            match line.split_once(char::is_whitespace) {
                Some((p, r)) => (p, r),
                None => (line, ""),
            }
        };
        let mut args = Vec::new();
        let mut current = String::new();
        let mut in_word = false;
        let mut in_quotes = false;
        for c in rest.chars() {
            match c {
                '"' => {
                    in_quotes = !in_quotes;
                    in_word = true;
                }
                c if c.is_whitespace() && !in_quotes => {
                    if in_word {
                        args.push(std::mem::take(&mut current));
                        in_word = false;
                    }
                }
                c => {
                    current.push(c);
                    in_word = true;
                }
            }
        }
        if in_quotes {
            return Err(format!(
                "the engine command line '{line}' has an unclosed quote"
            ));
        }
        if in_word {
            args.push(current);
        }
        Ok(EngineCommand {
            program: program.to_string(),
            args,
        })
    }
}

impl EngineCommand {
    /// Replaces the program name `self` by the path of the running Waggle
    /// binary, so that Waggle can be named as an opponent of itself.
    ///
    /// # Errors
    /// The path of the running binary cannot be found.
    pub fn resolve_self(mut self) -> Result<EngineCommand, String> {
        if self.program == "self" {
            self.program = std::env::current_exe()
                .map_err(|e| format!("cannot find the waggle binary: {e}"))?
                .to_string_lossy()
                .into_owned();
        }
        Ok(self)
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.program.contains(' ') {
            write!(f, "\"{}\"", self.program)?;
        } else {
            f.write_str(&self.program)?;
        }
        for a in &self.args {
            if a.contains(' ') || a.is_empty() {
                write!(f, " \"{a}\"")?;
            } else {
                write!(f, " {a}")?;
            }
        }
        Ok(())
    }
}

/// What went wrong talking to an engine.
#[derive(Clone, Debug)]
pub enum ClientError {
    /// The program could not be started.
    Spawn(String),
    /// The engine closed its output (it exited or crashed) while answering
    /// `during`.
    Crashed {
        /// The command being answered (or `startup`).
        during: String,
        /// The exit status, when it could be read.
        status: Option<String>,
    },
    /// No `ok` within the allowed time.
    Timeout {
        /// The command being answered (or `startup`).
        during: String,
        /// How long we waited.
        after: Duration,
    },
    /// The engine answered `err <message>`.
    Err(String),
    /// The engine answered `invalidmove <message>`.
    InvalidMove(String),
    /// The engine broke the protocol (for example no `id` line).
    Protocol(String),
    /// The client is unusable after an earlier crash or timeout.
    NeedsRestart,
}

impl ClientError {
    /// Whether the engine process must be restarted before it is used again.
    pub fn is_fatal(&self) -> bool {
        !matches!(self, ClientError::Err(_) | ClientError::InvalidMove(_))
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn(e) => write!(f, "could not start the engine: {e}"),
            ClientError::Crashed { during, status } => {
                write!(f, "the engine exited while answering '{during}'")?;
                if let Some(s) = status {
                    write!(f, " ({s})")?;
                }
                Ok(())
            }
            ClientError::Timeout { during, after } => write!(
                f,
                "the engine gave no 'ok' to '{during}' within {:.1} s",
                after.as_secs_f64()
            ),
            ClientError::Err(m) => write!(f, "the engine answered 'err {m}'"),
            ClientError::InvalidMove(m) => write!(f, "the engine answered 'invalidmove {m}'"),
            ClientError::Protocol(m) => write!(f, "protocol error: {m}"),
            ClientError::NeedsRestart => {
                write!(f, "the engine must be restarted after an earlier failure")
            }
        }
    }
}

impl std::error::Error for ClientError {}

/// A running UHP engine.
pub struct UhpClient {
    command: EngineCommand,
    startup_timeout: Duration,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    broken: bool,
    /// The engine's `id` line without the `id ` prefix (`Unknown` if absent).
    pub id: String,
    /// The capabilities it announced (`Mosquito`, `Ladybug`, `Pillbug`).
    pub capabilities: Vec<String>,
}

impl fmt::Debug for UhpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UhpClient")
            .field("command", &self.command)
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// Starts a thread that forwards each line of `from` (without its line
/// ending) to the returned channel; the channel closes at end of output.
fn forward_lines(from: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(from);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf);
            let line = line.trim_end_matches(['\n', '\r']).to_string();
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

impl UhpClient {
    /// Starts the engine and reads its startup block (`id …`, an optional
    /// capabilities line, `ok`) within `startup_timeout`.
    ///
    /// # Errors
    /// The program cannot be started, or it does not greet in time.
    pub fn spawn(
        command: &EngineCommand,
        startup_timeout: Duration,
    ) -> Result<UhpClient, ClientError> {
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| ClientError::Spawn(format!("{command}: {e}")))?;
        let (Some(stdin), Some(stdout), Some(stderr_pipe)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ClientError::Spawn(format!("{command}: no pipes")));
        };
        let lines = forward_lines(stdout);
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        let err_lines = forward_lines(stderr_pipe);
        thread::spawn(move || {
            for line in err_lines {
                let mut t = tail.lock();
                if t.len() == STDERR_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        let mut client = UhpClient {
            command: command.clone(),
            startup_timeout,
            child,
            stdin,
            lines,
            stderr,
            broken: false,
            id: "Unknown".into(),
            capabilities: Vec::new(),
        };
        let block = client.read_answer("startup", startup_timeout)?;
        if let Some(id) = block.first().and_then(|l| l.strip_prefix("id ")) {
            client.id = id.to_string();
        }
        // The viewer reads the capabilities from the last line before `ok`.
        if block.len() > 1 {
            if let Some(last) = block.last() {
                client.capabilities = last
                    .split(';')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
            }
        }
        Ok(client)
    }

    /// The command line this engine was started with.
    pub fn command(&self) -> &EngineCommand {
        &self.command
    }

    /// Whether the engine announced an expansion capability (`Mosquito`, …).
    pub fn supports(&self, capability: &str) -> bool {
        self.capabilities
            .iter()
            .any(|c| c.eq_ignore_ascii_case(capability))
    }

    /// The last lines the engine wrote on stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr.lock().iter().cloned().collect()
    }

    /// Sends one command and returns the lines of its answer, without the
    /// final `ok`.
    ///
    /// # Errors
    /// `err` and `invalidmove` answers, a crash, or no `ok` within `timeout`.
    /// After a crash or a timeout the client needs [`UhpClient::restart`].
    pub fn send(&mut self, command: &str, timeout: Duration) -> Result<Vec<String>, ClientError> {
        if self.broken {
            return Err(ClientError::NeedsRestart);
        }
        if writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .is_err()
        {
            self.broken = true;
            return Err(ClientError::Crashed {
                during: command.to_string(),
                status: self.exit_status(),
            });
        }
        let lines = self.read_answer(command, timeout)?;
        if let Some(e) = lines.iter().find_map(|l| l.strip_prefix("err")) {
            return Err(ClientError::Err(e.trim().to_string()));
        }
        if let Some(e) = lines.iter().find_map(|l| l.strip_prefix("invalidmove")) {
            return Err(ClientError::InvalidMove(e.trim().to_string()));
        }
        Ok(lines)
    }

    fn read_answer(&mut self, during: &str, timeout: Duration) -> Result<Vec<String>, ClientError> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line == "ok" => return Ok(lines),
                Ok(line) => lines.push(line),
                Err(RecvTimeoutError::Timeout) => {
                    self.broken = true;
                    return Err(ClientError::Timeout {
                        during: during.to_string(),
                        after: timeout,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.broken = true;
                    return Err(ClientError::Crashed {
                        during: during.to_string(),
                        status: self.exit_status(),
                    });
                }
            }
        }
    }

    fn exit_status(&mut self) -> Option<String> {
        // The process may still be closing its pipes; give it a moment.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(describe_status(status));
            }
            thread::sleep(Duration::from_millis(10));
        }
        None
    }

    /// Whether the client can still be used (no crash or timeout so far).
    pub fn is_usable(&self) -> bool {
        !self.broken
    }

    /// Kills the engine and starts it again with the same command line.
    ///
    /// # Errors
    /// The engine cannot be started again.
    pub fn restart(&mut self) -> Result<(), ClientError> {
        let fresh = UhpClient::spawn(&self.command, self.startup_timeout)?;
        // The old process is stopped when it is dropped here.
        *self = fresh;
        Ok(())
    }

    fn shut_down(&mut self) {
        if !self.broken {
            let _ = writeln!(self.stdin, "exit");
            let _ = self.stdin.flush();
            for _ in 0..50 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for UhpClient {
    fn drop(&mut self) {
        self.shut_down();
    }
}

fn describe_status(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => format!("{status}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_mzinga_viewer() {
        let c = EngineCommand::parse("nokamute --threads 2").unwrap();
        assert_eq!(c.program, "nokamute");
        assert_eq!(c.args, ["--threads", "2"]);
        let c = EngineCommand::parse("\"/opt/my engines/mzinga\" -x \"a b\"").unwrap();
        assert_eq!(c.program, "/opt/my engines/mzinga");
        assert_eq!(c.args, ["-x", "a b"]);
        let c = EngineCommand::parse("  waggle  ").unwrap();
        assert_eq!(c.program, "waggle");
        assert!(c.args.is_empty());
        assert!(EngineCommand::parse("").is_err());
        assert!(EngineCommand::parse("\"unclosed").is_err());
        assert!(EngineCommand::parse("w \"unclosed").is_err());
        let c = EngineCommand::parse("w \"\"").unwrap();
        assert_eq!(c.args, [""]);
        assert_eq!(c.to_string(), "w \"\"");
    }
}
