//! The Rikken seat view: what one seat knows, folded from the notification lines routed to it
//! (protocol.md §6.1), and its JSON form (protocol.md §6.3, without `decision`, `legal` and
//! `time_ms`, which the referee adds).

use crate::cards::{Card, Suit};
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::options::Options;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// What a `move` line is, from its decision word (`move <seat> <token> <decision>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveKind {
    /// A bid or pass of the auction (also an automatic re-pass).
    Bid,
    /// A trump declaration (`move s H trump`).
    Trump,
    /// A called card (`move s AC call`), always followed by `called AC`.
    Call,
    /// A card played to a trick.
    Play,
    /// A decision word this version does not know: kept out of the view.
    Other,
}

impl MoveKind {
    /// The kind of a `move` line's arguments.
    pub fn of(args: &[Arg]) -> MoveKind {
        match args.get(2).map(Arg::text).as_deref() {
            Some("bid") => MoveKind::Bid,
            Some("trump") => MoveKind::Trump,
            Some("call") => MoveKind::Call,
            Some("play") => MoveKind::Play,
            _ => MoveKind::Other,
        }
    }
}

/// A completed trick; `cards` is `None` under `hide_quitted_tricks`.
#[derive(Clone, Debug)]
pub(super) struct DoneTrick {
    leader: Seat,
    pub(super) cards: Option<Vec<Card>>,
    winner: Seat,
}

/// Everything that belongs to the current deal (reset by a `deal` line).
#[derive(Clone, Debug, Default)]
pub(super) struct DealState {
    number: Option<u64>,
    dealer: Option<Seat>,
    pub(super) hand: Vec<Card>,
    auction: Vec<(Seat, String)>,
    pub(super) contract: Option<(String, Vec<Seat>)>,
    pub(super) trump: Option<String>,
    called: Option<String>,
    pub(super) partner: Option<Seat>,
    aces: Vec<String>,
    pub(super) exposed: BTreeMap<Seat, Vec<Card>>,
    pub(super) tricks: Vec<DoneTrick>,
    pub(super) trick: Option<(Seat, Vec<Card>)>,
    pub(super) tricks_won: Vec<u32>,
    pub(super) played: Vec<Card>,
    hints: Vec<String>,
    ended: Option<String>,
}

/// One seat's knowledge of a Rikken game.
#[derive(Clone)]
pub struct RikkenView {
    game: String,
    pub(super) players: usize,
    pub(super) seat: Seat,
    /// The game's options, made JSON only in `to_json` (a process bot that asked for `view`).
    options: Options,
    hide_quitted_tricks: bool,
    pub(super) deal: DealState,
    scores: Option<Vec<Value>>,
}

impl RikkenView {
    pub fn new(info: &GameInfo) -> RikkenView {
        let hide_quitted_tricks = info
            .options
            .iter()
            .any(|(k, v)| k == "hide_quitted_tricks" && v == "true");
        RikkenView {
            game: info.game.clone(),
            players: info.players,
            seat: info.seat,
            options: info.options.clone(),
            hide_quitted_tricks,
            deal: DealState {
                tricks_won: vec![0; info.players],
                ..DealState::default()
            },
            scores: None,
        }
    }

    /// The trump suit of the deal, once declared (`None` before, and for `trump none`).
    pub(super) fn trump_suit(&self) -> Option<Suit> {
        let t = self.deal.trump.as_deref()?;
        let mut chars = t.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Suit::from_letter(c),
            _ => None,
        }
    }

    fn on_move(&mut self, seat: Seat, token: &Arg, kind: MoveKind) {
        if seat == self.seat {
            self.deal.hints.clear();
        }
        match kind {
            MoveKind::Bid => self.deal.auction.push((seat, token.to_string())),
            MoveKind::Play => {
                let Some(card) = token.card() else { return };
                self.play(seat, card);
            }
            MoveKind::Trump | MoveKind::Call | MoveKind::Other => {}
        }
    }

    fn play(&mut self, seat: Seat, card: Card) {
        let d = &mut self.deal;
        if seat == self.seat {
            d.hand.retain(|&c| c != card);
        }
        if let Some(cards) = d.exposed.get_mut(&seat) {
            cards.retain(|&c| c != card);
        }
        match &mut d.trick {
            Some((_, cards)) => cards.push(card),
            None => d.trick = Some((seat, vec![card])),
        }
        d.played.push(card);
    }

    fn end_trick(&mut self, winner: Seat) {
        let hide = self.hide_quitted_tricks;
        let d = &mut self.deal;
        let (leader, cards) = d.trick.take().unwrap_or((winner, Vec::new()));
        d.tricks.push(DoneTrick {
            leader,
            cards: if hide { None } else { Some(cards) },
            winner,
        });
        if let Some(n) = d.tricks_won.get_mut(winner) {
            *n += 1;
        }
        if hide {
            d.played.clear();
        }
    }
}

