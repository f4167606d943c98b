//! `croupier show --html`: one self-contained page that replays a recorded game step by step.
//!
//! The steps are made here, in Rust, by replaying the record through the rules engine: a step
//! is the start of the game (the deal) or one recorded action, with the events it caused (each
//! with its audience) and, after it, every seat's view ([`SeatView::to_json`]), folded from the
//! events routed to that seat only, exactly as a bot's view is. A page for one seat (`--seat`)
//! holds that seat's events and view only: nothing the seat did not see is ever written into
//! it (but how many cards each seat holds, which anyone at the table sees). Every word the page
//! shows is made here, by the human seat's words; the page itself (src/cli/show.html: CSS and
//! JS, no network) lays the seats out around the table and draws the views.

use super::games::rules_text;
use crate::bots::human::{seat_name, Names, RulesMoves};
use crate::cards::Card;
use crate::game::{Audience, GameInfo, GameSpec, Seat, SeatView};
use crate::options::Options;
use crate::record::{options_of, GameRecord};
use crate::replay::{replay_watched, ReplayStep};
use serde_json::{json, Map, Value};

/// The page: the template with the game's data in place of its marker.
const TEMPLATE: &str = include_str!("show.html");
const MARKER: &str = "/*CROUPIER_DATA*/null";

/// One step of the replay.
struct Step {
    /// The seat that acted (None: the start of the game, or the end).
    actor: Option<Seat>,
    /// Events of the step as (audience bit set, protocol line).
    events: Vec<(u32, String)>,
    /// The seat to move after the step, and the kind of decision.
    turn: Option<(Seat, &'static str)>,
}

/// Replays `rec` into steps (any mismatch with the rules is the replay's error). The last step
/// carries `gameover` with the record's scores, as every seat is told.
fn steps(rec: &GameRecord, spec: &GameSpec) -> Result<(Vec<Step>, Options), String> {
    let options = options_of(rec, spec)?;
    let mut out = Vec::new();
    let mut end = Vec::new();
    replay_watched(rec, spec, None, &mut |step, game, events| {
        let events = events.iter().map(|e| (e.to.0, e.line())).collect();
        let turn = game.to_move().map(|s| (s, game.decision()));
        match step {
            ReplayStep::Start => out.push(Step {
                actor: None,
                events,
                turn,
            }),
            ReplayStep::Action(i) => out.push(Step {
                actor: Some(rec.actions[i].seat),
                events,
                turn,
            }),
            ReplayStep::End => end = events,
        }
    })?;
    let gameover = crate::protocol::notification("gameover", &crate::protocol::gameover_args(&rec.result.scores));
    end.push((Audience::all(rec.players).0, gameover));
    out.push(Step {
        actor: None,
        events: end,
        turn: None,
    });
    Ok((out, options))
}

/// The top-level keys of `now` that differ from `before` (all of them when there is none).
fn delta(before: Option<&Value>, now: &Value) -> Value {
    let (Some(Value::Object(b)), Value::Object(n)) = (before, now) else {
        return now.clone();
    };
    let mut d = Map::new();
    for (k, v) in n {
        if b.get(k) != Some(v) {
            d.insert(k.clone(), v.clone());
        }
    }
    for k in b.keys() {
        if !n.contains_key(k) {
            d.insert(k.clone(), Value::Null);
        }
    }
    Value::Object(d)
}

/// The view for the table of a step: the first shown seat's, with what it lacks (null) taken
/// from the other shown seats' views.
fn merged(views: &[Value]) -> Value {
    let mut t = views.first().cloned().unwrap_or(Value::Null);
    if let Value::Object(m) = &mut t {
        for v in &views[1..] {
            if let Value::Object(o) = v {
                for (k, x) in o {
                    if m.get(k).is_none_or(Value::is_null) {
                        m.insert(k.clone(), x.clone());
                    }
                }
            }
        }
    }
    t
}

/// The number of cards in a view's hand.
fn hand_len(view: &Value) -> usize {
    view.get("hand").and_then(Value::as_array).map_or(0, Vec::len)
}

/// The page's data: the game, the seats, and per step the events (each with its words) and
/// views (as changes of the previous step's view) of every seat, or of `only` alone. Every
/// text for people is made here, by the words of the human seat ([`Names`]: cards as
/// [`Card::pretty`] writes them, Rikken's contracts as `contract_words`): the page draws it.
/// Per step, besides: the table in words (when it changed), how many cards each seat holds
/// (public at any table, and all a seat's page says of another seat's hand) and, in
/// Schwimmen, what each shown hand is worth.
pub fn page_data(rec: &GameRecord, spec: &GameSpec, only: Option<Seat>) -> Result<Value, String> {
    let (steps, options) = steps(rec, spec)?;
    let n = rec.players;
    let mut folder = Folder::new(rec, spec, &options, only);
    let mut labels = Map::new();
    let mut decision_before: Option<&'static str> = None;
    let mut out_steps = Vec::with_capacity(steps.len());
    for (k, st) in steps.iter().enumerate() {
        // The label of the action of this step, as the human seat's menu shows it.
        if let (Some(_), Some(i), Some(d)) = (st.actor, k.checked_sub(1), decision_before) {
            if let Some(a) = rec.actions.get(i) {
                let token = a.action.to_string();
                if !labels.contains_key(&token) {
                    labels.insert(token.clone(), json!(folder.names.action(d, &token)));
                }
            }
        }
        decision_before = st.turn.map(|(_, d)| d);
        out_steps.push(folder.step(st));
    }
    let seats: Vec<Value> = rec
        .seats
        .iter()
        .map(|s| json!({"name": s.name, "version": s.version, "spec": s.spec}))
        .collect();
    let seat_names: Vec<String> = (0..n).map(|s| seat_name(n, s)).collect();
    // Faults name what a bot answered: a seat's page keeps only its own.
    let faults: Vec<Value> = rec
        .faults
        .iter()
        .filter(|f| only.is_none_or(|s| s == f.seat))
        .map(|f| json!({"seat": f.seat, "action": f.action, "kind": f.kind, "message": f.message}))
        .collect();
    Ok(json!({
        "format": "croupier-show",
        "game": rec.game,
        "title": spec.title,
        "players": n,
        "seat": only,
        "seed": rec.seed,
        "rules": rules_text(&rec.options, spec),
        "seats": seats,
        "names": seat_names,
        "cards": cards(),
        "labels": labels,
        "scores": scores(rec),
        "faults": faults,
        "forfeit": rec.forfeit.as_ref().map(|f| json!({"seat": f.seat, "fault": f.fault})),
        "steps": out_steps,
    }))
}

/// The steps of a page made one after the other: every seat's view folded from the events
/// routed to it (a seat's page needs the others' card counts; only the shown seats' views are
/// written), the words of the events, and what the previous step showed (a step holds only
/// what changed).
struct Folder<'a> {
    rec: &'a GameRecord,
    only: Option<Seat>,
    /// The seats whose views the page shows: every seat, or `only`.
    shown: Vec<Seat>,
    views: Vec<Box<dyn SeatView>>,
    names: Names,
    marks: RulesMoves,
    /// The shown seats' views, the table, the card counts and the hands' values, as the
    /// previous step left them.
    last: Vec<Option<Value>>,
    last_table: Option<Value>,
    last_counts: Option<Value>,
    last_values: Option<Value>,
}

