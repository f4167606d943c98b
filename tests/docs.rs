//! The repository stands alone: the rules of every game are in `docs/rules/`, every option that
//! `croupier rules GAME` lists is documented there with its default, and every relative link of
//! the documents points at a file of the repository.

mod common;
use common::croupier;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The cells of the markdown table rows of the section headed `heading` (up to the next `## `).
fn table_rows(doc: &str, heading: &str) -> Vec<Vec<String>> {
    let Some(start) = doc.lines().position(|l| l.trim() == heading) else {
        return Vec::new();
    };
    doc.lines()
        .skip(start + 1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.trim_start().starts_with('|'))
        .map(|l| {
            let t = l.trim().trim_start_matches('|').trim_end_matches('|');
            t.split(" | ").map(|c| c.trim().to_string()).collect()
        })
        .collect()
}

#[test]
fn every_option_croupier_rules_lists_is_documented_with_its_default() {
    for g in croupier::games::all() {
        let path = root().join(format!("docs/rules/{}.md", g.name));
        let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(doc.starts_with("# "), "{}: a title first", path.display());
        let rows = table_rows(&doc, "## Options");
        let header = rows
            .first()
            .unwrap_or_else(|| panic!("{}: no table under '## Options'", path.display()));
        assert_eq!(
            header[..4],
            ["option", "values", "default", "meaning"],
            "{}",
            path.display()
        );
        // What the user sees: the option names of `croupier rules GAME`.
        let listed = croupier().args(["rules", g.name]).output().unwrap();
        let listed = String::from_utf8(listed.stdout).unwrap();
        for o in (g.options)() {
            assert!(listed.contains(o.name), "croupier rules {} lists {}", g.name, o.name);
            let row = rows
                .iter()
                .find(|r| r[0] == format!("`{}`", o.name))
                .unwrap_or_else(|| panic!("{}: option `{}` is not in the Options table", path.display(), o.name));
            assert_eq!(
                row[2].trim_matches('`'),
                o.default,
                "{}: default of `{}`",
                path.display(),
                o.name
            );
            assert!(row[3].len() > 10, "{}: `{}` needs a meaning", path.display(), o.name);
        }
        let names: Vec<String> = (g.options)().iter().map(|o| format!("`{}`", o.name)).collect();
        for r in &rows[2..] {
            assert!(
                names.contains(&r[0]),
                "{}: {} is not an option of {}",
                path.display(),
                r[0],
                g.name
            );
        }
    }
}

/// Relative links `[text](path)` and `[text](path#anchor)` of a markdown file.
fn relative_links(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = &rest[..end];
        if !target.contains("://") && !target.starts_with('#') && !target.starts_with("mailto:") {
            out.push(target.split('#').next().unwrap().to_string());
        }
    }
    out
}

#[test]
fn every_relative_link_points_into_the_repository() {
    let mut docs: Vec<PathBuf> = ["README.md", "protocol.md", "bots/README.md"]
        .iter()
        .map(|p| root().join(p))
        .collect();
    for e in std::fs::read_dir(root().join("docs/rules")).unwrap() {
        docs.push(e.unwrap().path());
    }
    let repo = root().canonicalize().unwrap();
    for doc in docs {
        let text = std::fs::read_to_string(&doc).unwrap();
        assert!(
            !text.contains("shared/rules"),
            "{}: names the project's internal specs",
            doc.display()
        );
        let dir = doc.parent().unwrap_or(Path::new("."));
        for link in relative_links(&text) {
            let target = dir.join(&link);
            let resolved = target
                .canonicalize()
                .unwrap_or_else(|_| panic!("{}: link {link} points at nothing", doc.display()));
            assert!(
                resolved.starts_with(&repo),
                "{}: link {link} leaves the repository",
                doc.display()
            );
        }
    }
}
