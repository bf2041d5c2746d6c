//! The card that gives a prediction's answer is withheld until the learner has predicted: a
//! predict question's `answer_card` (`lesson::placement`) shows a note in its place while the
//! question has no prediction and no run has put its metric on screen. A run measured without
//! predicting shows the figure anyway, so the card is no secret after it (and `r` is the way on
//! for a learner who does not want to predict).

use crate::app::App;
use crate::lesson::LessonEntry;

impl App {
    /// The markdown shown in place of card `card` of the open lesson while it is withheld, or
    /// `None` when the card shows as written.
    pub fn withheld_card(&self, card: usize) -> Option<String> {
        let Some(LessonEntry::Ok(lesson)) = self.entry() else {
            return None;
        };
        let progress = self.progress.lessons.get(lesson.id());
        let waiting: Vec<&str> = lesson
            .answered_on(card)
            .filter(|q| {
                let predicted = progress
                    .and_then(|p| p.answers.get(&q.id))
                    .is_some_and(|r| !r.attempts.is_empty());
                let measured = q.metric.as_deref().and_then(|m| self.metric_text(m));
                !predicted && measured.is_none()
            })
            .map(|q| q.prompt.as_str())
            .collect();
        if waiting.is_empty() {
            return None;
        }
        let title = lesson.cards.get(card).map_or("", |c| c.title());
        let asks: String = waiting.iter().map(|p| format!("\n> {p}\n")).collect();
        Some(format!(
            "## {title}\n\n*Predict first.* This card gives the measured answer to {n} of the \
             quick check, not predicted yet:\n{asks}\nType your prediction in the quiz pane \
             (`Tab` to it, `Enter` to type), and this card opens. Or press `r` to run the \
             experiment without predicting: the figure is on screen then, and so is this card.",
            n = if waiting.len() == 1 {
                "a prediction question".to_string()
            } else {
                format!("{} prediction questions", waiting.len())
            },
        ))
    }
}

#[cfg(test)]
#[path = "withhold_tests.rs"]
mod tests;
