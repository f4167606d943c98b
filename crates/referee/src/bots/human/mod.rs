//! `human`: a person plays a seat at the terminal (`croupier play GAME --seat human …`).
//!
//! An in-process [`Bot`] like the others: it folds the notification lines its seat receives
//! into the game's [`SeatView`] and keeps them, put into words, until the person's next turn.
//! At a decision it shows what happened since the last one, what lies on the table (read from
//! the view's JSON, so one renderer serves every game), the hand with suit symbols and the legal
//! actions numbered 1..n, and reads the answer: a number or the action token itself. Bad input
//! is asked again; end of input (Ctrl-D) or Ctrl-C at the prompt stops the run
//! ([`Bot::stopped`]): the referee then ends the game without recording it.
//!
//! It talks to the controlling terminal (`/dev/tty`), so that standard output can carry
//! records (`--record -`); without one it reads standard input and writes standard error.
//! The wording of every event line of every game is the table [`WORDS`]; `show --html` words
//! its events with the same table ([`Names`] for an onlooker, with [`ONLOOKER`] for the lines
//! that speak to one seat), and cards, suits and Rikken's contracts are written by the one
//! function of each ([`Card::pretty`], [`Suit::pretty`], [`contract_words`]).

use super::bot::Bot;
use crate::cards::{Card, Suit};
use crate::game::{Arg, GameInfo, Seat, SeatView};
use crate::games::rikken::view::contract_words;
use serde_json::Value;
use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Mutex;

/// How an event line is put into words, per game (`*`: every game). A key is the line's kind
/// and then patterns for its arguments in order (`_` matches anything); the first entry whose
/// key matches wins, the game's own entries before the common ones, and an empty wording hides
/// the line (another line says the same). Placeholders: `{i}` argument i as it is, `{i:seat}` a
/// seat's name, `{i:seats}` a comma-separated list of seats, `{i:card}`, `{i:cards}` (the cards
/// from argument i on), `{i:suit}`, `{i:act}` an action token as the menu shows it (argument i+1
/// is its decision), `{i:swap}` a Schwimmen swap, `{i:lastcard}` the card a token ends with,
/// `{i:word}` (underscores as spaces), `{i:list}` a comma-separated number per seat, `{i:nums}`
/// the numbers from argument i on, one per seat, `{i:rest}` the arguments from i on,
/// `{i:contract}` a Rikken contract ([`contract_words`]), `{to}` the seats the line went to (in
/// [`ONLOOKER`]). A line no entry matches is shown as it is, with its cards in symbols. A
/// `move` whose action the rules took for the seat ends with `auto` ([`RulesMoves`]).
#[rustfmt::skip]
pub const WORDS: &[(&str, &str, &str)] = &[
    // Every game.
    ("*", "hand", "Your cards: {0:cards}"),
    ("*", "trick", "Trick {0} goes to {1:seat}."),
    ("*", "deal", "Deal {0}: {1:seat} deals."),
    ("*", "fault", "Fault ({0}): {1:rest}"),
    ("*", "clock", "Your clock: {0} ms left (+{1} ms per decision)."),
    ("*", "move _ agree consent", "{0:seat} agrees."),
    ("*", "move _ refuse consent", "{0:seat} refuses."),
    ("*", "move _ _ play", "{0:seat} plays {1:act}."),
    ("*", "move _ _ trump", "{0:seat} names trump: {1:suit}."),
    ("*", "move", "{0:seat}: {1:act} ({2})."),
    // Rikken.
    ("rikken", "move _ pass bid auto", "{0:seat} passes again, automatically: a player who has passed may not bid again."),
    ("rikken", "move _ _ call auto", "The rules call {1:card} for {0:seat}: the fourth ace, in malheur with three aces."),
    ("rikken", "move _ pass bid", "{0:seat} passes."),
    ("rikken", "move _ _ bid", "{0:seat} bids {1:act}."),
    ("rikken", "move _ _ call", "{0:seat} calls {1:card}."),
    ("rikken", "allpass", "Everybody passed."),
    ("rikken", "contract _ -", "Contract: {0:contract}."),
    ("rikken", "contract", "Contract: {0:contract} by {1:seats}."),
    ("rikken", "trump none", "No trump."),
    ("rikken", "trump", "Trump is {0:suit}."),
    ("rikken", "called", "The called card is {0:card}."),
    ("rikken", "aces", "Malheur: the declarer's aces are {0:cards}."),
    ("rikken", "partner", "{0:seat} holds the called card: the rikker's partner."),
    ("rikken", "exposed", "{0:seat} plays open: {1:cards}."),
    ("rikken", "hint must_play_called", "You must play the called card now."),
    ("rikken", "hint must_lead_called", "You must lead the called card's suit now."),
    ("rikken", "hint protect_called", "You must keep the called card protected."),
    ("rikken", "hint", "Hint: {0:word}."),
    ("rikken", "void", "The rikker holds the whole called suit: the deal is void."),
    ("rikken", "end tricks_done", "All tricks are played."),
    ("rikken", "end", "Play stops: {0:word}."),
    // Zwikken.
    ("zwikken", "pay", "{0:seat} pays {1} into the pot ({2:word})."),
    ("zwikken", "win", "{0:seat} wins the pot: {1} chips."),
    ("zwikken", "split", "{0:seat} gets {1} chips of the divided pot."),
    ("zwikken", "pot", "The pot holds {0} chips."),
    ("zwikken", "out", "{0:seat} has no chips left and is out."),
    ("zwikken", "turn", "{0:card} is turned up: its suit is trump."),
    ("zwikken", "say", "{0:seat} says \u{201c}{1:word}\u{201d}."),
    ("zwikken", "move _ _ bid", ""),
    ("zwikken", "move _ no_seek seek", "{0:seat} does not seek."),
    ("zwikken", "move _ _ seek", ""),
    ("zwikken", "move _ no_exchange exchange", "{0:seat} does not exchange."),
    ("zwikken", "move _ _ exchange", ""),
    ("zwikken", "move _ _ play", "{0:seat} plays {1:lastcard}."),
    ("zwikken", "allpass", "Nobody asked."),
    ("zwikken", "exchange", "{0:seat} takes {1:card} and lays the ten {2:card} face up in its place."),
    ("zwikken", "zwik", "{0:seat} shows a zwik: {1:cards}."),
    ("zwikken", "points", "Card points: {0:nums}."),
    ("zwikken", "end zwik", "{1:seat} wins the deal with a zwik."),
    ("zwikken", "end points", "{1:seat} wins the deal on points."),
    ("zwikken", "end passer", "{1:seat}, a passer, took the most points: every asker loses."),
    ("zwikken", "end tie", "The most points are shared: every asker loses."),
    ("zwikken", "end no_play", "Nobody played: the pot carries over."),
    ("zwikken", "session", "The session is over ({0:word})."),
    // Svängknack.
    ("svangknack", "round", "Round {0}: {1:seat} deals, {2:seat} is forehand."),
    ("svangknack", "ante _ all", "Everyone pays {0} into the pot."),
    ("svangknack", "ante", "{1:seat} pays {0} into the pot."),
    ("svangknack", "pot", "The pot is {0}; a trick is worth {1}."),
    ("svangknack", "move _ swing swing", "{0:seat} swings."),
    ("svangknack", "move _ handover swing", "{0:seat} hands the swing over."),
    ("svangknack", "move _ handover_last swing", "{0:seat} hands the swing over (last man if all fold)."),
    ("svangknack", "move _ redeal swing", "{0:seat} proposes a redeal."),
    ("svangknack", "move _ knock knock", "{0:seat} knocks."),
    ("svangknack", "move _ fold knock", "{0:seat} folds."),
    ("svangknack", "move _ farg play", "{0:seat} calls Färg."),
    ("svangknack", "redeal stock", "Redeal: new hands from the stock."),
    ("svangknack", "redeal shuffle", "Redeal: the cards are shuffled again."),
    ("svangknack", "redeal refused", "The redeal is refused."),
    ("svangknack", "swinger", "{0:seat} swings now."),
    ("svangknack", "turnup", "Turned up: {0:cards}."),
    ("svangknack", "trump", "Trump is {0:suit}."),
    ("svangknack", "forced participation", "Forced participation: everyone plays, nobody knocks."),
    ("svangknack", "forced same_suit", "Both turned cards are of one suit: everyone plays."),
    ("svangknack", "lastman", "Everyone folded: {0:seat} plays against the swinger."),
    ("svangknack", "lone", "Nobody knocked: {0:seat} takes the pot of {1}."),
    ("svangknack", "participants", "Playing: {0:seats}."),
    ("svangknack", "paid", "{0:seat} won {1} trick(s) and takes {2}."),
    ("svangknack", "bet", "{0:seat} took no trick and owes {1} to the next pot."),
    ("svangknack", "chips", "Chips: {0:list}."),
    ("svangknack", "split", "The bets owed ({0}) are split. Chips: {1:list}."),
    ("svangknack", "end", "The session is over."),
    // Kul.
    ("kul", "ante", "Kul game {0}: everyone pays {1}; the pot is {2}."),
    ("kul", "move _ keep redeal", "{0:seat} keeps the cards."),
    ("kul", "move _ redeal redeal", "{0:seat} proposes a redeal."),
    ("kul", "redeal agreed", "The redeal is agreed."),
    ("kul", "redeal refused", "The redeal is refused."),
    ("kul", "mark", "{0:seat} takes the last trick: {1} mark(s)."),
    ("kul", "kul", "{0:seat} has the marks and takes the pot of {1}. Chips: {2:list}."),
    ("kul", "split", "Too many deals: the pot is split, {0} each. Chips: {1:list}."),
    ("kul", "end", "The session is over."),
    // Skwitz.
    ("skwitz", "newgame", "Skwitz game {0}: {1:seat} deals."),
    ("skwitz", "pay", "{0:seat} pays {2} to {1:seat} ({3:word})."),
    ("skwitz", "reshuffle", "The bottom card was a matador: the cards are shuffled again."),
    ("skwitz", "bottom", "The bottom card, which you draw last: {0:card}."),
    ("skwitz", "table -", "The table is empty."),
    ("skwitz", "table", "On the table: {0:cards}."),
    ("skwitz", "draw _ 0", "Draw {0}: these are the last cards."),
    ("skwitz", "draw", "Draw {0}: {1} cards are left in the stock."),
    ("skwitz", "move _ out play", "{0:seat} declares Out!"),
    ("skwitz", "matador", "{0:seat} takes a matador: {1:card}."),
    ("skwitz", "skwitz", "{0:seat} sweeps the table: skwitz! ({1:card} face up)"),
    ("skwitz", "point", "{0:seat} scores a point for {1:word} ({2} in this game)."),
    ("skwitz", "clear none", "The cards left on the table go out of play: {1:cards}."),
    ("skwitz", "clear", "{0:seat} takes the cards left on the table: {1:cards}."),
    ("skwitz", "count", "{0:seat} took {1} cards, {2} of them spades."),
    ("skwitz", "dealend", "Deal {0} is scored."),
    ("skwitz", "out _ declared", "{0:seat} goes Out!"),
    ("skwitz", "out", "{0:seat} is out."),
    ("skwitz", "matsch", "{0:seat} has no point and pays the matsch stake."),
    ("skwitz", "potholder none", "The pot is collected."),
    ("skwitz", "potholder", "{0:seat} holds the pot."),
    ("skwitz", "gameend", "Skwitz game {0} is over: {1:seat} wins."),
    ("skwitz", "breach", "{0:seat} breaks the rules ({1}) and pays a penalty."),
    ("skwitz", "sessionend", "The session is over after {0} games."),
    // Schwimmen.
    ("schwimmen", "deal", "Round {0}: {1:seat} deals."),
    ("schwimmen", "packet", "Your seen packet: {0:cards}."),
    ("schwimmen", "move _ keep_seen choose", "{0:seat} keeps the seen packet."),
    ("schwimmen", "move _ take_unseen choose", "{0:seat} takes the unseen packet."),
    ("schwimmen", "move _ swap_all turn", "{0:seat} swaps all three cards."),
    ("schwimmen", "move _ knock turn", "{0:seat} knocks."),
    ("schwimmen", "move _ pass turn", "{0:seat} passes."),
    ("schwimmen", "move _ _ turn", "{0:seat} swaps {1:swap}."),
    ("schwimmen", "middle", "The middle: {0:cards}."),
    ("schwimmen", "refresh", "A full circuit of passes: the new middle is {0:cards}."),
    ("schwimmen", "end thirtyone", "{1:seat} has 31!"),
    ("schwimmen", "end three_aces", "{1:seat} has three aces!"),
    ("schwimmen", "end showdown", "Showdown."),
    ("schwimmen", "end cap", "Nobody knocked in time: showdown."),
    ("schwimmen", "show", "{0:seat} shows {1:cards}: {4}."),
    ("schwimmen", "reprieve", "Everyone still in would drown: nobody goes out this round."),
    ("schwimmen", "strike", "{0:seat} takes a strike ({1} in all)."),
    ("schwimmen", "swimming", "{0:seat} is swimming."),
    ("schwimmen", "out", "{0:seat} drowns: place {1}."),
    ("schwimmen", "place", "{0:seat} finishes in place {1} and pays {2}."),
    ("schwimmen", "misdeal", "{0:seat} misdealt ({1}): a strike, and the round is dealt again."),
    ("schwimmen", "absent", "{0:seat} is absent and is ranked {1}."),
];

