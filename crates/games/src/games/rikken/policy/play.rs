//! Card play: what the seat knows of the trick and the contract, and the card it plays in trick
//! contracts, in misère and piek (as declarer or against) and in schoppen mieën.

use super::cards::{at_or_above, below, bottom, highest, lowest, parse_legal_cards, top};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::few::Few;
use crate::games::rikken::bids::Contract;
use crate::games::rikken::state::{Rikken, N, NO_CARD};
use crate::games::rikken::view::RikkenView;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Take tricks (rik, alone, solo, malheur, op voorhand).
    Tricks,
    /// Declarers take no trick.
    Misere,
    /// Declarers take exactly one trick.
    Piek,
    /// Everybody piek (open piek totaal).
    PiekAll,
    /// Nobody wants ♠Q (schoppen mieën).
    Mie,
}

/// What the seat to move knows of the deal, for the card play: built from its view (the
/// `simple` bot) or from the engine (a search's playouts), the same value either way (the
/// `typed_playouts` test holds them to the same choices).
pub(super) struct Ctx {
    seat: usize,
    players: usize,
    trump: Option<Suit>,
    kind: Kind,
    declarers: Few<usize, 4>,
    partner: Option<usize>,
    /// The declaring side is known to everybody (or the contract is one against three).
    sides_known: bool,
    leader: usize,
    trick: Few<Card, 4>,
    /// Cards neither in my hand nor seen played.
    unseen: CardSet,
    /// My hand as a set.
    hand_set: CardSet,
    /// The hands laid open to me, by seat, without the cards played from them.
    exposed: [Option<CardSet>; 4],
    tricks_won: [u32; 4],
}

/// What kind of play a contract asks for, and whether its declarer has a partner (none before
/// the auction ends).
fn kind_of(c: Option<Contract>) -> (Kind, bool) {
    let kind = match c {
        Some(Contract::Misere { .. }) => Kind::Misere,
        Some(Contract::Piek { .. }) => Kind::Piek,
        Some(Contract::OpenPiekTotaal) => Kind::PiekAll,
        Some(Contract::SchoppenMieen) => Kind::Mie,
        _ => Kind::Tricks,
    };
    let with_partner = matches!(c, Some(Contract::Rik { .. } | Contract::Malheur | Contract::OpVoorhand));
    (kind, with_partner)
}

/// The cards of `l` (at most a hand) for which `keep` holds, in their order: on the stack, as a
/// search's playouts ask this by the million.
fn those(l: &[Card], keep: impl Fn(Card) -> bool) -> Few<Card, 13> {
    few(l.iter().copied().filter(|&c| keep(c)), NO_CARD)
}

/// The first `n` of `items` as a [`Few`].
fn few<T: Copy, const M: usize>(items: impl IntoIterator<Item = T>, fill: T) -> Few<T, M> {
    let mut f = Few::new(fill);
    for x in items.into_iter().take(M) {
        f.push(x);
    }
    f
}

impl Ctx {
    fn from_view(view: &RikkenView) -> Ctx {
        let d = &view.deal;
        let seat = view.seat;
        let (bid, declarers): (&str, &[usize]) = match &d.contract {
            Some((bid, declarers)) => (bid, declarers),
            None => ("", &[]),
        };
        let (kind, with_partner) = kind_of(Contract::parse(bid.strip_suffix("_join").unwrap_or(bid)));
        let (leader, trick): (usize, &[Card]) = match &d.trick {
            Some((leader, cards)) => (*leader, cards),
            None => (seat, &[]),
        };
        let mut played = CardSet::from_cards(&d.played);
        for t in &d.tricks {
            for &c in t.cards.iter().flatten() {
                played.insert(c);
            }
        }
        let mut exposed = [None; 4];
        for (&s, cards) in &d.exposed {
            if let Some(e) = exposed.get_mut(s) {
                *e = Some(CardSet::from_cards(cards));
            }
        }
        let mut tricks_won = [0; 4];
        for (w, &n) in tricks_won.iter_mut().zip(&d.tricks_won) {
            *w = n;
        }
        Ctx::new(
            (seat, view.players),
            CardSet::from_cards(&d.hand),
            view.trump_suit(),
            (kind, with_partner),
            few(declarers.iter().copied(), 0),
            d.partner,
            (leader, few(trick.iter().copied(), NO_CARD)),
            played,
            exposed,
            tricks_won,
        )
    }

