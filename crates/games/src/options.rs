//! Named rule options (`--rule name=value`), validated against each game's table.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};

/// The kind of values an option takes.
#[derive(Clone, Debug)]
pub enum OptionKind {
    Bool,
    /// An integer in `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// One of the listed words; the first is not necessarily the default.
    Choice(&'static [&'static str]),
    /// Free text (one word) in the form described by `form`, checked and normalized by
    /// `check` (for structured values such as a table of numbers).
    Text {
        form: &'static str,
        check: fn(&str) -> Result<String, String>,
    },
}

/// One named option of a game.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub default: &'static str,
    /// One line: what the option means.
    pub help: &'static str,
}

impl OptionSpec {
    pub fn bool(name: &'static str, default: bool, help: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Bool,
            default: if default { "true" } else { "false" },
            help,
        }
    }
    pub fn int(name: &'static str, min: i64, max: i64, default: &'static str, help: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Int { min, max },
            default,
            help,
        }
    }
    pub fn choice(
        name: &'static str,
        values: &'static [&'static str],
        default: &'static str,
        help: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Choice(values),
            default,
            help,
        }
    }

    pub fn text(
        name: &'static str,
        form: &'static str,
        check: fn(&str) -> Result<String, String>,
        default: &'static str,
        help: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Text { form, check },
            default,
            help,
        }
    }

    /// The values this option accepts, for messages and `croupier rules`.
    pub fn values_text(&self) -> String {
        match &self.kind {
            OptionKind::Bool => "true|false".to_string(),
            OptionKind::Int { min, max } => format!("{min}..{max}"),
            OptionKind::Choice(v) => v.join("|"),
            OptionKind::Text { form, .. } => form.to_string(),
        }
    }

    /// Checks and normalizes a value (`on`/`yes`/`1` → `true` for booleans).
    pub fn check(&self, value: &str) -> Result<String, String> {
        let bad = || {
            format!(
                "bad value '{value}' for option '{}': expected {}",
                self.name,
                self.values_text()
            )
        };
        match &self.kind {
            OptionKind::Bool => match value {
                "true" | "on" | "yes" | "1" => Ok("true".into()),
                "false" | "off" | "no" | "0" => Ok("false".into()),
                _ => Err(bad()),
            },
            OptionKind::Int { min, max } => match value.parse::<i64>() {
                Ok(n) if n >= *min && n <= *max => Ok(n.to_string()),
                _ => Err(bad()),
            },
            OptionKind::Choice(values) => {
                if values.contains(&value) {
                    Ok(value.to_string())
                } else {
                    Err(bad())
                }
            }
            OptionKind::Text { check, .. } => {
                if value.is_empty() || value.contains(char::is_whitespace) {
                    return Err(bad());
                }
                check(value).map_err(|e| format!("{}: {e}", bad()))
            }
        }
    }
}

/// The options in force for one game: every option of the game, with its value.
///
/// Shared, not copied: a game, its seats' views and the built-in bots each hold the same
/// validated options, so cloning one is a reference count. A rules engine reads them once into
/// its own typed form ([`Options::compiled`]), which every game under the same options shares.
#[derive(Clone, Default)]
pub struct Options(Arc<Table>);

#[derive(Default)]
struct Table {
    map: BTreeMap<String, String>,
    /// The typed forms made from `map` ([`Options::compiled`]), at most one per type.
    compiled: Mutex<Vec<Arc<dyn Any + Send + Sync>>>,
}

impl Options {
    fn from_map(map: BTreeMap<String, String>) -> Options {
        Options(Arc::new(Table {
            map,
            compiled: Mutex::default(),
        }))
    }

    /// The same options, sharing nothing with these: a reference count and a cache of typed
    /// forms of their own. A table on a thread of its own plays with such a copy: every game
    /// clones its options several times (the engine, each seat, the record) and looks up its
    /// typed form, and with one shared count the tables of a match moved its cache line from
    /// core to core several times a game.
    pub fn detached(&self) -> Options {
        Options::from_map(self.0.map.clone())
    }

    /// These options read into a game's typed form `T` by `make`: made on first use, then
    /// shared by every game played under these options (one per match, not one per game).
    pub fn compiled<T: Any + Send + Sync>(&self, make: impl FnOnce(&Options) -> T) -> Arc<T> {
        let mut compiled = self.0.compiled.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = compiled.iter().find_map(|c| c.clone().downcast::<T>().ok()) {
            return t;
        }
        let t = Arc::new(make(self));
        compiled.push(t.clone());
        t
    }
}

impl PartialEq for Options {
    fn eq(&self, other: &Options) -> bool {
        self.0.map == other.0.map
    }
}

impl Eq for Options {}