/// The wording of the lines that speak to the seat they went to ("Your cards"), for an
/// onlooker who sees every seat's lines (`show --html`): looked up before [`WORDS`].
#[rustfmt::skip]
pub const ONLOOKER: &[(&str, &str, &str)] = &[
    ("*", "hand", "{to} holds {0:cards}."),
    ("*", "clock", "{to}'s clock: {0} ms left (+{1} ms per decision)."),
    ("rikken", "hint must_play_called", "{to} must play the called card now."),
    ("rikken", "hint must_lead_called", "{to} must lead the called card's suit now."),
    ("rikken", "hint protect_called", "{to} must keep the called card protected."),
    ("rikken", "hint", "Hint to {to}: {0:word}."),
    ("skwitz", "bottom", "The bottom card, which {to} draws last: {0:card}."),
    ("schwimmen", "packet", "{to} sees the packet {0:cards}."),
    ("*", "gameover", "Game over. Scores: {0:nums}."),
];

/// Menu labels of the action tokens that are words (per game, `*`: every game); cards, suits
/// and the patterned tokens (`swap_7H_AS`, `exchange_JH`, `9H:4S,5C`, …) are put into words
/// by [`Names::action`].
#[rustfmt::skip]
const TOKENS: &[(&str, &str, &str)] = &[
    ("zwikken", "ask", "ask (ik vraag)"),
    ("zwikken", "ken_pass", "I have the trump ten, and pass (ik ken hem en ik pas)"),
    ("zwikken", "ken_ask", "I have the trump ten, and ask (ik ken hem en ik vraag)"),
    ("zwikken", "wait_better", "wait for a better one (ik verwacht een betere)"),
    ("zwikken", "seek", "seek (zoeken)"),
    ("zwikken", "no_seek", "do not seek"),
    ("zwikken", "no_exchange", "no exchange"),
    ("svangknack", "handover", "hand the swing over"),
    ("svangknack", "handover_last", "hand over, last man if all fold"),
    ("svangknack", "redeal", "propose a redeal"),
    ("svangknack", "knock", "knock (play)"),
    ("svangknack", "farg", "Färg (play no card this trick)"),
    ("kul", "keep", "keep the cards"),
    ("kul", "redeal", "propose a redeal"),
    ("skwitz", "out", "Out! (end the game)"),
    ("schwimmen", "keep_seen", "keep the seen packet"),
    ("schwimmen", "take_unseen", "take the unseen packet"),
    ("schwimmen", "swap_all", "swap all three cards"),
];

/// What a person typed, as one of the legal actions, or why it is not one: its number (from
/// 1), its token (`AH`, any case) or its label as the menu shows it (`A♥`).
pub fn parse_choice(input: &str, legal: &[String], labels: &[String]) -> Result<usize, String> {
    let t = input.trim();
    let n = legal.len();
    if t.is_empty() {
        return Err(format!("Type a number from 1 to {n}, or an action as listed."));
    }
    if let Ok(k) = t.parse::<i64>() {
        return if k >= 1 && (k as usize) <= n {
            Ok(k as usize - 1)
        } else {
            Err(format!("There is no action {k}: type a number from 1 to {n}."))
        };
    }
    if let Some(i) = legal.iter().position(|a| a == t) {
        return Ok(i);
    }
    let folded: Vec<usize> = (0..n).filter(|&i| legal[i].eq_ignore_ascii_case(t)).collect();
    if let [i] = folded[..] {
        return Ok(i);
    }
    let lower = t.to_lowercase();
    let by_label: Vec<usize> = (0..labels.len().min(n))
        .filter(|&i| labels[i].to_lowercase() == lower)
        .collect();
    if let [i] = by_label[..] {
        return Ok(i);
    }
    Err(format!(
        "'{}' is not one of the actions: type a number from 1 to {n}, or an action token.",
        t.chars().take(40).collect::<String>()
    ))
}

