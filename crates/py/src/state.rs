//! One game in play, as Python sees it (see the crate's documentation).

use croupier_games::cards::Card;
use croupier_games::chance::{Chance, DealSpec, Purpose, Rng};
use croupier_games::game::{Arg, Event, Game, GameInfo, GameSpec, SeatView};
use croupier_games::options::Options;
use numpy::PyArray1;
use pyo3::prelude::*;
use std::sync::Arc;

use crate::error::err;
use crate::pins;
use crate::tensor;
use crate::vocab::Vocab;

/// A fresh seat view of game `spec` for `seat`, at a table of `players` with `options`.
pub fn new_view(spec: &GameSpec, options: &Options, players: usize, seat: usize) -> Box<dyn SeatView> {
    (spec.new_view)(&GameInfo {
        game: spec.name.to_string(),
        options: options.clone(),
        players,
        seat,
    })
}

/// One game in play.
#[pyclass(module = "croupier_games._croupier_games", unsendable)]
pub struct State {
    pub(crate) spec: Arc<GameSpec>,
    pub(crate) vocab: Arc<Vocab>,
    pub(crate) players: usize,
    pub(crate) seed: u64,
    pub(crate) game: Box<dyn Game>,
    pub(crate) views: Vec<Box<dyn SeatView>>,
    /// The events each seat has been told, in order.
    pub(crate) seen: Vec<Vec<Event>>,
    /// The actions so far: (seat, token).
    pub(crate) history: Vec<(usize, String)>,
    /// The rule options (for resampling).
    pub(crate) options: Options,
    /// Per action of `history`, the number of deals made before it and the decision it
    /// answered.
    pub(crate) deal_at: Vec<(usize, &'static str)>,
}

impl State {
    /// A new game dealt from `seed`, its first deals the given ones.
    pub(crate) fn start(
        spec: &Arc<GameSpec>,
        options: &Options,
        players: usize,
        vocab: &Arc<Vocab>,
        seed: u64,
        deals: Vec<DealSpec>,
    ) -> Result<State, String> {
        let chance = Chance::given(seed, deals).titled(spec.title);
        let game = (spec.new_game)(players, options, chance, true)?;
        let views = (0..players)
            .map(|seat| new_view(spec, options, players, seat))
            .collect();
        let mut state = State {
            spec: spec.clone(),
            vocab: vocab.clone(),
            players,
            seed,
            game,
            views,
            seen: vec![Vec::new(); players],
            history: Vec::new(),
            options: options.clone(),
            deal_at: Vec::new(),
        };
        let first = state.game.take_events();
        state.route(first);
        Ok(state)
    }

    /// One world `player` cannot tell from this one, or `None`: the deals before the current
    /// one as they were dealt (what is still to come does not depend on their hidden cards);
    /// in the current deal `player`'s own hand as dealt, the piles it was shown as dealt, in
    /// each other seat's hand the cards it was seen to lay down from it (pins.rs; Zwikken's
    /// exchanged tens) and the cards `player` was shown there, the rest shuffled over the other
    /// hands and piles; then every action replayed; kept only where every action is legal and
    /// `player` was told exactly the same lines.
    /// Per deal (`deals` of them) and seat, the cards `player` was shown in that seat's hand
    /// (`exposed <seat> <cards…>` lines: Rikken's open contracts). A deal's lines follow its
    /// `deal` line, where the game has one; otherwise they are all the first deal's.
    fn exposed_to(&self, player: usize, deals: usize) -> Vec<Vec<Vec<Card>>> {
        let mut out = vec![vec![Vec::new(); self.players]; deals.max(1)];
        let mut d = 0usize;
        let mut started = false;
        for e in &self.seen[player] {
            if e.kind == "deal" {
                d += usize::from(started);
                started = true;
            }
            if e.kind != "exposed" {
                continue;
            }
            let seat = match e.args.first() {
                Some(Arg::Int(s)) => *s as usize,
                _ => continue,
            };
            let cards = e.args.iter().skip(1).filter_map(|a| match a {
                Arg::Card(c) => Some(*c),
                _ => None,
            });
            if let Some(hand) = out.get_mut(d.min(deals.max(1) - 1)).and_then(|h| h.get_mut(seat)) {
                hand.extend(cards.filter(|c| !hand.contains(c)).collect::<Vec<_>>());
            }
        }
        out
    }

