//! The layout the README promises ("Layout"): within each crate no file imports from a file
//! that imports from it (a directory's `mod.rs` holds docs and re-exports, and its children do
//! not reach back into it), and no game imports another game. The crates' own order is held by
//! cargo; this test holds the files'.
//!
//! Read from the source text: a file's imports are the `crate::…` and `super::…` paths it
//! names (in `use` lines, `use super::{a, b}` groups included, and in code), and a parent's
//! uses of its children's items (`child::item`). Comments and test modules do not count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's files by module path (`["referee", "play"]` for `referee/play.rs`).
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src");
            let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            let last = parts.pop().expect("a file name");
            let stem = last.trim_end_matches(".rs");
            if stem == "main" {
                continue; // the binary: a crate of its own
            }
            if !["mod", "lib"].contains(&stem) {
                parts.push(stem.to_string());
            }
            out.insert(parts, path);
        }
    }
    out
}

/// The code of a file that counts: no comments, nothing from its first `#[cfg(test)]` on.
fn code(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("a readable source file");
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push(line.split(" //").next().unwrap_or(line).to_string());
    }
    out
}

/// The identifier path that starts at byte `i` of `s` (`a::b::C`), as its parts.
fn path_at(s: &str, i: usize) -> Vec<String> {
    let rest = &s[i..];
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(rest.len());
    rest[..end]
        .split("::")
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// The longest module of `mods` that `parts` starts with.
fn resolve(mods: &BTreeMap<Vec<String>, PathBuf>, parts: &[String]) -> Option<Vec<String>> {
    (0..=parts.len())
        .rev()
        .map(|k| parts[..k].to_vec())
        .find(|m| mods.contains_key(m))
}

/// Which files each file imports from, within one crate.
fn imports(mods: &BTreeMap<Vec<String>, PathBuf>) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (m, path) in mods {
        let is_dir_module = path.file_name().is_some_and(|f| f == "mod.rs" || f == "lib.rs");
        let mut to = BTreeSet::new();
        for line in code(path) {
            // crate::a::b
            for (i, _) in line.match_indices("crate::") {
                if let Some(r) = resolve(mods, &path_at(&line, i + "crate::".len())) {
                    to.insert(r);
                }
            }
            // super::x, super::super::x, super::{x, y}
            for (i, _) in line.match_indices("super::") {
                if i >= 7 && &line[i - 7..i] == "super::" {
                    continue; // counted from the first `super::`
                }
                let mut base = m.clone();
                // A file `a/b.rs` is module a::b; its `super` is a. A `mod.rs` is its directory.
                let mut j = i;
                while line[j..].starts_with("super::") {
                    base.pop();
                    j += "super::".len();
                }
                let names: Vec<Vec<String>> = if line[j..].starts_with('{') {
                    let group = &line[j + 1..line[j..].find('}').map_or(line.len(), |e| j + e)];
                    group.split(',').map(|n| path_at(n.trim(), 0)).collect()
                } else {
                    vec![path_at(&line, j)]
                };
                for n in names {
                    let mut full = base.clone();
                    full.extend(n);
                    if let Some(r) = resolve(mods, &full) {
                        to.insert(r);
                    }
                }
            }
            // A parent's use of a child's items: `child::item` in mod.rs / lib.rs.
            if is_dir_module {
                for (i, _) in line.match_indices("::") {
                    let before = &line[..i];
                    let start = before
                        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .map_or(0, |k| k + 1);
                    if start > 0 && line[..start].ends_with("::") {
                        continue; // inside a longer path, counted above
                    }
                    let mut child = m.clone();
                    child.push(before[start..].to_string());
                    if mods.contains_key(&child) {
                        to.insert(child);
                    }
                }
            }
        }
        to.remove(m);
        edges.insert(m.clone(), to);
    }
    edges
}