/// How seats, cards and events are written for the person at one seat, or for an onlooker
/// who sees every seat (`show --html`).
pub struct Names {
    game: String,
    players: usize,
    /// The person's seat (`(you)` after its name), or `None`: an onlooker.
    seat: Option<Seat>,
    colour: bool,
}

/// A seat's name for people: North, East, South, West in a 4-player game (as `show --seat`
/// and deal files name them), else `Seat k`.
pub fn seat_name(players: usize, s: Seat) -> String {
    if players == 4 && s < 4 {
        ["North", "East", "South", "West"][s].to_string()
    } else {
        format!("Seat {s}")
    }
}

impl Names {
    /// The words of `game` for an onlooker (`show --html`), without colour.
    pub fn onlooker(game: &str, players: usize) -> Names {
        Names {
            game: game.to_string(),
            players,
            seat: None,
            colour: false,
        }
    }

    /// A seat's name ([`seat_name`]); `(you)` after the person's own.
    pub fn seat(&self, s: usize) -> String {
        let base = seat_name(self.players, s);
        if Some(s) == self.seat {
            format!("{base} (you)")
        } else {
            base
        }
    }

    /// A seat argument (a number; `pot`, `none`, `-` as words).
    fn seat_arg(&self, a: &str) -> String {
        match a.parse::<usize>() {
            Ok(s) if s < self.players => self.seat(s),
            _ => match a {
                "pot" => "the pot".into(),
                "none" | "-" => "nobody".into(),
                _ => a.into(),
            },
        }
    }

    fn seats_arg(&self, a: &str) -> String {
        if a == "-" || a.is_empty() {
            return "nobody".into();
        }
        a.split(',').map(|s| self.seat_arg(s)).collect::<Vec<_>>().join(", ")
    }

    /// `A♥`, `10♠` ([`Card::pretty`]); hearts and diamonds red when colour is on.
    fn card(&self, c: Card) -> String {
        self.red_if(c.suit, c.pretty())
    }

    fn red_if(&self, suit: Suit, text: String) -> String {
        if self.colour && matches!(suit, Suit::Hearts | Suit::Diamonds) {
            format!("\x1b[31m{text}\x1b[0m")
        } else {
            text
        }
    }

    /// A token that may be a card: the card in symbols, else the token.
    fn card_tok(&self, t: &str) -> String {
        Card::from_token(t).map_or_else(|| t.to_string(), |c| self.card(c))
    }

    fn cards(&self, tokens: &[String]) -> String {
        if tokens.is_empty() || tokens == ["-"] {
            return "nothing".into();
        }
        tokens.iter().map(|t| self.card_tok(t)).collect::<Vec<_>>().join(" ")
    }

    fn suit(&self, t: &str) -> String {
        let mut chars = t.chars();
        match (chars.next().and_then(Suit::from_letter), chars.next()) {
            (Some(s), None) => self.red_if(s, s.pretty()),
            _ => words(t),
        }
    }

