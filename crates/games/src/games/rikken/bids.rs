//! Rikken contracts, their tokens and the bid ladder (rikken.md Sec. 4.1, 10.1).

use crate::options::Options;

/// How open a misère or piek is: closed, open (declarer's hand shown), or *met een praatje*
/// (all hands shown).
pub type Openness = u8;
pub const CLOSED: Openness = 0;
pub const OPEN: Openness = 1;
pub const PRAATJE: Openness = 2;

/// A contract: what a bid commits to, or a special deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contract {
    /// Rikken (8 tricks with the holder of the called ace); `beter`: hearts trump.
    Rik {
        beter: bool,
    },
    /// N alleen (N = 7..12); `beter`: hearts trump.
    Alone {
        n: u8,
        beter: bool,
    },
    /// Take no trick, no trump.
    Misere {
        open: Openness,
    },
    /// Take exactly one trick, no trump.
    Piek {
        open: Openness,
    },
    /// Holder of 3 or 4 aces with the holder of the fourth ace (or called K/Q).
    Malheur,
    /// All 13 tricks alone; `beter`: hearts trump.
    Solo {
        beter: bool,
    },
    /// Special deals, never bid: `all_pass=schoppen_mieen`, `special=op_voorhand`,
    /// `special=open_piek_totaal`.
    SchoppenMieen,
    OpVoorhand,
    OpenPiekTotaal,
}

use Contract::*;

/// The bids of the ladder from low to high, before options remove or move any.
const BIDS: &[Contract] = &[
    Rik { beter: false },
    Rik { beter: true },
    Alone { n: 7, beter: false },
    Alone { n: 7, beter: true },
    Alone { n: 8, beter: false },
    Alone { n: 8, beter: true },
    Misere { open: CLOSED },
    Piek { open: CLOSED },
    Alone { n: 9, beter: false },
    Alone { n: 9, beter: true },
    Alone { n: 10, beter: false },
    Alone { n: 10, beter: true },
    Alone { n: 11, beter: false },
    Alone { n: 11, beter: true },
    Alone { n: 12, beter: false },
    Alone { n: 12, beter: true },
    Malheur,
    Misere { open: OPEN },
    Piek { open: OPEN },
    Misere { open: PRAATJE },
    Piek { open: PRAATJE },
    Solo { beter: false },
    Solo { beter: true },
];

impl Contract {
    /// The protocol token of the bid (or special deal).
    pub fn token(self) -> String {
        let open = |o: Openness, base: &str| match o {
            CLOSED => base.to_string(),
            OPEN => format!("open_{base}"),
            _ => format!("open_{base}_praatje"),
        };
        match self {
            Rik { beter: false } => "rik".into(),
            Rik { beter: true } => "rik_beter".into(),
            Alone { n, beter: false } => format!("alone{n}"),
            Alone { n, beter: true } => format!("alone{n}_beter"),
            Misere { open: o } => open(o, "misere"),
            Piek { open: o } => open(o, "piek"),
            Malheur => "malheur".into(),
            Solo { beter: false } => "solo".into(),
            Solo { beter: true } => "solo_beter".into(),
            SchoppenMieen => "schoppen_mieen".into(),
            OpVoorhand => "op_voorhand".into(),
            OpenPiekTotaal => "open_piek_totaal".into(),
        }
    }

    /// Parses a bid token (not `pass`, not a `_join`): the inverse of [`token`](Self::token),
    /// read without making any token (a bot's auction reads every legal one).
    pub fn parse(token: &str) -> Option<Contract> {
        Some(match token {
            "rik" => Rik { beter: false },
            "rik_beter" => Rik { beter: true },
            "misere" => Misere { open: CLOSED },
            "piek" => Piek { open: CLOSED },
            "open_misere" => Misere { open: OPEN },
            "open_piek" => Piek { open: OPEN },
            "open_misere_praatje" => Misere { open: PRAATJE },
            "open_piek_praatje" => Piek { open: PRAATJE },
            "malheur" => Malheur,
            "solo" => Solo { beter: false },
            "solo_beter" => Solo { beter: true },
            "schoppen_mieen" => SchoppenMieen,
            "op_voorhand" => OpVoorhand,
            "open_piek_totaal" => OpenPiekTotaal,
            _ => {
                let rest = token.strip_prefix("alone")?;
                let (num, beter) = match rest.strip_suffix("_beter") {
                    Some(n) => (n, true),
                    None => (rest, false),
                };
                let n = match num {
                    "7" => 7,
                    "8" => 8,
                    "9" => 9,
                    "10" => 10,
                    "11" => 11,
                    "12" => 12,
                    _ => return None,
                };
                Alone { n, beter }
            }
        })
    }