    fn sample_world(&self, player: usize, rng: &mut Rng) -> Option<State> {
        let deals = self.game.chance().deals();
        let exposed = self.exposed_to(player, deals.len());
        let mut specs = Vec::with_capacity(deals.len());
        let last = deals.len().saturating_sub(1);
        // Cards `player` was told of (in any of its lines): a pile made only of such cards is
        // one it saw (a turned card, the open middle, the table), and stays as dealt.
        let told: Vec<Card> = self.seen[player]
            .iter()
            .flat_map(|e| e.args.iter().filter_map(Arg::card))
            .collect();
        for (d, deal) in deals.iter().enumerate() {
            if d < last {
                // A deal that is over stays as dealt: what is still to come is dealt afresh
                // and does not depend on its hidden cards, so re-dealing it would only make
                // the replay of its actions fail more often.
                specs.push(DealSpec::from_deal(deal));
                continue;
            }
            let seen_piles: std::collections::BTreeMap<String, Vec<Card>> = deal
                .piles
                .iter()
                .filter(|(_, cards)| !cards.is_empty() && cards.iter().all(|c| told.contains(c)))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            // The cards the player saw in a seat's hand (shown, `exposed`) stay in that hand.
            let mut pinned: Vec<Vec<Card>> = exposed[d].clone();
            // A card another seat laid down from its hand in this deal (playing it, or swapping
            // it for one of the middle) was in that hand, unless it took that card up earlier
            // (pins.rs).
            let mut taken: Vec<Vec<Card>> = vec![Vec::new(); self.players];
            for (k, (seat, token)) in self.history.iter().enumerate() {
                // Cards named at other decisions are not from the hand (Rikken's `call AD` calls
                // an ace the caller does not hold).
                let (deal_no, decision) = self.deal_at[k];
                if *seat == player || deal_no != d + 1 || !matches!(decision, "play" | "turn" | "exchange") {
                    continue;
                }
                let (laid, took) = pins::laid_and_taken(token);
                for c in laid {
                    if !taken[*seat].contains(&c) && !pinned[*seat].contains(&c) {
                        pinned[*seat].push(c);
                    }
                }
                taken[*seat].extend(took);
            }
            // A Zwikken exchange (`exchange <seat> <taken> <ten>`, told to all) shows the ten
            // the seat gave away: it was in its hand. The current deal's lines are those after
            // its `deal` line.
            let this_deal = self.seen[player].iter().rposition(|e| e.kind == "deal").unwrap_or(0);
            for e in &self.seen[player][this_deal..] {
                if let (true, Some(seat), Some(ten)) = (
                    e.kind == "exchange" && e.args.len() == 3,
                    e.args.first().and_then(|a| a.parse::<usize>().ok()),
                    e.args.get(2).and_then(Arg::card),
                ) {
                    if seat < self.players
                        && seat != player
                        && !taken[seat].contains(&ten)
                        && !pinned[seat].contains(&ten)
                    {
                        pinned[seat].push(ten);
                    }
                }
            }
            let mut pool: Vec<Card> = deal
                .hands
                .iter()
                .enumerate()
                .filter(|(s, _)| *s != player)
                .flat_map(|(_, h)| h.iter().copied())
                .chain(deal.piles.values().flatten().copied())
                .chain(deal.undealt.iter().copied())
                .filter(|c| !pinned.iter().any(|p| p.contains(c)))
                .filter(|c| !seen_piles.values().any(|p| p.contains(c)))
                .collect();
            rng.shuffle(&mut pool);
            let mut hands = Vec::with_capacity(self.players);
            for (s, h) in deal.hands.iter().enumerate() {
                if s == player {
                    hands.push(Some(h.clone()));
                    continue;
                }
                let mut hand = pinned[s].clone();
                if hand.len() > h.len() {
                    return None;
                }
                while hand.len() < h.len() {
                    hand.push(pool.pop()?);
                }
                hands.push(Some(hand));
            }
            specs.push(DealSpec {
                dealer: Some(deal.dealer),
                hands,
                piles: seen_piles,
            });
        }
        let mut world = State::start(
            &self.spec,
            &self.options,
            self.players,
            &self.vocab,
            rng.next_u64(),
            specs,
        )
        .ok()?;
        for (seat, token) in &self.history {
            (world.game.to_move() == Some(*seat)).then_some(())?;
            world.game.legal_actions().iter().any(|t| t == token).then_some(())?;
            world.apply_token_inner(token).ok()?;
        }
        (world.seen[player] == self.seen[player] && world.game.to_move() == self.game.to_move()).then_some(world)
    }

