//! The dialogs and banners on their own: actions in, dialog and effect out.

use super::*;
use crate::app::links::LinkAction;

fn link(url: &str) -> Link {
    Link {
        url: url.to_string(),
        label: String::new(),
    }
}

#[test]
fn a_reset_is_carried_out_only_after_yes() {
    let mut o = Overlays::default();
    o.update(OverlayAction::AskReset(Reset::All), &[], 80);
    assert_eq!(o.dialog, Some(Overlay::Confirm(Reset::All)));
    assert_eq!(
        o.update(OverlayAction::ConfirmNo, &[], 80),
        OverlayEffect::None
    );
    assert_eq!(o.dialog, None);
    assert_eq!(
        o.update(OverlayAction::ConfirmYes, &[], 80),
        OverlayEffect::None,
        "nothing asked"
    );
    o.update(OverlayAction::AskReset(Reset::Lesson(2)), &[], 80);
    let effect = o.update(OverlayAction::ConfirmYes, &[], 80);
    assert_eq!(effect, OverlayEffect::Confirmed(Reset::Lesson(2)));
    assert_eq!(o.dialog, None);
}

#[test]
fn help_toggles_and_scrolls_within_its_text() {
    let mut o = Overlays::default();
    o.update(OverlayAction::ToggleHelp, &[], 80);
    o.update(OverlayAction::ScrollHelp { lines: 50, max: 7 }, &[], 80);
    assert_eq!((o.dialog.clone(), o.help_scroll), (Some(Overlay::Help), 7));
    o.update(OverlayAction::ScrollHelp { lines: -3, max: 7 }, &[], 80);
    assert_eq!(o.help_scroll, 4);
    o.update(OverlayAction::ToggleHelp, &[], 80);
    assert_eq!((o.dialog.clone(), o.help_scroll), (None, 0));
}

#[test]
fn the_links_dialog_selects_scrolls_and_asks_the_shell_only_while_open() {
    let links = [
        link("https://a.example/"),
        link(&format!("https://b.example/{}", "x".repeat(100))),
    ];
    let mut o = Overlays::default();
    let open = OverlayAction::Link(LinkAction::Open);
    assert_eq!(
        o.update(open.clone(), &links, 40),
        OverlayEffect::None,
        "closed: nothing"
    );
    o.update(OverlayAction::ToggleLinks, &links, 40);
    o.update(OverlayAction::Link(LinkAction::Select(5)), &links, 40);
    assert_eq!(o.links.selected, 1, "stops at the last link");
    o.update(
        OverlayAction::Link(LinkAction::Scroll { right: true }),
        &links,
        40,
    );
    assert_eq!(o.links.offset, 20, "half the screen");
    for _ in 0..10 {
        o.update(
            OverlayAction::Link(LinkAction::Scroll { right: true }),
            &links,
            40,
        );
    }
    assert_eq!(
        o.links.offset,
        links[1].url.len() - 40,
        "never past the end"
    );
    let copy = o.update(OverlayAction::Link(LinkAction::Copy), &links, 40);
    assert_eq!(
        copy,
        OverlayEffect::Cmd(Cmd::CopyText(links[1].url.clone()))
    );
    // A card without links says so instead of asking the shell.
    assert_eq!(o.update(open, &[], 40), OverlayEffect::None);
    assert_eq!(o.links.message.as_deref(), Some("This card has no links."));
    o.update(OverlayAction::ToggleLinks, &links, 40);
    assert_eq!(o.dialog, None);
}

#[test]
fn one_save_failure_banner_at_a_time_and_a_save_clears_it() {
    let mut o = Overlays::default();
    o.update(
        OverlayAction::Banner(Banner {
            kind: BannerKind::Info,
            text: "hello".into(),
        }),
        &[],
        80,
    );
    o.update(OverlayAction::SaveFailed("disk full".into()), &[], 80);
    o.update(OverlayAction::SaveFailed("still full".into()), &[], 80);
    let texts: Vec<&str> = o.banners.iter().map(|b| b.text.as_str()).collect();
    assert_eq!(texts, ["hello", "progress not saved: still full"]);
    o.update(OverlayAction::Saved, &[], 80);
    assert_eq!(o.banners.len(), 1);
    o.update(OverlayAction::DismissBanners, &[], 80);
    assert!(o.banners.is_empty());
}
