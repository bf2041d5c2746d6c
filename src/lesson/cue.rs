//! A card's panel cue: which comparison the experiment panel shows while the card is open, from a
//! line of the card that is exactly `<!-- panel: NAME -->` (an HTML comment: the card's text does
//! not show it). Lesson 4's cards on breadth-first say `<!-- panel: breadth-first -->` and see the
//! best breadth-first run against the best per-chunk run; its card on one stream per stage says
//! `<!-- panel: by-stage -->`. A card without a cue shows the panel's default comparison.
//! `validate::cues` makes a cue a `cuda-academy check` diagnostic when it names no view, names
//! one twice, or names one of an experiment the lesson does not run.

use super::Card;
use crate::experiment::options::IssueOrder;
use crate::experiment::registry::{self, Param};

const OPEN: &str = "<!-- panel:";
const CLOSE: &str = "-->";

/// What a cue asks the panel to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PanelCue {
    /// The pipeline's best run in this layout against its best per-chunk run, on one scale.
    Layout(IssueOrder),
}

impl PanelCue {
    /// Every cue a card may give, by its name in the lesson file (the layouts' own names).
    pub const ALL: [PanelCue; 2] = [
        PanelCue::Layout(IssueOrder::BreadthFirst),
        PanelCue::Layout(IssueOrder::ByStage),
    ];

    /// Its name in `<!-- panel: NAME -->`.
    pub fn name(self) -> &'static str {
        match self {
            PanelCue::Layout(order) => order.name(),
        }
    }

    /// The experiment whose panel it applies to: for a layout, the one whose parameters
    /// include the issue order (the registry says which; `""`, matching no experiment, when
    /// none does).
    pub fn experiment(self) -> &'static str {
        match self {
            PanelCue::Layout(_) => registry::ALL
                .into_iter()
                .find(|spec| spec.takes(Param::Order))
                .map_or("", |spec| spec.id),
        }
    }

    /// The cue called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<PanelCue> {
        PanelCue::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The cue lines of `card` outside code fences: (line offset in the card, the name given).
pub(crate) fn cue_lines(card: &Card) -> Vec<(usize, &str)> {
    let mut fence = false;
    let mut out = Vec::new();
    for (i, line) in card.markdown.lines().enumerate() {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        if let Some(rest) = t.strip_prefix(OPEN).and_then(|r| r.strip_suffix(CLOSE)) {
            out.push((i, rest.trim()));
        }
    }
    out
}

impl Card {
    /// The card's panel cue, if it gives a valid one (see the module docs).
    pub fn panel_cue(&self) -> Option<PanelCue> {
        cue_lines(self)
            .into_iter()
            .find_map(|(_, name)| PanelCue::from_name(name))
    }
}