    /// Misère or piek in any form.
    pub fn is_misere_piek(self) -> bool {
        matches!(self, Misere { .. } | Piek { .. })
    }

    pub fn openness(self) -> Openness {
        match self {
            Misere { open } | Piek { open } => open,
            _ => CLOSED,
        }
    }

    /// Hearts is trump by the bid itself.
    pub fn beter(self) -> bool {
        matches!(
            self,
            Rik { beter: true } | Alone { beter: true, .. } | Solo { beter: true }
        )
    }

    /// Played without a trump suit.
    pub fn no_trump(self) -> bool {
        matches!(self, Misere { .. } | Piek { .. } | SchoppenMieen | OpenPiekTotaal)
    }

    /// A partner is found through a called card.
    pub fn has_called_card(self) -> bool {
        matches!(self, Rik { .. } | Malheur | OpVoorhand)
    }

    /// The tricks the declaring side needs (a lower bound), for trick-target contracts.
    pub fn target(self) -> Option<usize> {
        match self {
            Rik { .. } | Malheur | OpVoorhand => Some(8),
            Alone { n, .. } => Some(n as usize),
            Solo { .. } => Some(13),
            _ => None,
        }
    }

    /// The joinable form: `misere_join` etc. (only plain misère by default, Sec. 4.6).
    pub fn join_token(self) -> String {
        format!("{}_join", self.token())
    }

    /// The contract a `_join` token joins.
    pub fn parse_join(token: &str) -> Option<Contract> {
        let base = token.strip_suffix("_join")?;
        Contract::parse(base).filter(|c| c.is_misere_piek())
    }

    /// A human name for summaries (`7 alleen`, `open misère met een praatje`, …).
    pub fn title(self) -> String {
        let open = |o: Openness, base: &str| match o {
            CLOSED => base.to_string(),
            OPEN => format!("open {base}"),
            _ => format!("open {base} met een praatje"),
        };
        match self {
            Rik { beter: false } => "rikken".into(),
            Rik { beter: true } => "beter rikken".into(),
            Alone { n, beter: false } => format!("{n} alleen"),
            Alone { n, beter: true } => format!("{n} beter"),
            Misere { open: o } => open(o, "misère"),
            Piek { open: o } => open(o, "piek"),
            Malheur => "malheur".into(),
            Solo { beter: false } => "solo".into(),
            Solo { beter: true } => "solo beter".into(),
            SchoppenMieen => "schoppen mieën".into(),
            OpVoorhand => "op voorhand rikken".into(),
            OpenPiekTotaal => "open piek totaal".into(),
        }
    }
}

/// The ladder in force: every biddable contract with its slot (misère and piek of the same
/// openness share a slot), from low to high.
#[derive(Clone, Debug)]
pub struct Ladder {
    bids: Vec<(Contract, usize)>,
    malheur: Option<usize>,
}

impl Ladder {
    pub fn new(options: &Options) -> Ladder {
        let lowest = options.int("lowest_alone_bid") as u8;
        let misere_above = options.int("misere_above") as u8;
        let piek = options.flag("piek_allowed");
        let malheur = options.get("malheur_mode") != "abolished";
        // The order of Sec. 4.1 with the alone bids below `lowest` removed and the closed
        // misère/piek slot moved to just above "misere_above beter" (Sec. 10.1).
        let mut order: Vec<Contract> = Vec::new();
        let closed_mp = [Misere { open: CLOSED }, Piek { open: CLOSED }];
        let mut placed = false;
        for &c in BIDS {
            match c {
                Misere { open: CLOSED } | Piek { open: CLOSED } => continue,
                Alone { n, .. } if n < lowest => continue,
                Alone { n, beter: false } if n > misere_above && !placed => {
                    order.extend(closed_mp);
                    placed = true;
                }
                Malheur if !placed => {
                    order.extend(closed_mp);
                    placed = true;
                }
                _ => {}
            }
            order.push(c);
        }
        let mut bids = Vec::new();
        let mut slot = 0;
        for c in order {
            if matches!(c, Piek { .. }) {
                // Piek shares misère's slot (pushed just before it).
                if piek {
                    bids.push((c, slot - 1));
                }
                continue;
            }
            if c == Malheur && !malheur {
                continue;
            }
            bids.push((c, slot));
            slot += 1;
        }
        let malheur = bids.iter().find(|&&(c, _)| c == Malheur).map(|&(_, s)| s);
        Ladder { bids, malheur }
    }

