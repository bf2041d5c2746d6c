//! What the checker reports: the kinds of hazard, a hazard with its two lines, and the lesson
//! card that teaches each kind.

use serde::Serialize;

use super::messages;

/// What kind of mistake a hazard is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HazardKind {
    /// The host reads memory an async copy or kernel may still be writing.
    ReadBeforeSync,
    /// The host writes memory an async operation may still be reading (or writing).
    WriteWhileInFlight,
    /// Memory is freed or unregistered while an operation may still use it.
    FreeWhileInFlight,
    /// Two device operations that nothing orders touch the same bytes, one of them writing.
    DeviceRace,
    /// `cudaMemcpyAsync` from or to pageable memory (a warning).
    PageableAsync,
    /// Work on the legacy default stream in an exercise about overlap (a warning).
    DefaultStream,
    /// Memory, a registration, a stream or an event still held at the end.
    Leak,
}

impl HazardKind {
    /// Every kind, for what must cover them all (each kind's card is checked against the
    /// lessons); a test holds the list to the enum.
    pub const ALL: [HazardKind; 7] = [
        HazardKind::ReadBeforeSync,
        HazardKind::WriteWhileInFlight,
        HazardKind::FreeWhileInFlight,
        HazardKind::DeviceRace,
        HazardKind::PageableAsync,
        HazardKind::DefaultStream,
        HazardKind::Leak,
    ];
}

impl HazardKind {
    /// The name shown and used in JSON, e.g. `read-before-sync`.
    pub fn name(self) -> &'static str {
        match self {
            HazardKind::ReadBeforeSync => "read-before-sync",
            HazardKind::WriteWhileInFlight => "write-while-in-flight",
            HazardKind::FreeWhileInFlight => "free-while-in-flight",
            HazardKind::DeviceRace => "device-race",
            HazardKind::PageableAsync => "pageable-async",
            HazardKind::DefaultStream => "default-stream",
            HazardKind::Leak => "leak",
        }
    }

    /// Warnings point at slow code; the others at wrong code.
    pub fn is_warning(self) -> bool {
        matches!(self, HazardKind::PageableAsync | HazardKind::DefaultStream)
    }
}

/// One hazard: its kind, the line of the access, the line of the operation it races with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hazard {
    pub kind: HazardKind,
    pub line: u32,
    pub other_line: Option<u32>,
    pub message: String,
    /// The lesson card that teaches what went wrong.
    pub teaches: CardRef,
}

/// A lesson card, by lesson id and card title.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CardRef {
    pub lesson: &'static str,
    pub card: &'static str,
}

impl CardRef {
    /// Every card a hazard may point at (each must be a card of a shipped lesson).
    pub fn every() -> Vec<CardRef> {
        messages::every_card()
    }

    /// The card of `kind`.
    pub fn of(kind: HazardKind) -> CardRef {
        let (lesson, card) = messages::card(kind);
        CardRef { lesson, card }
    }
}

#[cfg(test)]
mod tests {
    use super::HazardKind;

    /// `ALL` holds every kind once: the match below stops compiling when a kind is added, and
    /// its position must then be in `ALL`.
    #[test]
    fn all_holds_every_kind_once() {
        let position = |k: HazardKind| match k {
            HazardKind::ReadBeforeSync => 0,
            HazardKind::WriteWhileInFlight => 1,
            HazardKind::FreeWhileInFlight => 2,
            HazardKind::DeviceRace => 3,
            HazardKind::PageableAsync => 4,
            HazardKind::DefaultStream => 5,
            HazardKind::Leak => 6,
        };
        let mut seen: Vec<usize> = HazardKind::ALL.into_iter().map(position).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..7).collect::<Vec<_>>());
    }
}
