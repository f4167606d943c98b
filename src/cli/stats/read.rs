//! Reading the record files of `stats`: each game to its group, once (a duplicate is counted
//! once and named), and the bot seeds of each match (its shards must share one).

use super::group::{bots_of, Group, GroupKey};
use super::keys::{Seed, Seen};
use crate::arena::facts::Names as Strings;
use crate::cli::arena::tag_str;
use crate::cli::io;
use std::collections::{BTreeMap, HashSet};

/// The groups of the records read, and what reading them found.
pub(super) struct Groups {
    pub(super) groups: Vec<Group>,
    pub(super) strings: Strings,
    /// How many games were duplicates, and the first 20: where each is, and where it was first.
    dup_count: usize,
    dups: Vec<String>,
    /// Per match (its fingerprint), the bot seeds its records were played with, each with the
    /// first file that has it: shards of one run must share one.
    bot_seeds: BTreeMap<String, BTreeMap<String, usize>>,
}

impl Groups {
    /// Reads the record files (`-`: standard input), a record at a time.
    pub(super) fn read(files: &[String]) -> Result<Groups, (u8, String)> {
        // Options order by their names and values only, never by the typed forms they cache.
        #[allow(clippy::mutable_key_type)]
        let mut index: BTreeMap<GroupKey, usize> = BTreeMap::new();
        // A game is a duplicate when its group, deal and seating were seen before: where first.
        // Only reading needs them: they are dropped before the sets are sorted.
        let mut seen: HashSet<Seen> = HashSet::new();
        let mut out = Groups {
            groups: Vec::new(),
            strings: Strings::default(),
            dup_count: 0,
            dups: Vec::new(),
            bot_seeds: BTreeMap::new(),
        };
        for (file, f) in files.iter().enumerate() {
            for r in io::records(f, true)? {
                let (line, r, spec) = r?;
                let (bots, with_specs) = bots_of(&r);
                let key = GroupKey {
                    game: r.game.clone(),
                    players: r.players,
                    options: r.options.clone(),
                    bots,
                };
                let g = *index.entry(key.clone()).or_insert_with(|| {
                    out.groups.push(Group::new(spec, key, &r));
                    out.groups.len() - 1
                });
                let seed = Seed::of(&r.seed, &mut out.strings);
                let game = Seen::new(g, seed, out.strings.id(&tag_str(&r, "job")), file, line);
                if let Some(first) = seen.get(&game) {
                    let (first_file, first_line) = first.at();
                    out.dup_count += 1;
                    if out.dups.len() < 20 {
                        out.dups.push(format!(
                            "{}:{line} repeats {}:{first_line}",
                            io::input_name(f),
                            io::input_name(&files[first_file])
                        ));
                    }
                    continue;
                }
                seen.insert(game);
                let m = tag_str(&r, "match");
                if let (false, Some(k)) = (m.is_empty(), &r.bot_seed) {
                    out.bot_seeds
                        .entry(m.clone())
                        .or_default()
                        .entry(k.clone())
                        .or_insert(file);
                }
                out.groups[g].add(&r, seed, with_specs, m, &mut out.strings);
            }
        }
        Ok(out)
    }

    /// Warns on stderr of a match whose records were played with different bot seeds, and of
    /// the duplicate games (`files`: the record files, as given).
    pub(super) fn warn(&self, files: &[String]) {
        for (m, seeds) in self.bot_seeds.iter().filter(|(_, s)| s.len() > 1) {
            let each: Vec<String> = seeds.iter().map(|(k, &f)| format!("{k} ({})", files[f])).collect();
            eprintln!(
                "croupier: WARNING: the records of match {m} were played with {} different bot seeds: {}. \
                 Its shards did not share one --bot-seed, so the bot processes (and the built-in random \
                 and pimc) drew other random numbers in each, and the merged table is not the one run \
                 would give. Run every shard with the same --bot-seed.",
                seeds.len(),
                each.join(", ")
            );
        }
        if self.dup_count > 0 {
            eprintln!("croupier: {} duplicate game(s) counted once:", self.dup_count);
            for d in &self.dups {
                eprintln!("  {d}");
            }
        }
    }
}
