//! The judge's domain as the service keeps it: values and rules of play with no framework type
//! in them (no axum, no sqlx, no mail), checked where they come in (docs/ARCHITECTURE.md).

pub mod account;
mod error;
mod game;
mod notification;
pub mod play;
mod settings;

pub use error::{DomainError, Limited, MasterAction, MasterError, SeatError, SettingError};
pub use game::{Game, Member, Pending};
pub use notification::{Notification, PhaseResult, PowerName, Speaker};
pub use settings::{GameSettings, RuleOptions};

/// A closed set of words as stored in the database and shown in the API: `as_str` names each
/// value, `from_stored` reads one back (none for a word that is no value: a broken row).
macro_rules! stored_words {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $word:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
        #[serde(rename_all = "lowercase")]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every value, in order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The word stored and shown for the value.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }

            /// The value a stored word names; none for a word that names none (a broken row).
            pub fn from_stored(word: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.as_str() == word)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

stored_words! {
    /// Where a game stands.
    GameStatus {
        /// Players join; the master starts it.
        Forming = "forming",
        /// Being played.
        Active = "active",
        /// Over: won, drawn or conceded.
        Finished = "finished",
    }
}

stored_words! {
    /// What a member of a game is.
    Role {
        /// Plays a power (assigned when the game starts).
        Player = "player",
        /// Watches: reads broadcasts and results, orders nothing.
        Observer = "observer",
    }
}

stored_words! {
    /// What press a game allows.
    PressPolicy {
        /// Messages with their senders named.
        Full = "full",
        /// Messages whose sending power is hidden from the readers.
        Grey = "grey",
        /// No messages between players (the master may still announce).
        None = "none",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_word_reads_back_as_its_value_and_nothing_else_is_one() {
        for s in GameStatus::ALL {
            assert_eq!(GameStatus::from_stored(s.as_str()), Some(*s));
            assert_eq!(serde_json::to_value(s).expect("JSON"), s.as_str());
        }
        for r in Role::ALL {
            assert_eq!(Role::from_stored(&r.to_string()), Some(*r));
        }
        for p in PressPolicy::ALL {
            assert_eq!(serde_json::to_value(p).expect("JSON"), p.as_str());
        }
        assert_eq!(GameStatus::from_stored("Active"), None);
        assert_eq!(Role::from_stored(""), None);
        assert_eq!(PressPolicy::from_stored("white"), None);
    }
}