impl<'a> Folder<'a> {
    fn new(rec: &'a GameRecord, spec: &GameSpec, options: &Options, only: Option<Seat>) -> Folder<'a> {
        let n = rec.players;
        let shown: Vec<Seat> = match only {
            Some(s) => vec![s],
            None => (0..n).collect(),
        };
        let views: Vec<Box<dyn SeatView>> = (0..n)
            .map(|s| {
                (spec.new_view)(&GameInfo {
                    game: rec.game.clone(),
                    options: options.clone(),
                    players: n,
                    seat: s,
                })
            })
            .collect();
        Folder {
            rec,
            only,
            last: vec![None; shown.len()],
            shown,
            views,
            names: Names::onlooker(&rec.game, n),
            marks: RulesMoves::default(),
            last_table: None,
            last_counts: None,
            last_values: None,
        }
    }

    /// The step's data: its actor, whose turn it is then, its events and the shown views (as
    /// changes), and the table, card counts and hand values when they changed.
    fn step(&mut self, st: &Step) -> Value {
        let events = self.events(st);
        let jsons: Vec<Value> = self.views.iter().map(|v| v.to_json()).collect();
        let mut deltas = Vec::with_capacity(self.shown.len());
        for (&s, prev) in self.shown.iter().zip(self.last.iter_mut()) {
            deltas.push(delta(prev.as_ref(), &jsons[s]));
            *prev = Some(jsons[s].clone());
        }
        let mut step = json!({
            "actor": st.actor,
            "turn": st.turn.map(|(s, _)| s),
            "decision": st.turn.map(|(_, d)| d),
            "events": events,
            "views": deltas,
        });
        let shown_views: Vec<Value> = self.shown.iter().map(|&s| jsons[s].clone()).collect();
        let table = json!(self.names.board(&merged(&shown_views)));
        let counts = json!(jsons.iter().map(hand_len).collect::<Vec<_>>());
        let values = self.hand_values(&jsons);
        for (key, now, before) in [
            ("table", table, &mut self.last_table),
            ("counts", counts, &mut self.last_counts),
            ("values", values, &mut self.last_values),
        ] {
            if before.as_ref() != Some(&now) {
                step[key] = now.clone();
                *before = Some(now);
            }
        }
        step
    }

    /// The step's events folded into the views of the seats they are routed to; those the
    /// page shows (all, or those `only` saw), each with its audience and words.
    fn events(&mut self, st: &Step) -> Vec<Value> {
        let (rec, n) = (self.rec, self.rec.players);
        let mut events = Vec::new();
        for (mask, line) in &st.events {
            let to = Audience(*mask);
            let mut parts = line.split(' ');
            let kind = parts.next().unwrap_or_default();
            let args = crate::game::text_args(parts);
            for (s, v) in self.views.iter_mut().enumerate() {
                if to.contains(s) {
                    v.observe(kind, &args);
                }
            }
            let mut texts = crate::game::texts(&args);
            self.marks.mark(&rec.game, kind, &mut texts);
            if let Some(s) = self.only {
                if !to.contains(s) {
                    continue;
                }
            }
            let to: Vec<Seat> = to.members(n).collect();
            let text = self.names.event_to(kind, &texts, &to);
            events.push(json!([to, line, text]));
        }
        events
    }

    /// What each shown hand is worth, in words (Schwimmen's; null elsewhere and for the
    /// seats not shown).
    fn hand_values(&self, jsons: &[Value]) -> Value {
        json!((0..self.rec.players)
            .map(|s| {
                let hand: Vec<Card> = self
                    .shown
                    .contains(&s)
                    .then(|| jsons[s].get("hand").and_then(Value::as_array).cloned())
                    .flatten()
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|c| c.as_str().and_then(Card::from_token))
                    .collect();
                match self.rec.game.as_str() {
                    "schwimmen" => crate::games::schwimmen::view::hand_value_text(&hand),
                    _ => None,
                }
            })
            .collect::<Vec<_>>())
    }
}