    /// Every biddable contract, low to high.
    pub fn bids(&self) -> impl Iterator<Item = Contract> + '_ {
        self.bids.iter().map(|&(c, _)| c)
    }

    /// Every biddable contract with its slot, low to high.
    pub fn slots(&self) -> impl Iterator<Item = (Contract, usize)> + '_ {
        self.bids.iter().copied()
    }

    /// The slot of malheur, if it is biddable.
    pub fn malheur_slot(&self) -> Option<usize> {
        self.malheur
    }

    /// The slot of a biddable contract (higher slots overbid lower ones).
    pub fn slot(&self, c: Contract) -> Option<usize> {
        self.bids.iter().find(|&&(b, _)| b == c).map(|&(_, s)| s)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_contract_token_reads_back_and_nothing_else_does() {
        let all: Vec<super::Contract> = super::BIDS
            .iter()
            .copied()
            .chain([super::SchoppenMieen, super::OpVoorhand, super::OpenPiekTotaal])
            .collect();
        for c in &all {
            assert_eq!(super::Contract::parse(&c.token()), Some(*c), "{}", c.token());
        }
        for t in [
            "alone6",
            "alone13",
            "alone07",
            "alone",
            "alone9_",
            "alone9beter",
            "open_rik",
            "misere_join",
            "pass",
            "",
            "Rik",
        ] {
            assert_eq!(super::Contract::parse(t), None, "{t}");
        }
    }

    use super::*;
    use crate::games::rikken::options as rikken_options;

    fn ladder(rules: &[&str]) -> Ladder {
        Ladder::new(&Options::resolve(&rikken_options(), "rikken", rules).unwrap())
    }

    fn tokens(l: &Ladder) -> Vec<String> {
        l.bids().map(|c| c.token()).collect()
    }

    #[test]
    fn default_ladder_has_twenty_slots_and_twenty_three_names() {
        let l = ladder(&[]);
        let names = tokens(&l);
        assert_eq!(names.len(), 23);
        let slots: std::collections::BTreeSet<_> = l.bids().map(|c| l.slot(c).unwrap()).collect();
        assert_eq!(slots.len(), 20);
        assert_eq!(&names[..3], ["rik", "rik_beter", "alone7"]);
        let pos = |t: &str| names.iter().position(|n| n == t).unwrap();
        assert!(pos("alone8_beter") < pos("misere") && pos("misere") < pos("alone9"));
        assert_eq!(l.slot(Misere { open: CLOSED }), l.slot(Piek { open: CLOSED }));
        assert_eq!(l.slot(Misere { open: PRAATJE }), l.slot(Piek { open: PRAATJE }));
        assert!(l.slot(Alone { n: 12, beter: true }) < l.slot(Malheur));
        assert!(l.slot(Malheur) < l.slot(Misere { open: OPEN }));
        assert_eq!(names.last().unwrap(), "solo_beter");
    }

    #[test]
    fn options_move_and_remove_bids() {
        let l = ladder(&["lowest_alone_bid=9", "misere_above=10"]);
        let names = tokens(&l);
        assert!(!names.contains(&"alone7".to_string()) && !names.contains(&"alone8_beter".to_string()));
        let pos = |t: &str| names.iter().position(|n| n == t).unwrap();
        assert!(pos("alone10_beter") < pos("misere") && pos("misere") < pos("alone11"));
        let l = ladder(&["piek_allowed=false", "malheur_mode=abolished"]);
        let names = tokens(&l);
        assert!(names.iter().all(|n| !n.contains("piek") && n != "malheur"));
        assert_eq!(names.len(), 19);
    }

    #[test]
    fn tokens_round_trip() {
        for &c in BIDS {
            assert_eq!(Contract::parse(&c.token()), Some(c));
        }
        assert_eq!(Contract::parse_join("misere_join"), Some(Misere { open: CLOSED }));
        assert_eq!(Contract::parse_join("rik_join"), None);
        assert_eq!(Contract::parse("alone13"), None);
    }
}