impl PartialOrd for Options {
    fn partial_cmp(&self, other: &Options) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Options {
    fn cmp(&self, other: &Options) -> std::cmp::Ordering {
        self.0.map.cmp(&other.0.map)
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.map.fmt(f)
    }
}

/// In a record, the options are a JSON object of names and values (a reference count is taken,
/// not a copy, when a record is made).
impl serde::Serialize for Options {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.map.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Options {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Options, D::Error> {
        BTreeMap::deserialize(d).map(Options::from_map)
    }
}

impl Options {
    /// Resolves `name=value` assignments against a game's option table: defaults first, then
    /// each assignment in order (a later one wins). Unknown names and bad values are errors
    /// that list what is valid.
    pub fn resolve<S: AsRef<str>>(specs: &[OptionSpec], game: &str, assignments: &[S]) -> Result<Options, String> {
        let mut map: BTreeMap<String, String> = specs
            .iter()
            .map(|s| (s.name.to_string(), s.default.to_string()))
            .collect();
        for a in assignments {
            let a = a.as_ref();
            let (name, value) = a
                .split_once('=')
                .ok_or_else(|| format!("bad rule '{a}': write --rule name=value"))?;
            let (name, value) = (name.trim(), value.trim());
            let spec = specs.iter().find(|s| s.name == name).ok_or_else(|| {
                let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
                if names.is_empty() {
                    format!("unknown option '{name}': {game} has no options")
                } else {
                    format!(
                        "unknown option '{name}' for {game}; valid options: {}",
                        names.join(", ")
                    )
                }
            })?;
            map.insert(name.to_string(), spec.check(value)?);
        }
        Ok(Options::from_map(map))
    }

    /// Options from a record (a JSON object of strings), checked like command-line ones.
    pub fn from_pairs(specs: &[OptionSpec], game: &str, pairs: &[(String, String)]) -> Result<Options, String> {
        let assigns: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        Options::resolve(specs, game, &assigns)
    }

    pub fn get(&self, name: &str) -> &str {
        self.0
            .map
            .get(name)
            .map(String::as_str)
            .unwrap_or_else(|| panic!("option '{name}' is not declared by this game"))
    }
    pub fn flag(&self, name: &str) -> bool {
        self.get(name) == "true"
    }
    pub fn int(&self, name: &str) -> i64 {
        self.get(name)
            .parse()
            .unwrap_or_else(|_| panic!("option '{name}' is not an integer"))
    }
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.0.map.iter()
    }
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Object(
            self.0
                .map
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect(),
        )
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.map.iter().map(|(k, v)| format!("{k}={v}")).collect();
        write!(f, "{}", parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::bool("flag", false, "a flag"),
            OptionSpec::int("n", 7, 9, "7", "a number"),
            OptionSpec::choice("mode", &["a", "b"], "a", "a mode"),
            OptionSpec::text("pair", "X,Y", check_pair, "1,2", "two numbers"),
        ]
    }

    fn check_pair(v: &str) -> Result<String, String> {
        let (a, b) = v.split_once(',').ok_or("no comma")?;
        let a: u8 = a.parse().map_err(|_| "X is not a number")?;
        let b: u8 = b.parse().map_err(|_| "Y is not a number")?;
        Ok(format!("{a},{b}"))
    }

    #[test]
    fn a_typed_form_is_made_once_and_shared_by_clones() {
        let o = Options::resolve(&specs(), "g", &["n=8"]).unwrap();
        let made = std::cell::Cell::new(0);
        let n = |o: &Options| {
            made.set(made.get() + 1);
            o.int("n")
        };
        let a = o.compiled(n);
        let b = o.clone().compiled(n);
        assert_eq!((*a, *b, made.get()), (8, 8, 1));
        assert!(Arc::ptr_eq(&a, &b));
        // Another type beside it; other options (even equal ones) make their own.
        assert_eq!(*o.compiled(|o| o.get("mode").to_string()), "a");
        let other = Options::resolve(&specs(), "g", &["n=8"]).unwrap();
        assert_eq!(*other.compiled(n), 8);
        assert_eq!(made.get(), 2);
        assert_eq!(o, other);
        // A detached copy is equal, shares no count with its original and makes its own form.
        let d = o.detached();
        assert_eq!(d, o);
        assert!(!Arc::ptr_eq(&d.0, &o.0));
        assert_eq!(Arc::strong_count(&o.0), 1);
        assert_eq!(*d.compiled(n), 8);
        assert_eq!(made.get(), 3);
    }

    #[test]
    fn defaults_then_assignments() {
        let o = Options::resolve(&specs(), "g", &["n=8", "flag=on", "n=9"]).unwrap();
        assert_eq!(o.int("n"), 9);
        assert!(o.flag("flag"));
        assert_eq!(o.get("mode"), "a");
        assert_eq!(o.to_string(), "flag=true mode=a n=9 pair=1,2");
    }

    #[test]
    fn text_options_are_checked_and_normalized() {
        let o = Options::resolve(&specs(), "g", &["pair=03,4"]).unwrap();
        assert_eq!(o.get("pair"), "3,4");
        let e = Options::resolve(&specs(), "g", &["pair=3"]).unwrap_err();
        assert!(
            e.contains("bad value '3'") && e.contains("X,Y") && e.contains("no comma"),
            "{e}"
        );
        let e = Options::resolve(&specs(), "g", &["pair=1, 2"]).unwrap_err();
        assert!(e.contains("bad value"), "{e}");
    }

    #[test]
    fn errors_list_the_valid_names_and_values() {
        let e = Options::resolve(&specs(), "g", &["nope=1"]).unwrap_err();
        assert!(
            e.contains("unknown option 'nope'") && e.contains("flag, n, mode, pair"),
            "{e}"
        );
        let e = Options::resolve(&specs(), "g", &["n=10"]).unwrap_err();
        assert!(e.contains("bad value '10'") && e.contains("7..9"), "{e}");
        let e = Options::resolve(&specs(), "g", &["mode=c"]).unwrap_err();
        assert!(e.contains("a|b"), "{e}");
        let e = Options::resolve(&specs(), "g", &["mode"]).unwrap_err();
        assert!(e.contains("name=value"), "{e}");
    }
}
