//! Engines taking part in an arena: how they are described on the command
//! line.

use crate::tools::uhp_client::EngineCommand;
use std::time::Duration;

/// One engine taking part.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Name in tables and PGN files.
    pub name: String,
    /// Command line.
    pub command: EngineCommand,
    /// `options set <name> <value>` sent after each start.
    pub options: Vec<(String, String)>,
    /// Depth per move for this engine (overrides `--depth`).
    pub depth: Option<u32>,
    /// Time per move for this engine (overrides `--time`).
    pub time: Option<Duration>,
    /// Nodes per move for this engine (`bestmove nodes N`, an extension).
    pub nodes: Option<u64>,
}

impl EngineSpec {
    /// Reads an engine description: either a plain command line, or
    /// comma-separated fields `cmd=<command line>`, `name=<name>`,
    /// `option.<Name>=<value>`, `depth=<plies>`, `time=<seconds>`,
    /// `nodes=<count>`. The command `self` runs this Waggle binary.
    ///
    /// # Errors
    /// An unknown field, a bad number, or no command.
    pub fn parse(spec: &str) -> Result<EngineSpec, String> {
        let fields = split_fields(spec);
        let mut s = EngineSpec {
            name: String::new(),
            command: EngineCommand {
                program: String::new(),
                args: Vec::new(),
            },
            options: Vec::new(),
            depth: None,
            time: None,
            nodes: None,
        };
        let Some(fields) = fields else {
            s.command = EngineCommand::parse(spec)?.resolve_self()?;
            s.name = default_name(&s.command);
            return Ok(s);
        };
        let mut have_cmd = false;
        for (key, value) in fields {
            s.apply(&key, &value, &mut have_cmd)?;
        }
        if !have_cmd {
            return Err(format!("the engine '{spec}' has no cmd=<command line>"));
        }
        if s.name.is_empty() {
            s.name = default_name(&s.command);
        }
        Ok(s)
    }

    /// Applies `--each` fields (options, depth, time) to this engine; its own
    /// settings win.
    ///
    /// # Errors
    /// As [`EngineSpec::parse`].
    pub fn apply_each(&mut self, each: &str) -> Result<(), String> {
        let fields = split_fields(each)
            .ok_or_else(|| format!("'--each {each}' must be fields such as option.Threads=1"))?;
        for (key, value) in fields {
            if key == "cmd" || key == "name" {
                return Err(format!("'--each' cannot set '{key}'"));
            }
            let mut have_cmd = true;
            let mut tmp = self.clone();
            tmp.apply(&key, &value, &mut have_cmd)?;
            if self.depth.is_none() {
                self.depth = tmp.depth;
            }
            if self.time.is_none() {
                self.time = tmp.time;
            }
            if self.nodes.is_none() {
                self.nodes = tmp.nodes;
            }
            if let Some(name) = key.strip_prefix("option.") {
                if !self.options.iter().any(|(n, _)| n == name) {
                    self.options.push((name.to_string(), value.clone()));
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, key: &str, value: &str, have_cmd: &mut bool) -> Result<(), String> {
        match key {
            "cmd" => {
                self.command = EngineCommand::parse(value)?.resolve_self()?;
                *have_cmd = true;
            }
            "name" => self.name = value.to_string(),
            "depth" => {
                self.depth = Some(
                    value
                        .parse()
                        .map_err(|_| format!("depth={value}: not a number of plies"))?,
                );
            }
            "time" => self.time = Some(parse_seconds(value)?),
            "nodes" => {
                self.nodes = Some(
                    value
                        .parse()
                        .map_err(|_| format!("nodes={value}: not a number of nodes"))?,
                );
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    self.options.push((name.to_string(), value.to_string()));
                }
                _ => {
                    return Err(format!(
                        "unknown engine field '{key}': use cmd=, name=, option.<Name>=, depth=, time= or nodes="
                    ))
                }
            },
        }
        Ok(())
    }
}

/// Splits `key=value,key=value`; `None` when the text does not start with a
/// known key (it is then a plain command line).
fn split_fields(spec: &str) -> Option<Vec<(String, String)>> {
    let known = |f: &str| {
        ["cmd=", "name=", "depth=", "time=", "nodes=", "option."]
            .iter()
            .any(|k| f.trim_start().starts_with(k))
    };
    if !known(spec) {
        return None;
    }
    let mut fields: Vec<(String, String)> = Vec::new();
    for part in spec.split(',') {
        match part.split_once('=') {
            Some((k, v)) if known(part) => fields.push((k.trim().to_string(), v.to_string())),
            // A comma inside a value (a command line with a comma).
            _ => match fields.last_mut() {
                Some(last) => {
                    last.1.push(',');
                    last.1.push_str(part);
                }
                None => return None,
            },
        }
    }
    Some(fields)
}

fn default_name(c: &EngineCommand) -> String {
    std::path::Path::new(&c.program)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| c.program.clone())
}

/// Reads a number of seconds such as `0.5` or `2`.
///
/// # Errors
/// Not a non-negative number.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .and_then(|v| Duration::try_from_secs_f64(v).ok())
        .ok_or_else(|| format!("'{s}' is not a number of seconds"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse() {
        let s = EngineSpec::parse("nokamute --threads 1").unwrap();
        assert_eq!(s.command.program, "nokamute");
        assert_eq!(s.name, "nokamute");
        let s = EngineSpec::parse(
            "name=fast,cmd=/bin/waggle --threads 1,option.HashMB=16,depth=2,time=0.5",
        )
        .unwrap();
        assert_eq!(s.name, "fast");
        assert_eq!(s.command.args, ["--threads", "1"]);
        assert_eq!(s.options, [("HashMB".to_string(), "16".to_string())]);
        assert_eq!(s.depth, Some(2));
        assert_eq!(s.time, Some(Duration::from_millis(500)));
        let s = EngineSpec::parse("cmd=run a,b,name=x").unwrap();
        assert_eq!(s.command.args, ["a,b"]);
        assert!(EngineSpec::parse("name=x").is_err());
        assert!(EngineSpec::parse("cmd=x,depth=deep").is_err());
        assert!(EngineSpec::parse("cmd=x,colour=blue").is_ok()); // a comma in the command
        let mut s = EngineSpec::parse("cmd=x,option.Threads=2").unwrap();
        s.apply_each("option.Threads=1,option.HashMB=8,depth=3")
            .unwrap();
        assert_eq!(s.options.len(), 2);
        assert_eq!(s.options[0].1, "2");
        assert_eq!(s.depth, Some(3));
    }
}