/// The cycles of a graph (its strongly connected components of more than one node).
fn cycles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    // Kosaraju: finishing order on the graph, then components on its reverse.
    let nodes: Vec<&Vec<String>> = edges.keys().collect();
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for &n in &nodes {
        if seen.contains(n) {
            continue;
        }
        let mut stack = vec![(n, false)];
        while let Some((v, done)) = stack.pop() {
            if done {
                order.push(v);
                continue;
            }
            if !seen.insert(v) {
                continue;
            }
            stack.push((v, true));
            for w in edges.get(v).into_iter().flatten() {
                if !seen.contains(w) {
                    stack.push((w, false));
                }
            }
        }
    }
    let mut reverse: BTreeMap<&Vec<String>, Vec<&Vec<String>>> = BTreeMap::new();
    for (v, ws) in edges {
        for w in ws {
            reverse.entry(w).or_default().push(v);
        }
    }
    let mut assigned = BTreeSet::new();
    let mut out = Vec::new();
    for &v in order.iter().rev() {
        if assigned.contains(v) {
            continue;
        }
        let mut comp = Vec::new();
        let mut stack = vec![v];
        assigned.insert(v);
        while let Some(x) = stack.pop() {
            comp.push(x.clone());
            for &w in reverse.get(x).into_iter().flatten() {
                if assigned.insert(w) {
                    stack.push(w);
                }
            }
        }
        if comp.len() > 1 {
            out.push(comp);
        }
    }
    out
}

fn crate_sources() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![root.join("src")];
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
        let src = entry.expect("an entry").path().join("src");
        if src.is_dir() {
            out.push(src);
        }
    }
    out.sort();
    out
}

#[test]
fn no_file_imports_from_a_file_that_imports_from_it() {
    let mut report = Vec::new();
    let mut counted = 0;
    for src in crate_sources() {
        let mods = modules(&src);
        counted += mods.len();
        let edges = imports(&mods);
        for comp in cycles(&edges) {
            let name = |m: &Vec<String>| if m.is_empty() { "lib".to_string() } else { m.join("::") };
            let mut lines = vec![format!("{}: a cycle among {} files:", src.display(), comp.len())];
            for a in &comp {
                for b in edges[a].iter().filter(|b| comp.contains(b)) {
                    lines.push(format!("  {} -> {}", name(a), name(b)));
                }
            }
            report.push(lines.join("\n"));
        }
    }
    assert!(counted > 150, "the crates' files were found ({counted})");
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn the_cycle_finder_finds_a_parent_and_child_that_use_each_other() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("bots")).unwrap();
    std::fs::write(dir.path().join("lib.rs"), "pub mod bots;\n").unwrap();
    std::fs::write(
        dir.path().join("bots/mod.rs"),
        "mod human;\npub trait Bot {}\npub fn make() { human::Human::new(); }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("bots/human.rs"),
        "use super::{Bot};\npub struct Human;\n",
    )
    .unwrap();
    let mods = modules(dir.path());
    let found = cycles(&imports(&mods));
    assert_eq!(found.len(), 1, "{found:?}");
    // Without the child's use of its parent, no cycle.
    std::fs::write(
        dir.path().join("bots/human.rs"),
        "use crate::seat::Bot; // (another file)\npub struct Human;\n",
    )
    .unwrap();
    assert!(cycles(&imports(&modules(dir.path()))).is_empty());
}

#[test]
fn no_game_imports_another_game() {
    let games = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/games/src/games");
    let names: Vec<String> = std::fs::read_dir(&games)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            p.is_dir()
                .then(|| p.file_name().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    assert!(names.len() >= 6, "{names:?}");
    let mut found = Vec::new();
    for game in &names {
        for (m, path) in modules(&games.join(game)) {
            for line in code(&path) {
                for other in names.iter().filter(|o| *o != game) {
                    if line.contains(&format!("games::{other}::")) || line.contains(&format!("super::super::{other}")) {
                        found.push(format!("{game}/{}: {}", m.join("/"), line.trim()));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "a game reaches into another:\n{}", found.join("\n"));
}