/// The record's scores, whole ones as integers (as in records).
fn scores(rec: &GameRecord) -> Vec<Value> {
    rec.result
        .scores
        .iter()
        .map(|&x| {
            if x.fract() == 0.0 && x.abs() < 1e15 {
                json!(x as i64)
            } else {
                json!(x)
            }
        })
        .collect()
}

/// Every card as people read it: the page writes no card of its own.
fn cards() -> Map<String, Value> {
    crate::cards::full_deck()
        .into_iter()
        .map(|c| (c.token().to_string(), json!(c.pretty())))
        .collect()
}

/// The whole page for a record's game.
pub fn page(rec: &GameRecord, spec: &GameSpec, only: Option<Seat>) -> Result<String, String> {
    let text = script_json(&page_data(rec, spec, only)?);
    let title = match only {
        Some(s) => format!("{} — seed {} — seat {s}", spec.title, rec.seed),
        None => format!("{} — seed {}", spec.title, rec.seed),
    };
    Ok(TEMPLATE
        .replacen(
            "<title>croupier</title>",
            &format!("<title>{}</title>", escape(&title)),
            1,
        )
        .replacen(MARKER, &text, 1))
}

/// Text for HTML, in an element or an attribute.
pub(super) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// JSON to put inside a `<script>` element: no `<` at all (JSON has `<` only inside strings,
/// where `\u003c` means the same), so no `</script` or `<!--` in the data can end or upset the
/// element, and no marker of a template (they begin with `<`) can stand in it.
pub(super) fn script_json(data: &Value) -> String {
    data.to_string().replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_hold_changed_keys_only() {
        let a = json!({"x": 1, "y": [1, 2], "z": null});
        let b = json!({"x": 1, "y": [1, 2, 3], "w": true});
        assert_eq!(delta(None, &a), a);
        assert_eq!(delta(Some(&a), &b), json!({"y": [1, 2, 3], "w": true, "z": null}));
        assert_eq!(delta(Some(&b), &b), json!({}));
    }

    #[test]
    fn the_template_has_its_marker_once() {
        assert_eq!(TEMPLATE.matches(MARKER).count(), 1);
        assert_eq!(TEMPLATE.matches("<title>croupier</title>").count(), 1);
    }
}
