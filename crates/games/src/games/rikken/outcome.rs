//! The outcome of a Rikken game: the scores of Sec. 9 for its contract, and the facts of the
//! record.

use super::bids::Contract;
use super::scoring;
use super::state::{Rikken, SEAT_NAMES};
use crate::cards::{Card, Rank, Suit};
use crate::game::{Outcome, Seat};
use serde_json::{json, Value};

impl Rikken {
    /// The outcome of a game that ended for `reason`: scores, and the facts of the record.
    /// The outcome; without `detail`, the scores alone (no text or JSON is made).
    pub(super) fn make_outcome(&self, reason: &'static str, detail: bool) -> Outcome {
        let bare = |scores| Outcome {
            scores,
            detail: Value::Null,
        };
        let c = self.contract.expect("a contract");
        let o = &self.o;
        let side: Vec<Seat> = match self.partner {
            Some(p) if c.has_called_card() => vec![self.declarers[0], p],
            _ => self.declarers.as_slice().to_vec(),
        };
        let name = |s: Seat| SEAT_NAMES[s];
        let names = |v: &[Seat]| v.iter().map(|&s| name(s)).collect::<Vec<_>>().join("+");
        let (scores, made, summary) = match c {
            Contract::Misere { .. } | Contract::Piek { .. } => {
                let (made, scores) = scoring::misere_scores(o, c, self.declarers.as_slice(), &self.won);
                if !detail {
                    return bare(scores);
                }
                let parts: Vec<String> = self
                    .declarers
                    .iter()
                    .zip(&made)
                    .map(|(&d, &m)| {
                        format!(
                            "{} {} trick(s), {}",
                            name(d),
                            self.won[d],
                            if m { "made" } else { "lost" }
                        )
                    })
                    .collect();
                (scores, json!(made), format!("{}: {}", c.title(), parts.join("; ")))
            }
            Contract::SchoppenMieen => {
                let tricks: Vec<(Seat, Vec<Card>)> = self.tricks.iter().map(|t| (t.winner, t.cards.to_vec())).collect();
                let mie = Card::new(Rank::QUEEN, Suit::Spades);
                let taker = tricks.iter().find(|(_, cs)| cs.contains(&mie)).map(|(w, _)| name(*w));
                let scores = scoring::mieen_scores(o, &tricks);
                if !detail {
                    return bare(scores);
                }
                (
                    scores,
                    json!(null),
                    format!("schoppen mieën: the Mie taken by {}", taker.unwrap_or("nobody")),
                )
            }
            Contract::OpenPiekTotaal => {
                let (winners, scores) = scoring::open_piek_totaal_scores(o, &self.won);
                if !detail {
                    return bare(scores);
                }
                let summary = format!(
                    "open piek totaal: tricks {:?}, won by {}",
                    self.won,
                    if winners.is_empty() {
                        "nobody".into()
                    } else {
                        names(&winners)
                    }
                );
                (scores, json!(winners), summary)
            }
            _ => {
                let t: usize = side.iter().map(|&s| self.won[s]).sum();
                let (made, scores) = scoring::target_scores(o, c, &side, t);
                if !detail {
                    return bare(scores);
                }
                let trump = self
                    .trump
                    .map(|s| format!(", trump {}", s.letter()))
                    .unwrap_or_default();
                let called = self.called.map(|c| format!(", called {c}")).unwrap_or_default();
                let summary = format!(
                    "{} by {}{trump}{called}: {t} tricks, {}",
                    c.title(),
                    names(&side),
                    if made { "made" } else { "failed" }
                );
                (scores, json!(made), summary)
            }
        };
        Outcome {
            scores,
            detail: json!({
                "contract": c.token(),
                "declarers": self.declarers.as_slice(),
                "partner": self.partner,
                "trump": self.trump.map(|s| s.letter().to_string()),
                "called": self.called.map(|c| c.to_string()),
                "tricks": self.won,
                "made": made,
                "end": reason,
                "deals": self.deal_no,
                "summary": summary,
            }),
        }
    }
}
