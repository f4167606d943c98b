//! Deal files: the deals of one or more games given as a stream of JSON values.

use super::deal::DealSpec;
use crate::cards::Card;
use crate::seat::Seat;
use std::collections::BTreeMap;

/// One game of a deal file: the line its JSON value starts on, and its deals.
#[derive(Clone, Debug)]
pub struct DealGame {
    pub line: usize,
    pub deals: Vec<DealSpec>,
}

/// Parses a deal file: a stream of JSON values, one per game. Each is a deal object
/// `{"dealer": …, "hands": …, "piles": {…}}` or `{"deals": [deal, …]}` for a game of several
/// deals. Seats are numbers, or `N E S W` in a 4-player game; hands are an array (index = seat)
/// or an object keyed by seat; a missing or null hand is dealt at random. Errors start with
/// `file:line: game G`.
pub fn parse_deal_file(text: &str, players: usize, file: &str) -> Result<Vec<DealGame>, String> {
    let mut games = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
    let mut end = 0;
    while let Some(v) = stream.next() {
        let g = games.len() + 1;
        let v = v.map_err(|e| {
            let msg = e.to_string();
            let msg = msg.rsplit_once(" at line ").map(|(m, _)| m.to_string()).unwrap_or(msg);
            format!(
                "{file}:{}: game {g}: not valid JSON: {msg} at column {}",
                e.line(),
                e.column()
            )
        })?;
        // The value starts at the first non-blank character after the previous one.
        let start = end + text[end..].len() - text[end..].trim_start().len();
        let line = text[..start].matches('\n').count() + 1;
        end = stream.byte_offset();
        let at = format!("{file}:{line}: game {g}");
        let deals = match v.get("deals") {
            Some(serde_json::Value::Array(a)) => a.clone(),
            Some(_) => return Err(format!("{at}: 'deals' must be an array of deals")),
            None => vec![v],
        };
        let mut specs = Vec::new();
        for (j, d) in deals.iter().enumerate() {
            specs.push(parse_deal_spec(d, players).map_err(|e| format!("{at}, deal {}: {e}", j + 1))?);
        }
        games.push(DealGame { line, deals: specs });
    }
    if games.is_empty() {
        return Err(format!("{file}: holds no deal"));
    }
    Ok(games)
}

/// Reads a seat as a number or, with 4 players, a compass letter.
pub fn parse_seat(v: &serde_json::Value, players: usize) -> Result<Seat, String> {
    let s = match v {
        serde_json::Value::Number(n) => n.as_u64().map(|n| n as usize),
        serde_json::Value::String(s) => match (s.as_str(), players) {
            ("N", 4) => Some(0),
            ("E", 4) | ("O", 4) => Some(1),
            ("S", 4) | ("Z", 4) => Some(2),
            ("W", 4) => Some(3),
            (s, _) => s.parse::<usize>().ok(),
        },
        _ => None,
    };
    match s {
        Some(s) if s < players => Ok(s),
        _ => Err(format!(
            "{v} is not a seat of a {players}-player game (0..{}{})",
            players - 1,
            if players == 4 { " or N E S W" } else { "" }
        )),
    }
}

fn parse_card_list(v: &serde_json::Value, what: &str) -> Result<Vec<Card>, String> {
    let arr = v
        .as_array()
        .ok_or_else(|| format!("{what}: expected an array of cards"))?;
    arr.iter()
        .map(|c| {
            c.as_str()
                .ok_or_else(|| format!("{what}: {c} is not a card string"))
                .and_then(|s| s.parse::<Card>().map_err(|e| format!("{what}: {e}")))
        })
        .collect()
}

fn parse_deal_spec(v: &serde_json::Value, players: usize) -> Result<DealSpec, String> {
    let obj = v.as_object().ok_or("a deal must be a JSON object")?;
    let dealer = match obj.get("dealer") {
        None | Some(serde_json::Value::Null) => None,
        Some(d) => Some(parse_seat(d, players).map_err(|e| format!("dealer: {e}"))?),
    };
    let mut hands: Vec<Option<Vec<Card>>> = vec![None; players];
    match obj.get("hands") {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Array(a)) => {
            if a.len() > players {
                return Err(format!("{} hands for {players} players", a.len()));
            }
            for (s, h) in a.iter().enumerate() {
                if !h.is_null() {
                    hands[s] = Some(parse_card_list(h, &format!("hands[{s}]"))?);
                }
            }
        }
        Some(serde_json::Value::Object(m)) => {
            for (k, h) in m {
                let s =
                    parse_seat(&serde_json::Value::String(k.clone()), players).map_err(|e| format!("hands: {e}"))?;
                if !h.is_null() {
                    hands[s] = Some(parse_card_list(h, &format!("hands.{k}"))?);
                }
            }
        }
        Some(_) => return Err("'hands' must be an array or an object keyed by seat".into()),
    }
    let mut piles = BTreeMap::new();
    if let Some(p) = obj.get("piles") {
        let m = p.as_object().ok_or("'piles' must be an object of card arrays")?;
        for (k, cards) in m {
            piles.insert(k.clone(), parse_card_list(cards, &format!("piles.{k}"))?);
        }
    }
    Ok(DealSpec { dealer, hands, piles })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_file_accepts_compass_seats_and_several_games() {
        let text = r#"{"dealer":"N","hands":{"N":["AS"],"W":null},"title":"ignored"}
{"deals":[{"dealer":1},{"dealer":2}]}"#;
        let games = parse_deal_file(text, 4, "d.json").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].line, games[1].line), (1, 2));
        assert_eq!(games[0].deals[0].dealer, Some(0));
        assert_eq!(games[0].deals[0].hands[0].as_ref().unwrap().len(), 1);
        assert_eq!(games[1].deals.len(), 2);
        let e = parse_deal_file(r#"{"hands":{"N":["XX"]}}"#, 4, "d.json").unwrap_err();
        assert!(
            e.starts_with("d.json:1: game 1, deal 1: hands.N") && e.contains("'XX'"),
            "{e}"
        );
        let e = parse_deal_file("{}\n\n  {\"dealer\":\"Q\"}", 4, "d.json").unwrap_err();
        assert!(e.starts_with("d.json:3: game 2, deal 1: dealer"), "{e}");
        let e = parse_deal_file("{}\n{\"hands\": [", 4, "d.json").unwrap_err();
        assert!(e.starts_with("d.json:2: game 2: not valid JSON"), "{e}");
    }
}