    /// Routes events to the seats in their audiences: their views and lines.
    fn route(&mut self, events: Vec<Event>) {
        for e in events {
            for seat in e.to.members(self.players) {
                self.views[seat].observe(e.kind, &e.args);
                self.seen[seat].push(e.clone());
            }
        }
    }

    pub(crate) fn legal_tokens(&self) -> Vec<String> {
        if self.game.to_move().is_none() {
            return Vec::new();
        }
        self.game.legal_actions()
    }

    fn legal_pairs(&self) -> PyResult<Vec<(usize, String)>> {
        let tokens = self.legal_tokens();
        let ids = self.vocab.ids(&tokens).map_err(err)?;
        Ok(ids.into_iter().zip(tokens).collect())
    }

    fn check_seat(&self, player: usize) -> PyResult<()> {
        if player >= self.players {
            return Err(err(format!("no seat {player} in a {}-player game", self.players)));
        }
        Ok(())
    }

    fn apply_token_inner(&mut self, token: &str) -> PyResult<()> {
        let seat = self.game.to_move().ok_or_else(|| err("the game is over"))?;
        let at = (self.game.chance().deals().len(), self.game.decision());
        self.game.apply(token).map_err(err)?;
        self.deal_at.push(at);
        self.history.push((seat, token.to_string()));
        let events = self.game.take_events();
        self.route(events);
        Ok(())
    }
}

#[pymethods]
impl State {
    fn num_players(&self) -> usize {
        self.players
    }

    /// The seat to move, or -4 (OpenSpiel's terminal id) when the game is over.
    fn current_player(&self) -> i64 {
        match self.game.to_move() {
            Some(s) => s as i64,
            None => -4,
        }
    }

    fn is_terminal(&self) -> bool {
        self.game.to_move().is_none()
    }

    /// The kind of decision asked (`bid`, `play`, …); empty when the game is over.
    fn decision(&self) -> &'static str {
        if self.is_terminal() {
            ""
        } else {
            self.game.decision()
        }
    }

