//! The house rules of our documents' e-mail games, chosen per game and carried in its position
//! (the JSON state's `options`), so every phase is adjudicated as the game was set up.

/// The house rules a game is played with; all off by default (the rulebook's game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HouseRules {
    /// Retreats only with the moves (seed 000 §10b): no retreat phase is held. Retreats come
    /// only as orders given with the moves (priority lists, conditions on the attacker, the
    /// power-wide rule); a dislodged unit without a usable one is disbanded, and a standoff of
    /// such retreats disbands every unit in it (§10c).
    pub retreats_with_moves: bool,
}
