//! One conversation with the tutor: the turns about one card or one exercise, oldest first,
//! bounded in count and in characters (the oldest turns go first), so neither the request nor
//! the saved file can grow without end.

use serde::{Deserialize, Serialize};

/// Most turns kept (a question and its answer are two).
pub const MAX_TURNS: usize = 40;
/// Most characters kept over all turns.
pub const MAX_CHARS: usize = 60_000;

/// Who said it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

impl Role {
    /// The role's name in both protocols' `messages`.
    pub fn wire(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub role: Role,
    pub text: String,
}

/// The turns about one card or exercise.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Conversation {
    pub turns: Vec<Turn>,
}

impl Conversation {
    /// Add a turn, then drop the oldest turns until the bounds hold (a single turn over
    /// [`MAX_CHARS`] is cut to it).
    pub fn push(&mut self, role: Role, text: &str) {
        let text: String = text.chars().take(MAX_CHARS).collect();
        self.turns.push(Turn { role, text });
        self.bound();
    }

    /// Drop the oldest turns until at most [`MAX_TURNS`] and [`MAX_CHARS`] remain (also after
    /// a load: a file edited by hand is held to the same bounds).
    pub fn bound(&mut self) {
        while self.turns.len() > MAX_TURNS || (self.chars() > MAX_CHARS && self.turns.len() > 1) {
            self.turns.remove(0);
        }
        if self.chars() > MAX_CHARS
            && let Some(only) = self.turns.first_mut()
        {
            only.text = only.text.chars().take(MAX_CHARS).collect();
        }
    }

    /// Characters over all turns.
    pub fn chars(&self) -> usize {
        self.turns.iter().map(|t| t.text.chars().count()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_turns_go_first() {
        let mut c = Conversation::default();
        for i in 0..(MAX_TURNS + 5) {
            c.push(Role::User, &format!("q{i}"));
        }
        assert_eq!(c.turns.len(), MAX_TURNS);
        assert_eq!(c.turns[0].text, "q5");
        assert_eq!(c.turns.last().map(|t| t.text.as_str()), Some("q44"));
    }

    #[test]
    fn characters_are_bounded_too() {
        let mut c = Conversation::default();
        let big = "x".repeat(MAX_CHARS / 3 + 1);
        for _ in 0..4 {
            c.push(Role::Assistant, &big);
        }
        assert!(c.chars() <= MAX_CHARS, "{}", c.chars());
        assert_eq!(c.turns.len(), 2);
        c.push(Role::User, &"y".repeat(MAX_CHARS * 2));
        assert_eq!(c.chars(), MAX_CHARS);
        assert_eq!(c.turns.len(), 1);
    }
}