    /// The legal actions of the seat to move as integers, ascending.
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        let mut ids: Vec<usize> = self.legal_pairs()?.into_iter().map(|(i, _)| i).collect();
        ids.sort_unstable();
        Ok(ids)
    }

    /// The legal actions as the protocol's tokens, in the engine's order (what a bot is sent).
    fn legal_action_strings(&self) -> Vec<String> {
        self.legal_tokens()
    }

    /// A mask over the action space: 1 where legal.
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut mask = vec![0i8; self.vocab.len()];
        for (i, _) in self.legal_pairs()? {
            mask[i] = 1;
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// The token of integer action `a` now (a legal action's protocol token).
    #[pyo3(signature = (a, player=None))]
    fn action_to_string(&self, a: usize, player: Option<usize>) -> PyResult<String> {
        let _ = player;
        if let Some((_, t)) = self.legal_pairs()?.into_iter().find(|(i, _)| *i == a) {
            return Ok(t);
        }
        self.vocab.name(a).ok_or_else(|| err(format!("no action {a}")))
    }

    /// The integer of a legal action's token.
    fn string_to_action(&self, token: &str) -> PyResult<usize> {
        self.legal_pairs()?
            .into_iter()
            .find(|(_, t)| t == token)
            .map(|(i, _)| i)
            .ok_or_else(|| err(format!("{token} is not a legal action now")))
    }

    /// Applies legal action `a` of the seat to move.
    fn apply_action(&mut self, a: usize) -> PyResult<()> {
        let token = self
            .legal_pairs()?
            .into_iter()
            .find(|(i, _)| *i == a)
            .map(|(_, t)| t)
            .ok_or_else(|| err(format!("action {a} is not legal now")))?;
        self.apply_token_inner(&token)
    }

    /// Applies a legal action given as its token.
    fn apply_token(&mut self, token: &str) -> PyResult<()> {
        self.apply_token_inner(token)
    }

    /// Each seat's score once the game is over (zeros before).
    fn returns(&self) -> Vec<f64> {
        self.game.scores().unwrap_or_else(|| vec![0.0; self.players])
    }

    /// A copy that plays on independently (its future deals are the original's).
    fn clone(&self) -> State {
        State {
            spec: self.spec.clone(),
            vocab: self.vocab.clone(),
            players: self.players,
            seed: self.seed,
            game: self.game.clone(),
            views: self.views.clone(),
            seen: self.seen.clone(),
            history: self.history.clone(),
            options: self.options.clone(),
            deal_at: self.deal_at.clone(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// The game's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Every action so far: (seat, token).
    fn history(&self) -> Vec<(usize, String)> {
        self.history.clone()
    }

    /// A state `player` cannot tell from this one, the hidden cards drawn anew (OpenSpiel's
    /// `resample_from_infostate`): rejection sampling ([`State::sample_world`]) of up to
    /// `attempts` worlds from `seed`. An error when none fits (never this state itself: that
    /// would show the hidden cards).
    #[pyo3(signature = (player, seed, attempts=20000))]
    fn resample_from_infostate(&self, player: usize, seed: u64, attempts: usize) -> PyResult<State> {
        self.check_seat(player)?;
        let mut rng = Rng::new(seed, Purpose::Deal, self.history.len() as u64);
        for _ in 0..attempts {
            if let Some(w) = self.sample_world(player, &mut rng) {
                return Ok(w);
            }
        }
        Err(err(format!(
            "no world fits seat {player}'s information in {attempts} samples ({} after {} actions)",
            self.spec.name,
            self.history.len()
        )))
    }

    /// What `player` knows: its seat and every line it was told, in order (perfect recall).
    fn information_state_string(&self, player: usize) -> PyResult<String> {
        self.check_seat(player)?;
        let mut s = format!("{} seat {player} of {}\n", self.spec.name, self.players);
        for e in &self.seen[player] {
            s.push_str(&e.line());
            s.push('\n');
        }
        Ok(s)
    }

    /// What `player` sees now: the game's own seat view (the protocol's JSON view).
    fn observation_string(&self, player: usize) -> PyResult<String> {
        self.check_seat(player)?;
        Ok(self.views[player].to_json().to_string())
    }

    /// `player`'s observation as numbers (float32); layout in `docs/rules/<game>.md`.
    fn observation_tensor<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyArray1<f32>>> {
        self.check_seat(player)?;
        let mut t = vec![0.0f32; tensor::size(self.spec.name, self.players)];
        let (view, seen) = (self.views[player].as_ref(), &self.seen[player]);
        tensor::fill(
            self.spec.name,
            self.players,
            player,
            self.game.to_move(),
            view,
            seen,
            &mut t,
        );
        Ok(PyArray1::from_vec(py, t))
    }

    /// The deals made so far, as a record's `deals` (JSON): every seat's cards. Referee-only
    /// knowledge, for tests and tools; never part of a seat's strings.
    fn deals_json(&self) -> String {
        serde_json::to_string(&self.game.chance().deals().iter().map(|d| &**d).collect::<Vec<_>>()).unwrap_or_default()
    }

    fn __str__(&self) -> String {
        let mut s = String::new();
        for (seat, t) in &self.history {
            s.push_str(&format!("{seat}:{t} "));
        }
        s
    }

    /// Card tokens in index order (the order of every 52-card block of the tensors).
    #[staticmethod]
    fn card_tokens() -> Vec<&'static str> {
        (0..52).map(|i| Card::from_index(i).token()).collect()
    }
}
