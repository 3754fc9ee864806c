//! `waggle spsa`: the weights it prints at the end are the start weights
//! with the tuned ones replaced, and bad arguments are refused with a
//! message rather than a panic.

use std::process::Command;
use waggle::engine::params;

fn spsa(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_waggle"))
        .arg("spsa")
        .args(args)
        .output()
        .expect("waggle runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A command line's words.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The value of `field` (e.g. `tempo`) in a `{:#?}` print of EvalWeights.
fn field(stdout: &str, name: &str) -> i32 {
    let at = stdout
        .find(&format!("    {name}: "))
        .unwrap_or_else(|| panic!("no {name} in {stdout}"));
    let rest = &stdout[at + name.len() + 6..];
    rest[..rest.find(',').expect("a comma")]
        .trim()
        .parse()
        .expect("a number")
}

/// The entries of the array `name` in a `{:#?}` print of EvalWeights.
fn array(stdout: &str, name: &str) -> Vec<i32> {
    let at = stdout
        .find(&format!("    {name}: ["))
        .unwrap_or_else(|| panic!("no {name} in {stdout}"));
    let rest = &stdout[at..];
    let body = &rest[rest.find('[').expect("[") + 1..rest.find(']').expect("]")];
    body.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a number"))
        .collect()
}

/// The tuned value of `name` on the `tuned:` line.
fn tuned(stdout: &str, name: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("tuned: "))
        .expect("a tuned line");
    let at = line.find(&format!("{name} ")).expect("the weight");
    line[at + name.len() + 1..]
        .split(',')
        .next()
        .expect("a value")
        .parse()
        .expect("a number")
}

#[test]
fn the_printed_weights_are_the_start_with_the_tuned_ones_replaced() {
    let (ok, out, err) = spsa(&words(
        "--param mobile.B --param tempo:10 --pairs 2 --nodes 300 --game-type Base --start round-seven --threads 2",
    ));
    assert!(ok, "{err}");
    // One progress line per batch of two pairs.
    assert_eq!(err.lines().filter(|l| l.starts_with("pairs ")).count(), 1);
    assert!(out.starts_with("# waggle spsa Base: 2 pairs"), "{out}");
    assert!(out.contains("from mobile.B 27, tempo 28"), "{out}");
    let mobile = array(&out, "mobile");
    assert_eq!(mobile[2], tuned(&out, "mobile.B").round() as i32);
    assert_eq!(field(&out, "tempo"), tuned(&out, "tempo").round() as i32);
    // Untouched: round seven's.
    assert_eq!(
        [mobile[0], mobile[1], mobile[3], mobile[4]],
        [39, 49, 21, 54]
    );
    assert_eq!(array(&out, "queen_surround"), [0, 51, 88, 157, 281, 451]);
    assert_eq!(field(&out, "beetle_by_queen"), 49);
}

#[test]
fn a_search_parameter_is_tuned_with_its_own_perturbation() {
    let (ok, out, err) = spsa(&words(
        "--param futility_margin --param lmr_divisor:0.3 --param tempo --pairs 2 --nodes 300 --game-type Base --threads 2",
    ));
    assert!(ok, "{err}");
    let from = format!(
        "from futility_margin {}, lmr_divisor {}, tempo ",
        params::FUTILITY_MARGIN,
        params::LMR_DIVISOR
    );
    assert!(out.contains(&from), "{out}");
    // The search parameters are printed after the weights, the tuned ones
    // replaced and the rest the engine's.
    let at = out.find("SearchParams {").expect("the search parameters");
    let search = &out[at..];
    assert_eq!(
        field(search, "futility_margin"),
        tuned(&out, "futility_margin").round() as i32
    );
    assert_eq!(field(search, "rfp_margin"), params::RFP_MARGIN);
    assert_eq!(field(search, "null_base"), params::NULL_BASE);
    // Two pairs move a parameter by a few r_end·c_end (0.02 times 0.3 and
    // times SearchParams::C_END's 15) at most.
    let lmr = tuned(&out, "lmr_divisor") - params::LMR_DIVISOR;
    assert!(lmr.abs() < 0.1, "{out}");
    let futility = tuned(&out, "futility_margin") - f64::from(params::FUTILITY_MARGIN);
    assert!(futility.abs() < 5.0, "{out}");
    // The values as played, for `waggle --set`, which takes them.
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("to play them: waggle "))
        .expect("a --set line");
    let sets: Vec<&str> = line
        .split(" --set ")
        .map(|s| s.trim_start_matches("--set "))
        .collect();
    assert_eq!(
        sets[0],
        format!("futility_margin={}", field(search, "futility_margin"))
    );
    assert!(sets[1].starts_with("lmr_divisor="), "{line}");
    assert_eq!(sets[2], format!("tempo={}", field(&out, "tempo")));
    let mut overrides = params::Overrides::default();
    for s in &sets {
        overrides.set_assignment(s).expect("--set takes it");
    }
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    for (args, says) in [
        (vec!["--param", "mobile.X"], "no such weight"),
        (vec!["--param", "futility"], "futility_margin"),
        (vec!["--param", "tempo", "--param", "tempo"], "given twice"),
        (vec!["--param", "tempo:-3"], "must be above 0"),
        (vec!["--param", "tempo:abc"], "must be above 0"),
        (vec!["--param", "tempo", "--c-end", "0"], "must be above 0"),
        (
            vec!["--param", "tempo", "--r-end", "NaN"],
            "must be above 0",
        ),
        (vec!["--param", "tempo", "--pairs", "0"], "must be above 0"),
    ] {
        let (ok, _, err) = spsa(&args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
