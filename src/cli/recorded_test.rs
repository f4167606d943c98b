//! The sequential test of a `compare` run as `stats` reads it back: the one its records hold
//! (their `sprt` tag), or the test `compare` runs by default.

use super::compare::CompareArgs;
use crate::game::GameSpec;
use crate::record::GameRecord;
use crate::sequential::BettingTest;

/// The sequential test a compare record was run with (its `sprt` tag; older records have none).
pub(super) fn recorded_test(r: &GameRecord) -> Option<RecordedTest> {
    let t = r.tags.get("sprt")?;
    let num = |k: &str| t.get(k)?.as_f64();
    let test = BettingTest::try_new(num("lower")?, num("upper")?, num("alpha")?, num("beta")?).ok()?;
    // Runs before 2026-11-27 used the GSPRT and wrote no method.
    let betting = t.get("method").and_then(|m| m.as_str()) == Some("betting");
    Some(RecordedTest { test, betting })
}

/// The sequential test of a compare run's records: its parameters, and whether the run itself
/// used the betting test (else an older croupier ran the GSPRT with them).
#[derive(Clone, Debug)]
pub struct RecordedTest {
    pub test: BettingTest,
    pub betting: bool,
}

/// The test `compare` runs by default for `spec`: its bounds, the default alpha and beta
/// (read from compare's own options, so they cannot drift).
pub fn default_test(spec: &GameSpec) -> BettingTest {
    let cmd = <CompareArgs as clap::Args>::augment_args(clap::Command::new("compare"));
    let default = |id: &str| -> f64 {
        cmd.get_arguments()
            .find(|a| a.get_id() == id)
            .and_then(|a| a.get_default_values().first())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.05)
    };
    let (lower, upper) = spec.compare_bounds;
    BettingTest::new(lower, upper, default("alpha"), default("beta"))
}