fn seat_arg(args: &[Arg], i: usize) -> Option<Seat> {
    args.get(i).and_then(|a| a.parse().ok())
}

fn cards_of(args: &[Arg]) -> Vec<Card> {
    args.iter().filter_map(|a| a.parse().ok()).collect()
}

fn card_strings(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

/// A score as a JSON number (integers stay integers).
impl SeatView for RikkenView {
    fn observe(&mut self, kind: &str, args: &[Arg]) {
        let d = &mut self.deal;
        match kind {
            "deal" => {
                *d = DealState {
                    number: args.first().and_then(|a| a.parse().ok()),
                    dealer: seat_arg(args, 1),
                    tricks_won: vec![0; self.players],
                    ..DealState::default()
                };
            }
            "hand" => d.hand = cards_of(args),
            "move" => {
                if let (Some(seat), Some(token)) = (seat_arg(args, 0), args.get(1)) {
                    self.on_move(seat, token, MoveKind::of(args));
                }
            }
            "contract" => {
                let bid = args.first().map(Arg::to_string).unwrap_or_default();
                let declarers = args
                    .get(1)
                    .map(|s| s.text().split(',').filter_map(|x| x.parse().ok()).collect())
                    .unwrap_or_default();
                d.contract = Some((bid, declarers));
            }
            "trump" => d.trump = args.first().map(Arg::to_string),
            "called" => d.called = args.first().map(Arg::to_string),
            "aces" => d.aces = crate::game::texts(args),
            "partner" => d.partner = seat_arg(args, 0),
            "exposed" => {
                if let Some(seat) = seat_arg(args, 0) {
                    let played = d.played.clone();
                    let cards = cards_of(&args[1..])
                        .into_iter()
                        .filter(|c| !played.contains(c))
                        .collect();
                    d.exposed.insert(seat, cards);
                }
            }
            "hint" => d.hints.extend(args.iter().map(Arg::to_string)),
            "trick" => {
                if let Some(winner) = seat_arg(args, 1) {
                    self.end_trick(winner);
                }
            }
            "end" => d.ended = Some(crate::game::texts(args).join(" ")),
            "gameover" => self.scores = Some(args.iter().map(|s| crate::notation::score_value(&s.text())).collect()),
            "game" => {
                // A new game: forget everything of the last one.
                self.deal = DealState {
                    tricks_won: vec![0; self.players],
                    ..DealState::default()
                };
                self.scores = None;
            }
            _ => {}
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_json(&self) -> Value {
        let d = &self.deal;
        let contract = match &d.contract {
            Some((bid, declarers)) => json!({"bid": bid, "declarers": declarers}),
            None => Value::Null,
        };
        let exposed: serde_json::Map<String, Value> = d
            .exposed
            .iter()
            .map(|(s, cards)| (s.to_string(), json!(card_strings(cards))))
            .collect();
        let tricks: Vec<Value> = d
            .tricks
            .iter()
            .map(|t| match &t.cards {
                Some(cards) => json!({"leader": t.leader, "cards": card_strings(cards), "winner": t.winner}),
                None => json!({"leader": t.leader, "winner": t.winner}),
            })
            .collect();
        let trick = match &d.trick {
            Some((leader, cards)) => json!({"leader": leader, "cards": card_strings(cards)}),
            None => Value::Null,
        };
        let auction: Vec<Value> = d.auction.iter().map(|(s, t)| json!([s, t])).collect();
        json!({
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "options": self.options.to_json(),
            "deal": d.number,
            "dealer": d.dealer,
            "hand": card_strings(&d.hand),
            "auction": auction,
            "contract": contract,
            "trump": d.trump,
            "called": d.called,
            "partner": d.partner,
            "aces": d.aces,
            "exposed": exposed,
            "tricks": tricks,
            "trick": trick,
            "tricks_won": d.tricks_won,
            "played": card_strings(&d.played),
            "hints": d.hints,
            "ended": d.ended,
            "scores": self.scores,
        })
    }
}

/// A Rikken bid, contract or special deal as people read it: the one spelling of every text
/// for people (`show`, the human seat, `show --html`, `ask`), where the protocol writes tokens.
/// `rik_beter` is "rik beter", `alone9` "alone 9", `misere` "misère", `open_piek_praatje` "open
/// piek met een praatje", `solo_beter` "solo beter", `schoppen_mieen` "schoppen mieën", a join
/// (`misere_join`) "misère too"; any other word keeps its letters, underscores made spaces.
pub fn contract_words(token: &str) -> String {
    token
        .split('_')
        .map(|w| match w {
            "misere" => "misère".to_string(),
            "mieen" => "mieën".to_string(),
            "praatje" => "met een praatje".to_string(),
            "join" => "too".to_string(),
            _ => match w.strip_prefix("alone") {
                Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => format!("alone {n}"),
                _ => w.to_string(),
            },
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An empty view for one seat (the `new_view` of the game's spec).
pub fn new_view(info: &GameInfo) -> Box<dyn SeatView> {
    Box::new(RikkenView::new(info))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::options::OptionSpec;

    #[test]
    fn contracts_in_words_for_people() {
        for (token, words) in [
            ("rik", "rik"),
            ("rik_beter", "rik beter"),
            ("alone9", "alone 9"),
            ("alone10_beter", "alone 10 beter"),
            ("misere", "misère"),
            ("open_misere", "open misère"),
            ("open_piek_praatje", "open piek met een praatje"),
            ("misere_join", "misère too"),
            ("solo_beter", "solo beter"),
            ("schoppen_mieen", "schoppen mieën"),
            ("open_piek_totaal", "open piek totaal"),
            ("pass", "pass"),
        ] {
            assert_eq!(contract_words(token), words);
        }
    }

    pub(crate) const HANDS: [&str; 4] = [
        "AS KS QS 5S AH 9H 4H KD 7D QC JC 8C 3C",
        "JS TS 2S KH QH 8H 3H AD QD 5D AC 9C 2C",
        "9S 8S 4S JH TH 7H 6H 2H JD 9D 4D KC TC",
        "7S 6S 3S 5H TD 8D 6D 3D 2D 7C 6C 5C 4C",
    ];

    /// A rikken deal as the engine reports it: (audience or None for everybody, line).
    /// Dealer W; N rikt, trump spades, calls ♦A (held by E); four tricks, then the game is cut
    /// short for the test.
    pub(crate) fn rik_deal() -> Vec<(Option<Seat>, String)> {
        let mut v: Vec<(Option<Seat>, String)> = vec![(None, "deal 1 3".into())];
        for (s, h) in HANDS.iter().enumerate() {
            v.push((Some(s), format!("hand {h}")));
        }
        for l in [
            "move 0 rik bid",
            "move 1 pass bid",
            "move 2 pass bid",
            "move 3 pass bid",
            "contract rik 0",
            "move 0 S trump",
            "trump S",
            "move 0 AD call",
            "called AD",
        ] {
            v.push((None, l.into()));
        }
        v.push((Some(1), "partner 1".into()));
        v.push((Some(0), "hint must_lead_called".into())); // not a real duty; only for the test
        for l in [
            "move 0 AS play",
            "move 1 2S play",
            "move 2 4S play",
            "move 3 3S play",
            "trick 1 0",
            "move 0 KS play",
            "move 1 TS play",
            "move 2 8S play",
            "move 3 6S play",
            "trick 2 0",
            "move 0 7D play",
            "move 1 AD play",
        ] {
            v.push((None, l.into()));
        }
        v.push((None, "partner 1".into()));
        for l in [
            "move 2 4D play",
            "move 3 2D play",
            "trick 3 1",
            "move 1 KH play",
            "move 2 2H play",
            "move 3 5H play",
            "move 0 4H play",
            "trick 4 1",
            "move 1 QD play",
        ] {
            v.push((None, l.into()));
        }
        v
    }

    pub(crate) fn options(hide: bool) -> Options {
        let specs = vec![
            OptionSpec::choice("all_pass", &["redeal", "fourth_must_bid"], "redeal", ""),
            OptionSpec::bool("hide_quitted_tricks", false, ""),
        ];
        Options::resolve(&specs, "rikken", &[format!("hide_quitted_tricks={hide}")]).unwrap()
    }

    pub(crate) fn view_for(seat: Seat, hide: bool) -> RikkenView {
        RikkenView::new(&GameInfo {
            game: "rikken".into(),
            options: options(hide),
            players: 4,
            seat,
        })
    }

    pub(crate) fn feed(view: &mut RikkenView, lines: &[(Option<Seat>, String)], upto: usize) {
        for (to, line) in &lines[..upto] {
            if to.is_none_or(|s| s == view.seat) {
                let w: Vec<String> = line.split(' ').map(String::from).collect();
                view.observe(&w[0], &crate::game::text_args(w[1..].iter().map(String::as_str)));
            }
        }
    }

    fn strs(v: &Value) -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    }

    fn position(lines: &[(Option<Seat>, String)], line: &str) -> usize {
        lines.iter().position(|(_, l)| l == line).unwrap()
    }

    #[test]
    fn a_rikken_deal_folds_into_the_json_of_the_protocol() {
        let lines = rik_deal();
        let mut v = view_for(2, false);
        feed(&mut v, &lines, lines.len());
        let j = v.to_json();
        let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "game",
                "players",
                "seat",
                "options",
                "deal",
                "dealer",
                "hand",
                "auction",
                "contract",
                "trump",
                "called",
                "partner",
                "aces",
                "exposed",
                "tricks",
                "trick",
                "tricks_won",
                "played",
                "hints",
                "ended",
                "scores"
            ]
        );
        assert_eq!(j["game"], "rikken");
        assert_eq!(j["seat"], 2);
        assert_eq!(j["options"]["all_pass"], "redeal");
        assert_eq!(j["deal"], 1);
        assert_eq!(j["dealer"], 3);
        assert_eq!(
            strs(&j["hand"]),
            "9S JH TH 7H 6H JD 9D KC TC".split(' ').collect::<Vec<_>>()
        );
        assert_eq!(j["auction"], json!([[0, "rik"], [1, "pass"], [2, "pass"], [3, "pass"]]));
        assert_eq!(j["contract"], json!({"bid": "rik", "declarers": [0]}));
        assert_eq!(j["trump"], "S");
        assert_eq!(j["called"], "AD");
        assert_eq!(j["partner"], 1);
        assert_eq!(j["tricks"].as_array().unwrap().len(), 4);
        assert_eq!(
            j["tricks"][2],
            json!({"leader": 0, "cards": ["7D", "AD", "4D", "2D"], "winner": 1})
        );
        assert_eq!(j["trick"], json!({"leader": 1, "cards": ["QD"]}));
        assert_eq!(j["tricks_won"], json!([2, 2, 0, 0]));
        assert_eq!(j["played"].as_array().unwrap().len(), 17);
        assert_eq!(j["played"][16], "QD");
        assert_eq!(j["exposed"], json!({}));
        assert_eq!(j["ended"], Value::Null);
        assert_eq!(j["scores"], Value::Null);

        // The call is not a play, the trump declaration is not a bid.
        let mut v = view_for(0, false);
        feed(&mut v, &lines, position(&lines, "called AD") + 1);
        let j = v.to_json();
        assert_eq!(j["played"], json!([]));
        assert_eq!(j["trick"], Value::Null);
        assert_eq!(j["hand"].as_array().unwrap().len(), 13);
        assert_eq!(j["auction"].as_array().unwrap().len(), 4);
    }

    #[test]
    fn the_partner_is_hidden_until_the_partner_line() {
        let lines = rik_deal();
        let upto = position(&lines, "move 1 AD play");
        for seat in 0..4 {
            let mut v = view_for(seat, false);
            feed(&mut v, &lines, upto);
            let expect = if seat == 1 { json!(1) } else { Value::Null };
            assert_eq!(v.to_json()["partner"], expect, "seat {seat}");
            feed(&mut v, &lines, lines.len());
            assert_eq!(v.to_json()["partner"], 1);
        }
    }

    #[test]
    fn the_hand_shrinks_and_hints_clear_when_the_seat_plays() {
        let lines = rik_deal();
        let mut v = view_for(0, false);
        feed(&mut v, &lines, position(&lines, "move 0 AS play"));
        assert_eq!(v.to_json()["hints"], json!(["must_lead_called"]));
        feed(&mut v, &lines, position(&lines, "move 0 AS play") + 1);
        let j = v.to_json();
        assert_eq!(j["hints"], json!([]));
        assert_eq!(j["hand"].as_array().unwrap().len(), 12);
        assert!(!strs(&j["hand"]).contains(&"AS".to_string()));
        assert_eq!(j["trick"], json!({"leader": 0, "cards": ["AS"]}));
    }

    #[test]
    fn hidden_quitted_tricks_keep_only_leader_and_winner() {
        let lines = rik_deal();
        let mut v = view_for(3, true);
        feed(&mut v, &lines, lines.len());
        let j = v.to_json();
        assert_eq!(j["tricks"][0], json!({"leader": 0, "winner": 0}));
        assert_eq!(j["tricks"][3], json!({"leader": 1, "winner": 1}));
        assert_eq!(j["played"], json!(["QD"]));
        assert_eq!(j["tricks_won"], json!([2, 2, 0, 0]));
        assert_eq!(j["hand"].as_array().unwrap().len(), 9);
    }

    fn observe_all(v: &mut RikkenView, lines: &[&str]) {
        for l in lines {
            let w: Vec<String> = l.split(' ').map(String::from).collect();
            v.observe(&w[0], &crate::game::text_args(w[1..].iter().map(String::as_str)));
        }
    }

    #[test]
    fn exposed_cards_leave_as_they_are_played_and_the_end_and_scores_show() {
        let mut v = view_for(0, false);
        observe_all(
            &mut v,
            &[
                "deal 1 2",
                &format!("hand {}", HANDS[0]),
                "move 3 open_misere bid",
                "move 0 pass bid",
                "move 1 pass bid",
                "move 2 pass bid",
                "contract open_misere 3",
                "trump none",
                &format!("exposed 3 {}", HANDS[3]),
                "move 3 2D play",
                "move 0 7D play",
                "move 1 5D play",
                "move 2 4D play",
                "trick 1 0",
                "move 0 3C play",
                "move 1 2C play",
                "move 2 TC play",
                "move 3 7C play",
                "trick 2 3",
                "end misere_lost",
                "gameover -6 -6 -6 18",
            ],
        );
        let j = v.to_json();
        assert_eq!(j["trump"], "none");
        assert_eq!(j["contract"], json!({"bid": "open_misere", "declarers": [3]}));
        let w = strs(&j["exposed"]["3"]);
        assert_eq!(w.len(), 11);
        assert!(!w.contains(&"2D".to_string()) && !w.contains(&"7C".to_string()));
        assert_eq!(
            j["tricks"][1],
            json!({"leader": 0, "cards": ["3C", "2C", "TC", "7C"], "winner": 3})
        );
        assert_eq!(j["ended"], "misere_lost");
        assert_eq!(j["scores"], json!([-6, -6, -6, 18]));
    }

    #[test]
    fn malheur_and_beter_declarations_are_not_plays() {
        let mut v = view_for(2, false);
        observe_all(
            &mut v,
            &[
                "deal 1 3",
                "move 0 malheur bid",
                "move 1 pass bid",
                "move 2 pass bid",
                "move 3 pass bid",
                "contract malheur 0",
                "aces AS AH AD AC",
                "move 0 KH call",
                "called KH",
                "partner 1",
                "move 1 C trump",
                "trump C",
                "move 0 AS play",
            ],
        );
        let j = v.to_json();
        assert_eq!(j["aces"], json!(["AS", "AH", "AD", "AC"]));
        assert_eq!(j["called"], "KH");
        assert_eq!(j["partner"], 1);
        assert_eq!(j["trump"], "C");
        assert_eq!(j["played"], json!(["AS"]));

        let mut v = view_for(2, false);
        observe_all(
            &mut v,
            &[
                "deal 1 3",
                "move 0 rik bid",
                "move 1 rik_beter bid",
                "move 2 pass bid",
                "move 3 pass bid",
                "move 0 pass bid",
                "contract rik_beter 1",
                "trump H",
                "move 1 AS call",
                "called AS",
                "move 0 KC play",
            ],
        );
        let j = v.to_json();
        assert_eq!(j["auction"].as_array().unwrap().len(), 5);
        assert_eq!(j["called"], "AS");
        assert_eq!(j["trick"], json!({"leader": 0, "cards": ["KC"]}));
    }

    #[test]
    fn the_trump_suit_is_typed_once_declared_and_none_without_trump() {
        let lines = rik_deal();
        let mut v = view_for(2, false);
        feed(&mut v, &lines, position(&lines, "trump S"));
        assert_eq!(v.trump_suit(), None);
        feed(&mut v, &lines, position(&lines, "trump S") + 1);
        assert_eq!(v.trump_suit(), Some(Suit::Spades));
        assert_eq!(v.to_json()["trump"], "S");
        observe_all(&mut v, &["deal 2 0", "contract misere 1", "trump none"]);
        assert_eq!(v.trump_suit(), None);
        assert_eq!(v.to_json()["trump"], "none");
    }

    #[test]
    fn an_all_pass_redeal_resets_the_deal() {
        let mut v = view_for(1, false);
        observe_all(
            &mut v,
            &[
                "deal 1 3",
                &format!("hand {}", HANDS[1]),
                "move 0 pass bid",
                "move 1 pass bid",
                "move 2 pass bid",
                "move 3 pass bid",
                "allpass",
                "deal 2 3",
                &format!("hand {}", HANDS[2]),
                "move 0 misere bid",
            ],
        );
        let j = v.to_json();
        assert_eq!(j["deal"], 2);
        assert_eq!(j["auction"], json!([[0, "misere"]]));
        assert_eq!(strs(&j["hand"])[0], "9S");
    }
}