    /// What seat `seat` knows of `g`'s deal, from the engine: its own hand, and of the rest only
    /// what its events showed it (the partner once it was told, the cards played unless
    /// `hide_quitted_tricks` hid those of finished tricks, the hands laid open to it).
    pub(in crate::games::rikken) fn from_engine(g: &Rikken, seat: usize) -> Ctx {
        let declarers = match g.contract {
            Some(Contract::SchoppenMieen) => few([], 0),
            Some(Contract::OpenPiekTotaal) => few(0..4, 0),
            _ => few(g.declarers.iter().copied(), 0),
        };
        let partner = g.partner.filter(|&p| g.partner_public || p == seat);
        let leader = g.trick.first().map_or(seat, |&(s, _)| s);
        let trick = few(g.trick.iter().map(|&(_, c)| c), NO_CARD);
        // Every card is dealt, so the cards of the tricks (this one too) are those no hand holds.
        let played = if g.rules.hide_quitted_tricks {
            CardSet::from_cards(trick.as_slice())
        } else {
            CardSet::DECK.minus(g.hands.iter().fold(CardSet::EMPTY, |a, &h| a.union(h)))
        };
        let mut exposed = [None; 4];
        for s in (0..N).filter(|&s| g.exposed[s] && s != seat) {
            exposed[s] = Some(g.hands[s]);
        }
        let hand = if g.hands_withheld {
            CardSet::default()
        } else {
            g.hands[seat]
        };
        Ctx::new(
            (seat, N),
            hand,
            g.trump,
            kind_of(g.contract),
            declarers,
            partner,
            (leader, trick),
            played,
            exposed,
            g.won.map(|n| n as u32),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn new(
        (seat, players): (usize, usize),
        hand_set: CardSet,
        trump: Option<Suit>,
        (kind, with_partner): (Kind, bool),
        declarers: Few<usize, 4>,
        partner: Option<usize>,
        (leader, trick): (usize, Few<Card, 4>),
        played: CardSet,
        exposed: [Option<CardSet>; 4],
        tricks_won: [u32; 4],
    ) -> Ctx {
        let seen = hand_set.union(played).union(CardSet::from_cards(trick.as_slice()));
        Ctx {
            seat,
            players,
            trump,
            kind,
            declarers,
            partner,
            sides_known: !with_partner || partner.is_some(),
            leader,
            trick,
            unseen: CardSet((1u64 << 52) - 1).minus(seen),
            hand_set,
            exposed,
            tricks_won,
        }
    }

    fn declarers(&self) -> &[usize] {
        self.declarers.as_slice()
    }

    fn trick(&self) -> &[Card] {
        self.trick.as_slice()
    }

    fn on_declarer_side(&self, s: usize) -> bool {
        self.declarers().contains(&s) || self.partner == Some(s)
    }

    fn friend(&self, s: usize) -> bool {
        if s == self.seat {
            return true;
        }
        if self.on_declarer_side(self.seat) {
            self.on_declarer_side(s) && self.kind == Kind::Tricks
        } else {
            self.sides_known && !self.on_declarer_side(s)
        }
    }

    /// Does `a` beat the card `w` that is winning the trick?
    fn beats(&self, a: Card, w: Card) -> bool {
        if a.suit == w.suit {
            a.rank > w.rank
        } else {
            Some(a.suit) == self.trump
        }
    }

    /// The index in the trick of the winning card.
    fn winner_index(&self) -> usize {
        let mut best = 0;
        for i in 1..self.trick().len() {
            if self.beats(self.trick()[i], self.trick()[best]) {
                best = i;
            }
        }
        best
    }

    fn seat_at(&self, i: usize) -> usize {
        (self.leader + i) % self.players
    }

    /// No unseen card of the suit ranks above `c`.
    fn is_master(&self, c: Card) -> bool {
        at_or_above(self.unseen, c).is_empty()
    }

    fn unseen_in(&self, s: Suit) -> usize {
        self.unseen.of_suit(s).len()
    }

    /// Seats still to play to this trick after me.
    fn after_me(&self) -> Few<usize, 4> {
        few((self.trick().len() + 1..self.players).map(|i| self.seat_at(i)), 0)
    }
}

pub(super) fn play(view: &RikkenView, legal: &[String]) -> Option<String> {
    play_cards(view, &parse_legal_cards(legal)).map(|c| c.to_string())
}

pub(super) fn play_cards(view: &RikkenView, l: &[Card]) -> Option<Card> {
    if l.len() <= 1 {
        return l.first().copied();
    }
    card_play(&Ctx::from_view(view), l)
}

/// The card among `l` that the seat plays, knowing `ctx`.
pub(super) fn card_play(ctx: &Ctx, l: &[Card]) -> Option<Card> {
    if l.len() <= 1 {
        return l.first().copied();
    }
    let me = ctx.seat;
    match ctx.kind {
        Kind::Tricks => play_tricks(ctx, l),
        Kind::Misere if ctx.declarers().contains(&me) => avoid(ctx, l),
        Kind::Misere | Kind::Piek => {
            if ctx.declarers().contains(&me) {
                piek(ctx, l)
            } else {
                against_misere(ctx, l)
            }
        }
        Kind::PiekAll => piek(ctx, l),
        Kind::Mie => mie(ctx, l),
    }
}

/// The lowest card to throw away: not a trump if possible, not a master if possible.
fn discard(ctx: &Ctx, l: &[Card]) -> Option<Card> {
    let side = those(l, |c| Some(c.suit) != ctx.trump);
    let pool = if side.is_empty() { l } else { side.as_slice() };
    pool.iter()
        .copied()
        .min_by_key(|&c| (ctx.is_master(c), c.rank, ctx.hand_set.of_suit(c.suit).len()))
}

fn play_tricks(ctx: &Ctx, l: &[Card]) -> Option<Card> {
    if ctx.trick().is_empty() {
        return lead_tricks(ctx, l);
    }
    let wi = ctx.winner_index();
    let w = ctx.trick()[wi];
    let ws = ctx.seat_at(wi);
    let last = ctx.trick().len() + 1 == ctx.players;
    let led = ctx.trick()[0].suit;
    let follows = l.iter().any(|c| c.suit == led);
    let winners = those(l, |c| ctx.beats(c, w));
    // A friend's card that will hold: let it stand.
    let partner_holds = ctx.friend(ws) && (last || ctx.is_master(w) || Some(w.suit) == ctx.trump);
    if partner_holds || winners.is_empty() {
        return if follows { lowest(l) } else { discard(ctx, l) };
    }
    if last {
        return lowest(&winners);
    }
    if !follows {
        // Ruff as low as wins; with a friend winning, keep the trump.
        if ctx.friend(ws) {
            return discard(ctx, l);
        }
        return lowest(&winners);
    }
    let masters = those(&winners, |c| ctx.is_master(c));
    if !masters.is_empty() {
        return lowest(&masters);
    }
    if ctx.friend(ws) {
        return lowest(l);
    }
    // Third hand high, second hand low.
    if ctx.trick().len() + 2 == ctx.players {
        highest(&winners)
    } else {
        lowest(l)
    }
}

fn lead_tricks(ctx: &Ctx, l: &[Card]) -> Option<Card> {
    let declaring = ctx.on_declarer_side(ctx.seat);
    if let Some(t) = ctx.trump {
        let mine = CardSet::from_cards(l).of_suit(t);
        let out = ctx.unseen_in(t);
        if let Some(high) = top(mine).filter(|_| declaring && out > 0) {
            if ctx.is_master(high) && (mine.len() >= 2 || out <= 2) {
                return Some(high);
            }
            if mine.len() >= 4 {
                return Some(high);
            }
        }
    }
    // Cash a master in a side suit that others still hold.
    let masters = those(l, |c| {
        Some(c.suit) != ctx.trump && ctx.is_master(c) && ctx.unseen_in(c.suit) > 0
    });
    if let Some(c) = masters
        .iter()
        .copied()
        .max_by_key(|c| (c.rank, std::cmp::Reverse(c.index())))
    {
        return Some(c);
    }
    // A low card of the longest side suit, not away from an unguarded king.
    let mut side = CardSet::from_cards(l);
    if let Some(t) = ctx.trump {
        side = side.minus(side.of_suit(t));
    }
    if side.is_empty() {
        return lowest(l);
    }
    Suit::ALL
        .iter()
        .filter_map(|&s| {
            let cs = side.of_suit(s);
            let c = bottom(cs)?;
            let bare_k = cs.len() == 2 && top(cs).is_some_and(|h| h.rank == Rank::KING);
            Some((c, cs.len() as i32 - 3 * i32::from(bare_k)))
        })
        .max_by_key(|&(c, score)| (score, std::cmp::Reverse(c.rank)))
        .map(|(c, _)| c)
}

/// Take no trick: duck with the highest card that stays under the winner, throw the most
/// dangerous card when void, lead the lowest card others must beat.
fn avoid(ctx: &Ctx, l: &[Card]) -> Option<Card> {
    if ctx.trick().is_empty() {
        return l.iter().copied().min_by_key(|&c| {
            let lower = below(ctx.unseen, c).len();
            (ctx.is_master(c), lower, c.rank)
        });
    }
    let w = ctx.trick()[ctx.winner_index()];
    let led = ctx.trick()[0].suit;
    if !l.iter().any(|c| c.suit == led) {
        return throw_danger(ctx, l);
    }
    let under = those(l, |c| !ctx.beats(c, w));
    if let Some(c) = highest(&under) {
        return Some(c);
    }
    if ctx.trick().len() + 1 == ctx.players {
        highest(l)
    } else {
        lowest(l)
    }
}

/// The card most likely to win a trick later: high, in a suit with few low cards to duck with.
fn throw_danger(ctx: &Ctx, l: &[Card]) -> Option<Card> {
    l.iter().copied().max_by_key(|&c| {
        let lower_mine = ctx
            .hand_set
            .iter()
            .filter(|h| h.suit == c.suit && h.rank < c.rank)
            .count() as i32;
        (i32::from(c.rank.value()) * 2 - lower_mine, c.index())
    })
}

pub(super) fn piek(ctx: &Ctx, l: &[Card]) -> Option<Card> {
    if ctx.tricks_won.get(ctx.seat).copied().unwrap_or(0) >= 1 {
        return avoid(ctx, l);
    }
    // Win one trick, preferably with a master card.
    if ctx.trick().is_empty() {
        let masters = those(l, |c| ctx.is_master(c));
        return highest(&masters).or_else(|| avoid(ctx, l));
    }
    let w = ctx.trick()[ctx.winner_index()];
    let winners = those(l, |c| ctx.beats(c, w));
    let last = ctx.trick().len() + 1 == ctx.players;
    if last {
        if let Some(c) = lowest(&winners) {
            return Some(c);
        }
    }
    let sure = those(&winners, |c| ctx.is_master(c));
    lowest(&sure).or_else(|| avoid(ctx, l))
}

/// Against misère / piek: make a declarer win tricks.
fn against_misere(ctx: &Ctx, l: &[Card]) -> Option<Card> {
    let decl: Few<usize, 4> = few(ctx.declarers().iter().copied().filter(|&d| d != ctx.seat), 0);
    if ctx.trick().is_empty() {
        // With an open hand: lead a suit where the declarer's lowest card beats my lowest.
        let mine = CardSet::from_cards(l);
        let best = ctx
            .exposed
            .iter()
            .enumerate()
            .filter_map(|(s, open)| open.filter(|_| decl.contains(&s)))
            .flat_map(|theirs| {
                Suit::ALL.iter().filter_map(move |&s| {
                    let (t, m) = (bottom(theirs.of_suit(s))?, bottom(mine.of_suit(s))?);
                    (t.rank > m.rank).then_some((m, t.rank.value() as i32 - m.rank.value() as i32))
                })
            })
            .max_by_key(|&(c, margin)| (margin, std::cmp::Reverse(c.rank)));
        if let Some((c, _)) = best {
            return Some(c);
        }
        return lowest(l);
    }
    let wi = ctx.winner_index();
    let w = ctx.trick()[wi];
    let led = ctx.trick()[0].suit;
    let follows = l.iter().any(|c| c.suit == led);
    let under = those(l, |c| !ctx.beats(c, w));
    let declarer_winning = decl.contains(&ctx.seat_at(wi));
    let declarer_to_come = ctx.after_me().iter().any(|s| decl.contains(s));
    if !follows {
        // A discard never wins (no trump): throw the highest card.
        return throw_high(l);
    }
    if declarer_winning || declarer_to_come {
        // Keep the bar low: stay under the winning card, with the highest such card.
        return highest(&under).or_else(|| lowest(l));
    }
    // The declarer is safe in this trick: get rid of a high card.
    highest(l)
}

fn throw_high(l: &[Card]) -> Option<Card> {
    highest(l)
}

/// Schoppen mieën: never win ♠Q; otherwise take few tricks.
fn mie(ctx: &Ctx, l: &[Card]) -> Option<Card> {
    let qs = Card::new(Rank::QUEEN, Suit::Spades);
    if l.contains(&qs) && !ctx.trick().is_empty() {
        let w = ctx.trick()[ctx.winner_index()];
        let led = ctx.trick()[0].suit;
        if led != Suit::Spades || ctx.beats(w, qs) {
            return Some(qs);
        }
    }
    if !ctx.trick().is_empty() && !l.iter().any(|c| c.suit == ctx.trick()[0].suit) {
        for r in [Rank::ACE, Rank::KING] {
            let c = Card::new(r, Suit::Spades);
            if l.contains(&c) && ctx.unseen.contains(qs) {
                return Some(c);
            }
        }
    }
    let safe = those(l, |c| c != qs);
    avoid(ctx, if safe.is_empty() { l } else { &safe })
}
