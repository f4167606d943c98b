//! What a search bot found at its last decision, for people: each legal action's value for the
//! seat and its gain on the playout policy's choice (`croupier ask` prints it). Built-in search
//! bots give it ([`Bot::analysis`](super::Bot::analysis)); a bot over the protocol does not.

/// One legal action at the decision searched.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionValue {
    /// The action's token.
    pub action: String,
    /// Its mean value for the seat over the worlds searched, weighted by their weights (the
    /// seat's score at the end of the playouts); `None` where a world refused it.
    pub mean: Option<f64>,
    /// Its mean gain on the playout policy's choice, world by world; `None` for that choice
    /// itself, where there is none, or where a world refused one of the two.
    pub gain: Option<f64>,
    /// The standard error of `gain`.
    pub se: Option<f64>,
}

/// A decision searched.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The worlds (deals the seat cannot tell from the real one) searched.
    pub worlds: usize,
    /// Their effective number under their weights (a world weighs less for each action of
    /// another seat unlike the playout policy's).
    pub effective_worlds: f64,
    /// The playout policy's choice, which another action must beat, if it was asked.
    pub policy: Option<String>,
    /// By how many standard errors another action must gain on the policy's choice to be
    /// chosen (0: the best mean is chosen).
    pub sure: f64,
    /// The action chosen.
    pub chosen: String,
    /// Every legal action, in the order the referee listed them.
    pub actions: Vec<ActionValue>,
}

impl Analysis {
    /// The mean value of `action` (`None` where it is not listed or a world refused it).
    pub fn mean(&self, action: &str) -> Option<f64> {
        self.actions.iter().find(|v| v.action == action).and_then(|v| v.mean)
    }

    /// A value as people read it: `+0.74`, or `refused` where a world refused the action.
    pub fn value_text(mean: Option<f64>) -> String {
        mean.map_or("refused".to_string(), |m| format!("{m:+.2}"))
    }

    /// As JSON (numbers that are not finite as `null`).
    pub fn to_json(&self) -> serde_json::Value {
        let actions: Vec<serde_json::Value> = self
            .actions
            .iter()
            .map(|a| serde_json::json!({"action": a.action, "mean": a.mean, "gain": a.gain, "se": a.se}))
            .collect();
        serde_json::json!({
            "worlds": self.worlds,
            "effective_worlds": self.effective_worlds,
            "policy": self.policy,
            "sure": self.sure,
            "chosen": self.chosen,
            "actions": actions,
        })
    }
}
