//! The deal table of Skwitz (skwitz.md Sec. 1.1): how many table cards, cards per draw and
//! draws each number of players gets, and the `deal_table` option that overrides it.

/// The deal table of skwitz.md Sec. 1.1: (table cards T, cards per draw h, draws k) for
/// n = 2..=8 players; T + n·h·k = 52.
pub const DEAL_TABLE: [(usize, usize, usize); 7] = [
    (4, 4, 6),
    (4, 4, 4),
    (4, 4, 3),
    (2, 5, 2),
    (4, 4, 2),
    (3, 7, 1),
    (4, 3, 2),
];

/// Parses and checks a `deal_table` override: `standard`, or entries `n:T,h,k` joined by `/`
/// (e.g. `5:7,3,3/7:10,3,2`). Each entry must satisfy T + n·h·k = 52, T ≥ 1, h ≥ 2, k ≥ 1.
/// Returns the normalized text (entries sorted by n).
pub fn check_deal_table(v: &str) -> Result<String, String> {
    parse_deal_table(v).map(|m| {
        if m.is_empty() {
            "standard".to_string()
        } else {
            m.iter()
                .map(|(n, (t, h, k))| format!("{n}:{t},{h},{k}"))
                .collect::<Vec<_>>()
                .join("/")
        }
    })
}

/// The overrides of a (checked) `deal_table` value, by player count.
pub fn parse_deal_table(v: &str) -> Result<std::collections::BTreeMap<usize, (usize, usize, usize)>, String> {
    let mut m = std::collections::BTreeMap::new();
    if v == "standard" {
        return Ok(m);
    }
    for entry in v.split('/') {
        let bad = || format!("entry '{entry}' is not n:T,h,k (e.g. 5:7,3,3)");
        let (n, rest) = entry.split_once(':').ok_or_else(bad)?;
        let n: usize = n.parse().map_err(|_| bad())?;
        let nums: Vec<usize> = rest
            .split(',')
            .map(|x| x.parse::<usize>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        let [t, h, k] = nums[..] else { return Err(bad()) };
        if !(2..=8).contains(&n) {
            return Err(format!("entry '{entry}': skwitz is played by 2-8 players, not {n}"));
        }
        if t < 1 || h < 2 || k < 1 {
            return Err(format!(
                "entry '{entry}': need T >= 1 table cards, h >= 2 cards per draw, k >= 1 draws"
            ));
        }
        if t + n * h * k != 52 {
            return Err(format!(
                "entry '{entry}': T + n*h*k = {t} + {n}*{h}*{k} = {}, not 52",
                t + n * h * k
            ));
        }
        if m.insert(n, (t, h, k)).is_some() {
            return Err(format!("{n} players are given twice"));
        }
    }
    Ok(m)
}
