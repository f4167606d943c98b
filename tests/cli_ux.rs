//! What new users ran into with `match`, `compare`, `show` and `rules` (issue 11): refusals,
//! messages, the JSON shape, alignment, help texts, signals.

mod common;
use common::croupier;

use serde_json::Value;

/// stdout of a run that must succeed with `code`.
fn stdout_of(args: &[&str], code: i32) -> String {
    let out = croupier().args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "croupier {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn compare_of_identical_bots_decides_from_the_mean_with_an_infinite_llr() {
    let args = [
        "compare",
        "rikken",
        "--candidate",
        "simple",
        "--baseline",
        "simple",
        "--seed",
        "3",
        "--quiet",
    ];
    let text = stdout_of(&args, 0);
    assert!(text.contains("LLR +inf (every paired difference was +0.00"), "{text}");
    assert!(text.contains("result: pass"), "{text}");
    assert!(!text.contains("5000000"), "{text}");
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let v: Value = serde_json::from_str(&stdout_of(&json_args, 0)).unwrap();
    assert_eq!(v["result"], "pass", "{v}");
    assert_eq!(v["llr"], Value::Null, "an infinite LLR is null in JSON: {v}");
    assert_eq!(v["deals"], 10, "decided at the minimum sample: {v}");
}
