//! Resuming a compare run: its record read back, each game one of this run's, there once.

use super::deals::deal_difference;
use crate::cli::arena::{repeated_game, resumed_records, tag_str};
use crate::cli::exit::usage;
use crate::record::GameRecord;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// What the record of a compare run being resumed holds: the values of its whole deals (by
/// deal), the games of deals only partly written, and how many records were read.
#[derive(Default)]
pub(super) struct ComparePart {
    pub(super) pending: BTreeMap<u64, [f64; 2]>,
    pub(super) partial: BTreeMap<u64, Vec<GameRecord>>,
    pub(super) already: u64,
}

/// Reads the record of a compare run being resumed ([`resumed_records`]): every record must be
/// one of this run's games, there once.
pub(super) fn read_compare_resume(
    path: &Path,
    canonical: &Value,
    shard: &str,
    in_plan: impl Fn(u64) -> bool,
    keys: &[String],
    players: usize,
    shared_base: bool,
) -> Result<ComparePart, (u8, String)> {
    let mut out = ComparePart::default();
    out.already = resumed_records(path, canonical, shard, |name, line, r| {
        let set = r.tags.get("set").and_then(|v| v.as_u64()).unwrap_or(u64::MAX);
        let job = tag_str(&r, "job");
        if !in_plan(set) || !keys.contains(&job) {
            return Err(usage(format!(
                "{name}:{line}: deal {set} game '{job}' is not one of this run's: use another file"
            )));
        }
        if out.pending.contains_key(&set) {
            return Err(repeated_game(name, line, set, &job));
        }
        let recs = out.partial.entry(set).or_default();
        if recs.iter().any(|x| tag_str(x, "job") == job) {
            return Err(repeated_game(name, line, set, &job));
        }
        recs.push(r);
        if recs.len() == keys.len() {
            let recs = out.partial.remove(&set).unwrap_or_default();
            out.pending.insert(set, deal_difference(&recs, players, shared_base));
        }
        Ok(())
    })?;
    Ok(out)
}
