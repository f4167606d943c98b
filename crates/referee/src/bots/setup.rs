//! The setup of a game as the protocol's lines give it (`game`, `option`, `players`, `seat`),
//! gathered until the bot can make the game's [`GameInfo`]: for bots run over the protocol.

use crate::game::{Arg, GameInfo, GameSpec};
use crate::options::Options;

/// The setup of a game as it comes over the protocol (`game`, `option`, `players`, `seat`):
/// what an in-process bot is given as a [`GameInfo`].
#[derive(Default)]
pub(crate) struct SetupLines {
    game: Option<String>,
    options: Vec<(String, String)>,
    players: Option<usize>,
    seat: Option<usize>,
}

impl SetupLines {
    /// Takes a setup line (`game` starts a new setup); false for any other line.
    pub(crate) fn take(&mut self, kind: &str, args: &[Arg]) -> bool {
        let arg = |i: usize| args.get(i).map(Arg::to_string).unwrap_or_default();
        match kind {
            "game" => {
                *self = SetupLines {
                    game: Some(arg(0)),
                    ..SetupLines::default()
                }
            }
            "option" => self.options.push((arg(0), arg(1))),
            "players" => self.players = arg(0).parse().ok(),
            "seat" => self.seat = arg(0).parse().ok(),
            _ => return false,
        }
        true
    }

    /// The game and its setup once every line is in (the options checked).
    pub(crate) fn info(&self) -> Option<(GameSpec, GameInfo)> {
        let (Some(game), Some(players), Some(seat)) = (&self.game, self.players, self.seat) else {
            return None;
        };
        let spec = crate::games::find(game)?;
        let options = Options::from_pairs(&(spec.options)(), game, &self.options).ok()?;
        let info = GameInfo {
            game: game.clone(),
            options,
            players,
            seat,
        };
        Some((spec, info))
    }
}
