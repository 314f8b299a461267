//! The judge's domain as the service keeps it: values with no framework type in them (no axum,
//! no sqlx, no mail), checked where they come in. More of the domain moves here as the service
//! is layered (docs/ARCHITECTURE.md).

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Players join; the master starts it.
    Forming,
    /// Being played.
    Active,
    /// Over: won, drawn or conceded.
    Finished,
}

impl GameStatus {
    /// The status as stored and shown in the API (`forming`, `active`, `finished`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Forming => "forming",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
        }
    }

    /// The status a stored word names; none for a word that is no status (a broken row).
    pub fn from_stored(word: &str) -> Option<GameStatus> {
        [GameStatus::Forming, GameStatus::Active, GameStatus::Finished]
            .into_iter()
            .find(|s| s.as_str() == word)
    }
}

impl std::fmt::Display for GameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_reads_back_from_its_stored_word_and_nothing_else_is_one() {
        for s in [GameStatus::Forming, GameStatus::Active, GameStatus::Finished] {
            assert_eq!(GameStatus::from_stored(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).expect("JSON"), s.as_str());
        }
        assert_eq!(GameStatus::from_stored("Active"), None);
        assert_eq!(GameStatus::from_stored(""), None);
    }
}
