//! The lesson cards the checker's hazard messages link to (`exercise::hazards::CardRef`): a
//! lesson that renames or drops one breaks the link, and `cuda-academy check` says so. A folder
//! without the linked lesson is not a problem: a folder given with `--lessons` need not hold
//! the shipped lessons (the tests hold the built-in ones to every link).

use super::{Catalog, Diagnostic};
use crate::exercise::hazards::CardRef;

impl Catalog {
    /// One problem per hazard link whose lesson is in the catalog without the linked card.
    pub fn hazard_link_problems(&self) -> Vec<Diagnostic> {
        let lessons: Vec<_> = self.entries.iter().filter_map(|e| e.lesson()).collect();
        let mut out: Vec<Diagnostic> = Vec::new();
        for link in CardRef::every() {
            let Some(lesson) = lessons.iter().find(|l| l.id() == link.lesson) else {
                continue;
            };
            let message = format!(
                "no card titled {:?}: the exercise checker's hazard messages link to it; keep \
                 that heading, or change the link in src/exercise/hazards/messages.rs",
                link.card
            );
            let found = lesson.cards.iter().any(|c| c.title() == link.card);
            // A card two hazards link to is one problem, not two.
            if !found
                && !out
                    .iter()
                    .any(|d| d.message == message && d.file == lesson.source)
            {
                out.push(Diagnostic::new(&lesson.source, 1, message));
            }
        }
        out
    }
}