    /// A hand grouped by suit: `A♠ K♠  9♥ 5♥  Q♦`.
    fn hand(&self, tokens: &[String]) -> String {
        let cards: Vec<Card> = tokens.iter().filter_map(|t| Card::from_token(t)).collect();
        if cards.is_empty() {
            return "(no cards)".into();
        }
        Suit::ALL
            .iter()
            .map(|&s| {
                cards
                    .iter()
                    .filter(|c| c.suit == s)
                    .map(|&c| self.card(c))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|g| !g.is_empty())
            .collect::<Vec<_>>()
            .join("   ")
    }

    /// An action token as the menu shows it.
    pub fn action(&self, decision: &str, token: &str) -> String {
        if self.game == "rikken" && decision == "bid" {
            return contract_words(token);
        }
        if let Some((_, _, label)) = TOKENS
            .iter()
            .find(|(g, t, _)| (*g == self.game || *g == "*") && *t == token)
        {
            return label.to_string();
        }
        if let Some(c) = Card::from_token(token) {
            return if self.game == "skwitz" {
                format!("{} (trail)", self.card(c))
            } else {
                self.card(c)
            };
        }
        if decision == "trump" {
            return self.suit(token);
        }
        if let Some((card, taken)) = token.split_once(':') {
            let taken: Vec<String> = taken.split(',').map(str::to_string).collect();
            return format!("{} taking {}", self.card_tok(card), self.cards(&taken));
        }
        let parts: Vec<&str> = token.split('_').collect();
        match parts[..] {
            ["swap", laid, taken] => return format!("swap {}", self.swap(laid, taken)),
            ["exchange", taken] => return format!("take {} for your ten", self.card_tok(taken)),
            ["exchange", taken, played] => {
                return format!(
                    "take {} for your ten, then play {}",
                    self.card_tok(taken),
                    self.card_tok(played)
                )
            }
            _ => {}
        }
        parts
            .iter()
            .map(|p| match p.find(|c: char| c.is_ascii_digit()) {
                // `alone9` reads "alone 9".
                Some(i) if i > 1 && Card::from_token(p).is_none() => format!("{} {}", &p[..i], &p[i..]),
                _ => self.card_tok(p),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn swap(&self, laid: &str, taken: &str) -> String {
        format!("{} for {}", self.card_tok(laid), self.card_tok(taken))
    }

    /// An event line in words (see [`WORDS`]), or `None` when its wording is empty.
    fn event(&self, kind: &str, args: &[String]) -> Option<String> {
        self.event_to(kind, args, &[])
    }

    /// An event line that went to the seats `to`, in words: for an onlooker the lines that
    /// speak to their seat are worded from [`ONLOOKER`] first.
    pub fn event_to(&self, kind: &str, args: &[String], to: &[Seat]) -> Option<String> {
        let matches = |key: &str| {
            let mut words = key.split(' ');
            words.next() == Some(kind)
                && words
                    .enumerate()
                    .all(|(i, w)| w == "_" || args.get(i).map(String::as_str) == Some(w))
        };
        let onlooker: &[(&str, &str, &str)] = if self.seat.is_none() { ONLOOKER } else { &[] };
        let found = onlooker
            .iter()
            .filter(|(g, _, _)| *g == self.game)
            .chain(onlooker.iter().filter(|(g, _, _)| *g == "*"))
            .chain(WORDS.iter().filter(|(g, _, _)| *g == self.game))
            .chain(WORDS.iter().filter(|(g, _, _)| *g == "*"))
            .find(|(_, key, _)| matches(key));
        let Some((_, _, template)) = found else {
            let mut line = vec![kind.to_string()];
            line.extend(args.iter().map(|a| self.card_tok(a)));
            return Some(line.join(" "));
        };
        if template.is_empty() {
            return None;
        }
        Some(self.fill(template, args, to))
    }

    /// Fills a template's placeholders from `args` (`{to}` from `to`).
    fn fill(&self, template: &str, args: &[String], to: &[Seat]) -> String {
        let mut out = String::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let Some(close) = rest[open..].find('}') else { break };
            let spec = &rest[open + 1..open + close];
            rest = &rest[open + close + 1..];
            if spec == "to" {
                let seats: Vec<String> = to.iter().map(|&s| self.seat(s)).collect();
                out.push_str(&if seats.is_empty() {
                    "nobody".to_string()
                } else {
                    seats.join(", ")
                });
                continue;
            }
            let (index, how) = spec.split_once(':').unwrap_or((spec, ""));
            let i: usize = index.parse().unwrap_or(0);
            let arg = args.get(i).map(String::as_str).unwrap_or("");
            let from = args.get(i..).unwrap_or(&[]);
            out.push_str(&match how {
                "seat" => self.seat_arg(arg),
                "seats" => self.seats_arg(arg),
                "card" => self.card_tok(arg),
                "cards" => {
                    let cards: Vec<String> = from
                        .iter()
                        .take_while(|t| Card::from_token(t).is_some() || *t == "-")
                        .cloned()
                        .collect();
                    self.cards(&cards)
                }
                "suit" => self.suit(arg),
                "act" => self.action(args.get(i + 1).map(String::as_str).unwrap_or(""), arg),
                "swap" => match arg.split('_').collect::<Vec<_>>()[..] {
                    ["swap", laid, taken] => self.swap(laid, taken),
                    _ => words(arg),
                },
                "lastcard" => self.card_tok(arg.rsplit('_').next().unwrap_or(arg)),
                "word" => words(arg),
                "contract" => contract_words(arg),
                "list" => self.per_seat(&arg.split(',').map(str::to_string).collect::<Vec<_>>()),
                "nums" => self.per_seat(from),
                "rest" => from.join(" "),
                _ => arg.to_string(),
            });
        }
        out.push_str(rest);
        out
    }

    /// One value per seat: `Seat 0 3, Seat 1 (you) -1, …`.
    fn per_seat(&self, values: &[String]) -> String {
        values
            .iter()
            .enumerate()
            .map(|(s, v)| format!("{} {v}", self.seat(s)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What lies on the table, from the seat view's JSON: the keys any game has, each read
    /// the one way it is written in every game's view.
    fn table(&self, view: &Value) -> Vec<String> {
        let mut out = Vec::new();
        let get = |k: &str| view.get(k).filter(|v| !v.is_null());
        let strs = view_strings;
        let seat_of = |v: &Value| v.as_u64().map(|s| self.seat(s as usize));
        // Where the game stands.
        let mut at = Vec::new();
        for (key, label) in [("game_no", "game"), ("round", "round"), ("deal", "deal")] {
            if let Some(v) = get(key).and_then(Value::as_u64) {
                at.push(format!("{label} {v}"));
            }
        }
        for (key, label) in [("dealer", "dealer"), ("forehand", "forehand"), ("swinger", "swinger")] {
            if let Some(s) = get(key).and_then(seat_of) {
                at.push(format!("{label} {s}"));
            }
        }
        if !at.is_empty() {
            out.push(capitalise(&at.join(", ")));
        }
        // The contract, trump and called card.
        let mut facts = Vec::new();
        if let Some(c) = get("contract") {
            let bid = c.get("bid").and_then(Value::as_str).unwrap_or("?");
            let by: Vec<String> = c
                .get("declarers")
                .and_then(Value::as_array)
                .map(|d| d.iter().filter_map(seat_of).collect())
                .unwrap_or_default();
            facts.push(if by.is_empty() {
                format!("contract {}", words(bid))
            } else {
                format!("contract {} by {}", words(bid), by.join(", "))
            });
        }
        if let Some(t) = get("trump").and_then(Value::as_str) {
            facts.push(format!(
                "trump {}",
                if t == "none" { "none".into() } else { self.suit(t) }
            ));
        }
        if let Some(c) = get("called").and_then(Value::as_str) {
            facts.push(format!("called card {}", self.card_tok(c)));
        }
        if let Some(p) = get("partner").and_then(seat_of) {
            facts.push(format!("partner {p}"));
        }
        for (key, label) in [("pot", "pot"), ("trick_value", "a trick is worth"), ("stock", "stock")] {
            if let Some(v) = get(key).filter(|v| v.is_number()) {
                facts.push(format!("{label} {v}"));
            }
        }
        if !facts.is_empty() {
            out.push(capitalise(&facts.join(", ")));
        }
        // Cards lying face up.
        for (key, label) in [
            ("turned", "Face up"),
            ("turnup", "Turned up"),
            ("middle", "Middle"),
            ("table", "On the table"),
            ("packet", "Your seen packet"),
        ] {
            if let Some(v) = get(key).filter(|v| v.is_array()) {
                out.push(format!("{label}: {}", self.cards(&strs(v))));
            }
        }
        if let Some(e) = get("exposed").and_then(Value::as_object) {
            for (s, cards) in e {
                let who = self.seat_arg(s);
                out.push(format!("Open hand of {who}: {}", self.hand(&strs(cards))));
            }
        }
        // The trick being played.
        if let Some(t) = get("trick").filter(|t| t.is_object()) {
            let leader = t.get("leader").and_then(Value::as_u64).unwrap_or(0) as usize;
            let seats: Vec<usize> = t.get("seats").and_then(Value::as_array).map_or_else(Vec::new, |a| {
                a.iter().filter_map(|s| s.as_u64().map(|s| s as usize)).collect()
            });
            let plays: Vec<String> = t
                .get("cards")
                .and_then(Value::as_array)
                .map(|cards| {
                    cards
                        .iter()
                        .enumerate()
                        .map(|(i, c)| match c {
                            // [seat, card] pairs (Svängknack).
                            Value::Array(p) => format!(
                                "{} {}",
                                p.first().and_then(seat_of).unwrap_or_default(),
                                self.card_tok(p.get(1).and_then(Value::as_str).unwrap_or("?"))
                            ),
                            _ => {
                                let s = seats.get(i).copied().unwrap_or((leader + i) % self.players.max(1));
                                format!("{} {}", self.seat(s), self.card_tok(c.as_str().unwrap_or("?")))
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            if plays.is_empty() {
                out.push(format!("Trick: {} leads", self.seat(leader)));
            } else {
                out.push(format!("Trick: {}", plays.join(", ")));
            }
        }
        // One number per seat.
        for (key, label) in [
            ("tricks_won", "Tricks"),
            ("marks", "Marks"),
            ("points", "Points"),
            ("strikes", "Strikes"),
            ("hand_sizes", "Cards in hand"),
            ("chips", "Chips"),
        ] {
            if let Some(v) = get(key).and_then(Value::as_array).filter(|a| a.len() == self.players) {
                out.push(format!("{label}: {}", self.per_seat(&strs(&Value::Array(v.clone())))));
            }
        }
        // Who is in.
        for (key, label) in [
            ("askers", "Asked"),
            ("participants", "Playing"),
            ("knocked", "Knocked"),
            ("folded", "Folded"),
        ] {
            if let Some(v) = get(key).and_then(Value::as_array).filter(|a| !a.is_empty()) {
                let who: Vec<String> = v.iter().filter_map(seat_of).collect();
                out.push(format!("{label}: {}", who.join(", ")));
            }
        }
        if let Some(k) = get("knocker").and_then(seat_of) {
            out.push(format!("{k} knocked"));
        }
        out
    }
}

impl Names {
    /// What lies on the table for an onlooker (`show --html`), from a view's JSON: where the
    /// game stands, the contract, the cards face up, the pot, what was said and done in this
    /// deal or round, the deals before. In words, cards as people read them. What the page draws
    /// itself is left out: the seats' hands, marks and numbers per seat, the trick, Rikken's
    /// auction, the seats named by a key (`dealer`, `knocker`, …) or listed (`askers`, …).
    pub fn board(&self, view: &Value) -> Vec<String> {
        let mut out = Vec::new();
        let get = |k: &str| view.get(k).filter(|v| !v.is_null());
        let strs = view_strings;
        let seat_of = |v: &Value| v.as_u64().map(|s| self.seat(s as usize));
        // Where the game stands.
        let mut at = Vec::new();
        for (key, label) in [
            ("game_no", "game"),
            ("round", "round"),
            ("deal", "deal"),
            ("draw", "draw"),
        ] {
            if let Some(v) = get(key).and_then(Value::as_u64) {
                at.push(format!("{label} {v}"));
            }
        }
        if !at.is_empty() {
            out.push(capitalise(&at.join(", ")));
        }
        if get("repeat").and_then(Value::as_bool) == Some(true) {
            out.push("A repeat period: a suit turned before.".into());
        }
        // The contract, trump, called card and partner, as the human seat's table says them.
        let mut facts = Vec::new();
        if let Some(c) = get("contract") {
            let bid = contract_words(c.get("bid").and_then(Value::as_str).unwrap_or("?"));
            let by: Vec<String> = c
                .get("declarers")
                .and_then(Value::as_array)
                .map(|d| d.iter().filter_map(seat_of).collect())
                .unwrap_or_default();
            facts.push(if by.is_empty() {
                format!("contract {bid}")
            } else {
                format!("contract {bid} by {}", by.join(", "))
            });
        }
        if let Some(t) = get("trump").and_then(Value::as_str) {
            facts.push(if t == "none" {
                "no trump".into()
            } else {
                format!("trump {}", self.suit(t))
            });
        }
        if let Some(c) = get("called").and_then(Value::as_str) {
            facts.push(format!("called card {}", self.card_tok(c)));
        }
        if let Some(p) = get("partner").and_then(seat_of) {
            facts.push(format!("partner {p}"));
        }
        if !facts.is_empty() {
            out.push(capitalise(&facts.join(", ")));
        }
        if let Some(a) = get("aces").filter(|a| a.as_array().is_some_and(|a| !a.is_empty())) {
            out.push(format!("The declarer's aces: {}", self.cards(&strs(a))));
        }
        let mut money = Vec::new();
        for (key, label) in [("pot", "pot"), ("stake", "stake"), ("trick_value", "a trick is worth")] {
            if let Some(v) = get(key).filter(|v| v.is_number()) {
                money.push(format!("{label} {v}"));
            }
        }
        if let Some(v) = get("stock").filter(|v| v.is_number()) {
            money.push(format!("{v} card(s) in the stock"));
        }
        if let Some(v) = get("seeks").and_then(Value::as_u64).filter(|&v| v > 0) {
            money.push(format!("{v} seek(s)"));
        }
        if !money.is_empty() {
            out.push(capitalise(&money.join(", ")));
        }
        // Cards face up.
        for (key, label) in [
            ("turned", "Face up"),
            ("turnup", "Turned up"),
            ("middle", "The middle"),
            ("table", "On the table"),
        ] {
            if let Some(v) = get(key).filter(|v| v.as_array().is_some_and(|a| !a.is_empty())) {
                let tokens = strs(v);
                let cards: Vec<Card> = tokens.iter().filter_map(|t| Card::from_token(t)).collect();
                let worth = hand_worth(&self.game, &cards).map_or_else(String::new, |w| format!(" ({w})"));
                out.push(format!("{label}: {}{worth}", self.cards(&tokens)));
            }
        }
        if let Some(e) = get("exchanges").and_then(Value::as_array) {
            for x in e.iter().filter_map(Value::as_array) {
                let at = |i: usize| x.get(i).and_then(Value::as_str).unwrap_or("?");
                let who = x.first().and_then(seat_of).unwrap_or_default();
                out.push(format!(
                    "{who} took {} for the trump ten, laying {} face up.",
                    self.card_tok(at(1)),
                    self.card_tok(at(2))
                ));
            }
        }
        // What was said and done in this deal or round, in the order it was.
        for (key, label, decision) in [("bids", "Bids", "bid"), ("moves", "So far", "")] {
            let Some(list) = get(key).and_then(Value::as_array).filter(|l| !l.is_empty()) else {
                continue;
            };
            // The last few: the events of the steps say each one.
            const LAST: usize = 6;
            let earlier = list.len().saturating_sub(LAST);
            let mut said: Vec<String> = list[earlier..]
                .iter()
                .filter_map(Value::as_array)
                .map(|m| {
                    let who = m.first().and_then(seat_of).unwrap_or_default();
                    let token = m.get(1).and_then(Value::as_str).unwrap_or("?");
                    let decision = match decision {
                        "" if token.len() == 1 && Suit::from_letter(token.chars().next().unwrap_or(' ')).is_some() => {
                            "trump"
                        }
                        d => d,
                    };
                    format!("{who}: {}", self.action(decision, token))
                })
                .collect();
            if earlier > 0 {
                said.insert(0, format!("({earlier} before)"));
            }
            out.push(format!("{label}: {}.", said.join("; ")));
        }
        // How it ended, and the deals or games before.
        if let Some(e) = get("ended") {
            match e {
                Value::String(how) => out.push(format!("Over: {}.", words(how))),
                Value::Object(o) => {
                    let how = o.get("how").and_then(Value::as_str).map(words).unwrap_or_default();
                    match o.get("winner").and_then(seat_of) {
                        Some(w) => out.push(format!("Over: {how}, {w} wins.")),
                        None => out.push(format!("Over: {how}.")),
                    }
                }
                Value::Bool(true) => out.push("Over.".into()),
                _ => {}
            }
        }
        if let Some(r) = get("redeal").and_then(Value::as_str) {
            out.push(match r {
                "stock" => "Redeal: new hands from the stock.".into(),
                "shuffle" => "Redeal: the cards are shuffled again.".into(),
                "refused" => "The redeal was refused.".into(),
                r => format!("Redeal: {}.", words(r)),
            });
        }
        if get("lone").and_then(Value::as_bool) == Some(true) {
            out.push("Nobody knocked: the swinger takes the pot.".into());
        }
        if let Some(h) = get("history").and_then(Value::as_array).filter(|h| !h.is_empty()) {
            let deals: Vec<String> = h
                .iter()
                .filter_map(Value::as_array)
                .map(|d| {
                    let n = d.first().map(|n| n.to_string()).unwrap_or_default();
                    let winner = d.get(2).and_then(seat_of).unwrap_or_else(|| "nobody".into());
                    let how = match d.get(1).and_then(Value::as_str).unwrap_or("") {
                        "zwik" => format!("{winner} with a zwik"),
                        "points" => format!("{winner} on points"),
                        "passer" => format!("a passer ({winner}) took the most points"),
                        "tie" => "a tie: every asker lost".into(),
                        "no_play" => "nobody played".into(),
                        other => words(other),
                    };
                    format!("{n}: {how}")
                })
                .collect();
            out.push(format!("Deals so far: {}.", deals.join("; ")));
        }
        if let Some(w) = get("winners").and_then(Value::as_array).filter(|w| !w.is_empty()) {
            let games: Vec<String> = w
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{} {}", i + 1, seat_of(s).unwrap_or_else(|| "nobody".into())))
                .collect();
            out.push(format!("Games won: {}.", games.join(", ")));
        }
        if get("teams").and_then(Value::as_bool) == Some(true) && self.players == 4 {
            out.push(format!(
                "Teams: {} and {} against {} and {}.",
                self.seat(0),
                self.seat(2),
                self.seat(1),
                self.seat(3)
            ));
        }
        if let Some(e) = get("session_end").and_then(Value::as_str) {
            out.push(format!("The session is over ({}).", words(e)));
        }
        out
    }
}

fn words(t: &str) -> String {
    t.replace('_', " ")
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// What reading the person's answer gave.
enum Input {
    Line(String),
    /// End of input (Ctrl-D).
    End,
    /// Ctrl-C or SIGTERM (croupier's handler took it: [`crate::interrupt`]).
    Interrupted,
}

/// The person's terminal: `/dev/tty`, or standard input and standard error without one.
/// One per process, shared by every human seat (two people at one keyboard take turns).
struct Terminal {
    /// The open `/dev/tty` (read from and written to), if there is one.
    tty: Option<File>,
    /// Bytes read that are not a whole line yet.
    pending: Vec<u8>,
    ended: bool,
    colour: bool,
    /// The input is no terminal (a pipe or a file): it is not echoed, so we write each line.
    echo: bool,
}

static TERMINAL: Mutex<Option<Terminal>> = Mutex::new(None);

impl Terminal {
    fn open() -> Terminal {
        use std::io::IsTerminal;
        let tty = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").ok();
        let interactive = tty.is_some() || std::io::stderr().is_terminal();
        let no_colour = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
            || std::env::var("TERM").is_ok_and(|t| t == "dumb");
        let echo = tty.is_none() && !std::io::stdin().is_terminal();
        Terminal {
            tty,
            pending: Vec::new(),
            ended: false,
            colour: interactive && !no_colour,
            echo,
        }
    }

    fn fd(&self) -> RawFd {
        self.tty.as_ref().map_or(0, |f| f.as_raw_fd())
    }

    fn write(&mut self, text: &str) {
        // A terminal that went away (a closed window) leaves nobody to tell.
        let _ = match &mut self.tty {
            Some(f) => f.write_all(text.as_bytes()).and_then(|_| f.flush()),
            None => {
                let mut e = std::io::stderr().lock();
                e.write_all(text.as_bytes()).and_then(|_| e.flush())
            }
        };
    }

    /// The next line the person typed. Waits as long as it takes (a person has no deadline),
    /// looking every 200 ms whether Ctrl-C asked croupier to stop.
    fn read_line(&mut self) -> Input {
        loop {
            if let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=i).collect();
                let line = String::from_utf8_lossy(&line).trim().to_string();
                if self.echo {
                    self.write(&format!("{line}\n"));
                }
                return Input::Line(line);
            }
            if self.ended {
                return Input::End;
            }
            if crate::interrupt::requested().is_some() {
                return Input::Interrupted;
            }
            let mut pfd = libc::pollfd {
                fd: self.fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            let ready = unsafe { libc::poll(&mut pfd, 1, 200) };
            if ready <= 0 {
                continue; // a timeout, or a signal (EINTR): look again
            }
            let mut buf = [0u8; 4096];
            // SAFETY: reads into a buffer of the length given.
            let n = unsafe { libc::read(self.fd(), buf.as_mut_ptr().cast(), buf.len()) };
            match n {
                n if n > 0 => self.pending.extend_from_slice(&buf[..n as usize]),
                0 => self.ended = true,
                _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
                _ => self.ended = true,
            }
        }
    }
}

/// Runs `f` with the process's one terminal, opening it the first time.
fn with_terminal<R>(f: impl FnOnce(&mut Terminal) -> R) -> R {
    let mut guard = TERMINAL.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Terminal::open))
}

/// Which `move` lines are actions the rules took for a seat, not its choice (protocol.md §4:
/// a Rikken automatic re-pass, the fourth ace the rules call in three-ace malheur): such a line
/// gets a last argument `auto`, which [`WORDS`] words apart. Fed every line of a game in order.
#[derive(Default)]
pub struct RulesMoves {
    /// Rikken: who has passed in this auction (a seat that passed may not bid again).
    passed: Vec<bool>,
    /// Rikken: the declarer showed three aces; the next call is the rules'.
    fourth_ace: bool,
}

impl RulesMoves {
    /// Adds `auto` to the arguments of `kind args` if the rules took the action.
    pub fn mark(&mut self, game: &str, kind: &str, args: &mut Vec<String>) {
        if game != "rikken" {
            return;
        }
        match kind {
            "deal" => *self = RulesMoves::default(),
            "aces" => self.fourth_ace = args.len() == 3,
            "move" => {
                let seat = args.first().and_then(|a| a.parse::<usize>().ok()).filter(|&s| s < 64);
                match (seat, args.get(1).map(String::as_str), args.get(2).map(String::as_str)) {
                    (Some(s), Some("pass"), Some("bid")) => {
                        if self.passed.len() <= s {
                            self.passed.resize(s + 1, false);
                        }
                        if std::mem::replace(&mut self.passed[s], true) {
                            args.push("auto".into());
                        }
                    }
                    (Some(_), Some(_), Some("call")) if std::mem::take(&mut self.fourth_ace) => {
                        args.push("auto".into());
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// How long a session of `game` is under `options`, and how to play a shorter one (with the
/// real rule names), when it is long: said once, before the person's first turn.
pub fn session_hint(game: &str, players: usize, options: &crate::options::Options) -> Option<String> {
    let num = |name: &str| -> Option<i64> {
        options
            .iter()
            .find(|(k, _)| k.as_str() == name)
            .and_then(|(_, v)| v.parse().ok())
    };
    let n = players as i64;
    let (long, what, shorter) = match game {
        "skwitz" => {
            let (g, t) = (num("games")?, num("target")?);
            (
                g > 1 || t > 3,
                format!(
                    "{g} Skwitz game(s), each played until someone declares Out! at {t} points \
                     (with the default rules a few hundred turns)"
                ),
                "--rule games=1 --rule target=3 --rule extra_games_cap=0",
            )
        }
        "zwikken" => {
            let d = match num("deals")? {
                0 => 4 * n,
                d => d,
            };
            let x = match num("extra_deals_cap")? {
                -1 => 2 * n,
                x => x,
            };
            (
                d > 2 || x > 0,
                format!("{d} deals of Zwikken, and up to {x} more while the pot is not empty"),
                "--rule deals=2 --rule extra_deals_cap=0",
            )
        }
        "svangknack" => {
            let r = match num("rounds")? {
                0 => 3 * n,
                r => r,
            };
            let x = match num("extra_rounds_cap")? {
                -1 => n,
                x => x,
            };
            (
                r > 3 || x > 0,
                format!("{r} rounds of Svängknack, and up to {x} more while bets are owed"),
                "--rule rounds=3 --rule extra_rounds_cap=0",
            )
        }
        "kul" => {
            let (g, m) = (num("games")?, num("marks_to_win")?);
            (
                g > 1 || m > 1,
                format!("{g} Kul game(s), each won with {m} mark(s)"),
                "--rule games=1 --rule marks_to_win=1",
            )
        }
        "schwimmen" => {
            let s = num("strikes_to_drown")?;
            (
                s > 2,
                format!("a game of Schwimmen: rounds until one player is left, {s} strikes drown a player"),
                "--rule strikes_to_drown=2",
            )
        }
        _ => return None,
    };
    long.then(|| {
        format!(
            "This session is {what}. For a shorter one, play with {shorter}. \
             Ctrl-D at a prompt leaves the game (what was played is kept)."
        )
    })
}

/// The person's hand with what it is worth where the game counts a hand (Schwimmen's value, by
/// the rules' own count), for the line "Your hand".
fn hand_worth(game: &str, hand: &[Card]) -> Option<String> {
    match game {
        "schwimmen" => crate::games::schwimmen::view::hand_value_text(hand).map(|v| format!("value {v}")),
        _ => None,
    }
}

/// Keeps a game the person left (it ended as their forfeit) when the run writes no record: in
/// `croupier-left-GAME-SEED.jsonl` in the current directory (or the temporary directory when
/// that cannot be written), a new file readable by its owner only. Returns its path.
pub fn keep_left_game(rec: &crate::record::GameRecord) -> Result<std::path::PathBuf, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let line = format!("{}\n", rec.to_line());
    let mut why = String::new();
    for dir in [std::path::PathBuf::from("."), std::env::temp_dir()] {
        for k in 1..1000 {
            let name = match k {
                1 => format!("croupier-left-{}-{}.jsonl", rec.game, rec.seed),
                k => format!("croupier-left-{}-{}-{k}.jsonl", rec.game, rec.seed),
            };
            let path = dir.join(name);
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&path);
            match file {
                Ok(mut f) => {
                    return f
                        .write_all(line.as_bytes())
                        .map(|_| {
                            path.strip_prefix(".")
                                .map_or_else(|_| path.clone(), |p| p.to_path_buf())
                        })
                        .map_err(|e| format!("{}: {e}", path.display()));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    why = format!("{}: {e}", path.display());
                    break;
                }
            }
        }
    }
    Err(why)
}

/// An action of `game` for people, with its token after it where the two differ (`J♠ (JS)`,
/// `swap 7♥ for A♠ (swap_7H_AS)`, `pass`): for text that bot authors read (`ask`).
pub fn action_with_token(game: &str, decision: &str, token: &str) -> String {
    let words = Names::onlooker(game, 0).action(decision, token);
    if words == token {
        words
    } else {
        format!("{words} ({token})")
    }
}

/// Said once per process: the hint of [`session_hint`] at the first game.
static HINTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A person at the terminal.
pub struct Human {
    info: Option<GameInfo>,
    title: String,
    view: Option<Box<dyn SeatView>>,
    /// The lines received since the person's last turn.
    log: Vec<(String, Vec<String>)>,
    /// Marks the moves the rules took ([`RulesMoves`]).
    rules_moves: RulesMoves,
    /// How the game was announced to the person (said before the first turn).
    intro: Option<String>,
    stopped: Option<String>,
}

impl Human {
    pub fn new() -> Human {
        Human {
            info: None,
            title: String::new(),
            view: None,
            log: Vec::new(),
            rules_moves: RulesMoves::default(),
            intro: None,
            stopped: None,
        }
    }

    fn names(&self, colour: bool) -> Names {
        let (game, players, seat) = match &self.info {
            Some(i) => (i.game.clone(), i.players, i.seat),
            None => (String::new(), 1, 0),
        };
        Names {
            game,
            players,
            seat: Some(seat),
            colour,
        }
    }

    fn my_seat(&self) -> Seat {
        self.info.as_ref().map_or(0, |i| i.seat)
    }

    /// What happened since the person's last turn, in words (the game's announcement first).
    fn happened(&self, names: &Names) -> Vec<String> {
        self.intro
            .iter()
            .cloned()
            .chain(self.log.iter().filter_map(|(k, a)| names.event(k, a)))
            .collect()
    }

    /// The screen of a decision: what happened, the table, the hand, the numbered actions.
    fn screen(&self, names: &Names, decision: &str, legal: &[String]) -> String {
        let mut s = String::new();
        let rule = "─".repeat(60);
        s.push_str(&format!("\n{rule}\n"));
        let happened = self.happened(names);
        if !happened.is_empty() {
            s.push_str("Since your last turn:\n");
            for l in happened {
                s.push_str(&format!("  {l}\n"));
            }
        }
        if let Some(view) = &self.view {
            let json = view.to_json();
            let table = names.table(&json);
            if !table.is_empty() {
                s.push_str(&format!("{} table:\n", self.title));
                for l in table {
                    s.push_str(&format!("  {l}\n"));
                }
            }
            let hand: Vec<String> = json
                .get("hand")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|c| c.as_str().map(str::to_string)).collect())
                .unwrap_or_default();
            let cards: Vec<Card> = hand.iter().filter_map(|t| Card::from_token(t)).collect();
            match hand_worth(&names.game, &cards) {
                Some(w) => s.push_str(&format!("Your hand: {}   ({w})\n", names.hand(&hand))),
                None => s.push_str(&format!("Your hand: {}\n", names.hand(&hand))),
            }
        }
        s.push_str(&format!("{}, your turn ({decision}):\n", names.seat(self.my_seat())));
        let labels: Vec<String> = legal
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{:>2}) {}", i + 1, names.action(decision, t)))
            .collect();
        // Several short labels to a line, long ones one each.
        let width = labels.iter().map(|l| visible_len(l)).max().unwrap_or(0) + 3;
        let per_line = (76 / width.max(1)).clamp(1, 6);
        for row in labels.chunks(per_line) {
            let cells: Vec<String> = row
                .iter()
                .map(|l| format!("{l}{}", " ".repeat(width - visible_len(l))))
                .collect();
            s.push_str(&format!("  {}\n", cells.concat().trim_end()));
        }
        s
    }
}

impl Default for Human {
    fn default() -> Self {
        Human::new()
    }
}

/// Characters that show (colour codes take none).
fn visible_len(s: &str) -> usize {
    let mut n = 0;
    let mut in_escape = false;
    for c in s.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, _) => n += 1,
        }
    }
    n
}

impl Bot for Human {
    fn name(&self) -> &str {
        "human"
    }
    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn start(&mut self, info: &GameInfo, _rngseed: u64) {
        let spec = crate::games::find(&info.game);
        self.title = spec.as_ref().map_or_else(|| info.game.clone(), |s| s.title.to_string());
        self.view = spec.map(|s| (s.new_view)(info));
        self.info = Some(info.clone());
        self.log.clear();
        self.rules_moves = RulesMoves::default();
        let mut intro = format!(
            "A new game of {} for {} players: you are {}.",
            self.title,
            info.players,
            seat_name(info.players, info.seat)
        );
        if let Some(hint) = session_hint(&info.game, info.players, &info.options) {
            if !HINTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
                intro.push_str(&format!("\n  {hint}"));
            }
        }
        self.intro = Some(intro);
    }

    fn notify(&mut self, kind: &str, args: &[Arg]) {
        if let Some(v) = &mut self.view {
            v.observe(kind, args);
        }
        if kind != "gameover" {
            let mut texts = crate::game::texts(args);
            let game = self.info.as_ref().map_or("", |i| i.game.as_str());
            self.rules_moves.mark(game, kind, &mut texts);
            self.log.push((kind.to_string(), texts));
            return;
        }
        with_terminal(|t| {
            let names = self.names(t.colour);
            let mut s = format!("\n{}\n", "─".repeat(60));
            for l in self.happened(&names) {
                s.push_str(&format!("  {l}\n"));
            }
            if self.stopped.is_some() {
                s.push_str("You left: the game ends here, forfeited by you (the game's forfeit scores).\n");
            }
            s.push_str(&format!(
                "Game over. Final scores: {}\n",
                names.per_seat(&crate::game::texts(args))
            ));
            if let Some(mine) = args.get(self.my_seat()) {
                s.push_str(&format!("You score {mine}.\n"));
            }
            t.write(&s);
        });
        self.log.clear();
        self.intro = None;
    }

    fn act(&mut self, decision: &str, _time_ms: u64, legal: &[String]) -> String {
        let Some(first) = legal.first() else {
            return String::new();
        };
        if self.stopped.is_some() {
            return first.clone();
        }
        let answer = with_terminal(|t| {
            let names = self.names(t.colour);
            let screen = self.screen(&names, decision, legal);
            let plain_names = Names {
                colour: false,
                ..self.names(false)
            };
            let plain: Vec<String> = legal.iter().map(|t| plain_names.action(decision, t)).collect();
            t.write(&screen);
            loop {
                let range = match legal.len() {
                    1 => "1".to_string(),
                    n => format!("1-{n}"),
                };
                t.write(&format!("Your choice ({range}, Ctrl-D quits): "));
                match t.read_line() {
                    Input::Line(line) => match parse_choice(&line, legal, &plain) {
                        Ok(i) => {
                            let label = names.action(decision, &legal[i]);
                            t.write(&format!("You chose {}: {label} ({})\n", i + 1, legal[i]));
                            return Ok(i);
                        }
                        Err(why) => t.write(&format!("{why}\n")),
                    },
                    Input::End => {
                        t.write("\nEnd of input: you left the game.\n");
                        return Err("end of input (Ctrl-D) at the human seat's prompt".to_string());
                    }
                    Input::Interrupted => {
                        t.write("\nStopped.\n");
                        return Err("interrupted at the human seat's prompt".to_string());
                    }
                }
            }
        });
        self.log.clear();
        self.intro = None;
        match answer {
            Ok(i) => legal[i].clone(),
            Err(why) => {
                self.stopped = Some(why);
                first.clone()
            }
        }
    }

    fn stopped(&self) -> Option<String> {
        self.stopped.clone()
    }
}

/// A view's list as text: each string as it is, anything else as JSON (empty if not a list).
fn view_strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(game: &str, players: usize, seat: usize) -> Names {
        Names {
            game: game.into(),
            players,
            seat: Some(seat),
            colour: false,
        }
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn choices_by_number_or_token_and_bad_input_explained() {
        let legal = s(&["AH", "KH", "swap_7H_AS"]);
        let labels = s(&["A♥", "K♥", "swap 7♥ for A♠"]);
        assert_eq!(parse_choice("K♥", &legal, &labels), Ok(1));
        assert_eq!(parse_choice("Swap 7♥ for A♠", &legal, &labels), Ok(2));
        assert_eq!(parse_choice("2", &legal, &labels), Ok(1));
        assert_eq!(parse_choice(" 3 ", &legal, &labels), Ok(2));
        assert_eq!(parse_choice("AH", &legal, &labels), Ok(0));
        assert_eq!(parse_choice("kh", &legal, &labels), Ok(1));
        assert_eq!(parse_choice("SWAP_7h_as", &legal, &labels), Ok(2));
        assert!(parse_choice("0", &legal, &labels).unwrap_err().contains("no action 0"));
        assert!(parse_choice("999", &legal, &labels).unwrap_err().contains("1 to 3"));
        assert!(parse_choice("-1", &legal, &labels).unwrap_err().contains("1 to 3"));
        assert!(parse_choice("", &legal, &labels).unwrap_err().contains("Type a number"));
        assert!(parse_choice("x", &legal, &labels)
            .unwrap_err()
            .contains("'x' is not one of the actions"));
        assert!(parse_choice("QS", &legal, &labels).is_err());
    }

    #[test]
    fn events_in_words_per_game() {
        let r = names("rikken", 4, 2);
        assert_eq!(r.event("move", &s(&["3", "AH", "play"])).unwrap(), "West plays A♥.");
        assert_eq!(
            r.event("move", &s(&["0", "alone9", "bid"])).unwrap(),
            "North bids alone 9."
        );
        assert_eq!(r.event("move", &s(&["1", "pass", "bid"])).unwrap(), "East passes.");
        assert_eq!(
            r.event("move", &s(&["2", "C", "trump"])).unwrap(),
            "South (you) names trump: ♣ clubs."
        );
        assert_eq!(
            r.event("contract", &s(&["misere", "1,3"])).unwrap(),
            "Contract: misère by East, West."
        );
        assert_eq!(
            r.event("trick", &s(&["7", "2"])).unwrap(),
            "Trick 7 goes to South (you)."
        );
        assert_eq!(r.event("hand", &s(&["AS", "TD"])).unwrap(), "Your cards: A♠ 10♦");
        let z = names("zwikken", 3, 0);
        assert_eq!(z.event("move", &s(&["1", "ken_pass", "bid"])), None);
        assert_eq!(
            z.event("say", &s(&["1", "ik_ken_hem_en_ik_pas"])).unwrap(),
            "Seat 1 says “ik ken hem en ik pas”."
        );
        assert_eq!(
            z.event("move", &s(&["1", "exchange_JH_AH", "play"])).unwrap(),
            "Seat 1 plays A♥."
        );
        assert_eq!(
            z.event("end", &s(&["passer", "1"])).unwrap(),
            "Seat 1, a passer, took the most points: every asker loses."
        );
        let sw = names("schwimmen", 3, 1);
        assert_eq!(
            sw.event("move", &s(&["0", "swap_7H_AS", "turn"])).unwrap(),
            "Seat 0 swaps 7♥ for A♠."
        );
        assert_eq!(
            sw.event("show", &s(&["2", "TH", "QH", "AS", "20"])).unwrap(),
            "Seat 2 shows 10♥ Q♥ A♠: 20."
        );
        let sk = names("skwitz", 4, 0);
        assert_eq!(
            sk.event("pay", &s(&["1", "pot", "2", "ante"])).unwrap(),
            "East pays 2 to the pot (ante)."
        );
        assert_eq!(
            sk.event("move", &s(&["3", "9H:4S,5C", "play"])).unwrap(),
            "West plays 9♥ taking 4♠ 5♣."
        );
        let sv = names("svangknack", 4, 0);
        assert_eq!(
            sv.event("ante", &s(&["3", "all"])).unwrap(),
            "Everyone pays 3 into the pot."
        );
        assert_eq!(sv.event("ante", &s(&["3", "2"])).unwrap(), "South pays 3 into the pot.");
        let k = names("kul", 3, 0);
        assert_eq!(
            k.event("mark", &s(&["2", "1"])).unwrap(),
            "Seat 2 takes the last trick: 1 mark(s)."
        );
        // A kind no table entry knows: the raw line, its cards in symbols.
        assert_eq!(k.event("novel", &s(&["1", "QS"])).unwrap(), "novel 1 Q♠");
    }

    #[test]
    fn moves_the_rules_take_are_said_to_be_automatic() {
        let r = names("rikken", 4, 0);
        let mut marks = RulesMoves::default();
        let mut said = Vec::new();
        for line in [
            "deal 1 3",
            "move 0 pass bid",
            "move 1 rik bid",
            "move 2 pass bid",
            "move 3 pass bid",
            "move 0 pass bid",
            "move 2 pass bid",
        ] {
            let mut parts = line.split(' ');
            let kind = parts.next().unwrap();
            let mut args: Vec<String> = parts.map(str::to_string).collect();
            marks.mark("rikken", kind, &mut args);
            said.extend(r.event(kind, &args));
        }
        assert_eq!(said[1], "North (you) passes.");
        assert_eq!(
            said[5],
            "North (you) passes again, automatically: a player who has passed may not bid again."
        );
        assert!(said[6].starts_with("South passes again, automatically"), "{}", said[6]);
        // A new deal (after an all-pass) starts a new auction.
        let mut args = s(&["0", "pass", "bid"]);
        marks.mark("rikken", "deal", &mut s(&["2", "3"]));
        marks.mark("rikken", "move", &mut args);
        assert_eq!(r.event("move", &args).unwrap(), "North (you) passes.");
        // Three-ace malheur: the rules call the fourth ace.
        marks.mark("rikken", "aces", &mut s(&["AS", "AH", "AC"]));
        let mut call = s(&["2", "AD", "call"]);
        marks.mark("rikken", "move", &mut call);
        assert_eq!(
            r.event("move", &call).unwrap(),
            "The rules call A♦ for South: the fourth ace, in malheur with three aces."
        );
        let mut call = s(&["2", "KD", "call"]);
        marks.mark("rikken", "move", &mut call);
        assert_eq!(r.event("move", &call).unwrap(), "South calls K♦.");
    }

    #[test]
    fn an_onlooker_is_told_who_was_told() {
        let o = Names::onlooker("rikken", 4);
        assert_eq!(
            o.event_to("hand", &s(&["AS", "TD"]), &[1]).unwrap(),
            "East holds A♠ 10♦."
        );
        assert_eq!(
            o.event_to("hint", &s(&["must_play_called"]), &[3]).unwrap(),
            "West must play the called card now."
        );
        assert_eq!(
            o.event_to("move", &s(&["1", "solo_beter", "bid"]), &[0, 1, 2, 3])
                .unwrap(),
            "East bids solo beter."
        );
        let o = Names::onlooker("schwimmen", 3);
        assert_eq!(
            o.event_to("packet", &s(&["7H", "8H", "9H"]), &[2]).unwrap(),
            "Seat 2 sees the packet 7♥ 8♥ 9♥."
        );
    }

    #[test]
    fn the_board_of_an_onlooker_is_in_words() {
        let z = Names::onlooker("zwikken", 3);
        let view = serde_json::json!({"deal": 5, "pot": 12, "stock": 9, "seeks": 1, "trump": "C",
            "turned": ["KD", "AC"], "bids": [[1, "ken_pass"], [2, "ask"]],
            "exchanges": [[0, "AD", "TD"]],
            "history": [[1, "no_play", null], [2, "points", 0], [3, "zwik", 2], [4, "passer", 1], [5, "tie", null]],
            "session_end": "pot_empty"});
        let b = z.board(&view).join("\n");
        for line in [
            "Deal 5",
            "Trump ♣ clubs",
            "Pot 12, 9 card(s) in the stock, 1 seek(s)",
            "Face up: K♦ A♣",
            "Seat 0 took A♦ for the trump ten, laying 10♦ face up.",
            "Bids: Seat 1: I have the trump ten, and pass (ik ken hem en ik pas); Seat 2: ask (ik vraag).",
            "Deals so far: 1: nobody played; 2: Seat 0 on points; 3: Seat 2 with a zwik; \
             4: a passer (Seat 1) took the most points; 5: a tie: every asker lost.",
            "The session is over (pot empty).",
        ] {
            assert!(b.contains(line), "no '{line}' in\n{b}");
        }
        let r = Names::onlooker("rikken", 4);
        let view = serde_json::json!({"deal": 1, "contract": {"bid": "open_misere_praatje", "declarers": [2]},
            "trump": "none", "ended": "tricks_done"});
        let b = r.board(&view).join("\n");
        assert!(
            b.contains("Contract open misère met een praatje by South, no trump"),
            "{b}"
        );
        assert!(b.contains("Over: tricks done."), "{b}");
        assert!(!b.contains('_'), "{b}");
    }

    #[test]
    fn long_sessions_say_how_to_play_a_shorter_one() {
        let opts = |game: &str, rules: &[&str]| {
            let spec = crate::games::find(game).unwrap();
            let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
            crate::options::Options::resolve(&(spec.options)(), spec.name, &rules).unwrap()
        };
        let hint = session_hint("skwitz", 4, &opts("skwitz", &[])).unwrap();
        assert!(hint.contains("5 Skwitz game(s)"), "{hint}");
        assert!(hint.contains("--rule games=1 --rule target=3"), "{hint}");
        assert_eq!(
            session_hint("skwitz", 4, &opts("skwitz", &["games=1", "target=3"])),
            None
        );
        let hint = session_hint("zwikken", 3, &opts("zwikken", &[])).unwrap();
        assert!(hint.contains("12 deals of Zwikken, and up to 6 more"), "{hint}");
        assert!(session_hint("svangknack", 3, &opts("svangknack", &[])).is_some());
        assert!(session_hint("kul", 3, &opts("kul", &[])).is_some());
        assert!(session_hint("schwimmen", 3, &opts("schwimmen", &[])).is_some());
        assert_eq!(session_hint("rikken", 4, &opts("rikken", &[])), None);
    }

    #[test]
    fn action_labels_and_colour() {
        let z = names("zwikken", 3, 0);
        assert_eq!(z.action("play", "exchange_JH_AH"), "take J♥ for your ten, then play A♥");
        assert_eq!(z.action("exchange", "exchange_JH"), "take J♥ for your ten");
        assert_eq!(names("schwimmen", 3, 0).action("turn", "swap_7H_AS"), "swap 7♥ for A♠");
        assert_eq!(names("skwitz", 3, 0).action("play", "5D"), "5♦ (trail)");
        assert_eq!(names("rikken", 4, 0).action("bid", "rik_beter"), "rik beter");
        assert_eq!(names("rikken", 4, 0).action("bid", "alone10_beter"), "alone 10 beter");
        let red = Names {
            colour: true,
            ..names("kul", 3, 0)
        };
        assert_eq!(red.card("AH".parse().unwrap()), "\x1b[31mA♥\x1b[0m");
        assert_eq!(red.card("AS".parse().unwrap()), "A♠");
        assert_eq!(visible_len(&red.card("TD".parse().unwrap())), 3);
    }

    #[test]
    fn the_table_from_every_games_view() {
        // A Kul view with a trick in progress: leader and the seats after it, clockwise.
        let k = names("kul", 3, 1);
        let view = serde_json::json!({"game_no":1,"pot":3,"chips":[-1,-1,-1],"marks":[0,1,0],
            "deal":2,"dealer":0,"hand":["KS","5H"],"trick":{"leader":2,"cards":["AH","3H"]}});
        let t = k.table(&view).join("\n");
        assert!(t.contains("Trick: Seat 2 A♥, Seat 0 3♥"), "{t}");
        assert!(t.contains("Marks: Seat 0 0, Seat 1 (you) 1, Seat 2 0"), "{t}");
        assert!(t.contains("Pot 3"), "{t}");
        // Svängknack's [seat, card] pairs.
        let sv = names("svangknack", 3, 0);
        let view = serde_json::json!({"trick":{"leader":1,"cards":[[1,"9H"],[2,"TH"]],"farg":[]},"trump":"H"});
        let t = sv.table(&view).join("\n");
        assert!(t.contains("Trick: Seat 1 9♥, Seat 2 10♥"), "{t}");
        assert!(t.contains("Trump ♥ hearts"), "{t}");
    }
}
