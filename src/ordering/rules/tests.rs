//! The rules table's own checks: what the H200 did covers what the API promises, and each copy
//! finds its row.

use super::{HostSyncs, HostWait, Observed, Stall, TABLE, Way, copy};

/// A call's observed wait is never less than its promise: the simulator, which does
/// `observed`, must not show a program safe that the promise allows.
#[test]
fn what_the_h200_did_covers_what_the_api_promises() {
    for rule in TABLE {
        let covers = match rule.promised {
            HostWait::None => true,
            HostWait::SourceTaken | HostWait::Staged => rule.observed != Observed::Returns,
            HostWait::Completion => {
                rule.observed == Observed::Completion || rule.host_syncs().after
            }
        };
        assert!(covers, "{} ({})", rule.call, rule.when);
    }
}

#[test]
fn a_synchronous_call_syncs_around_its_op_as_promised() {
    let syncs = |sync, way, pageable| copy(sync, way, pageable).host_syncs();
    let (first, after, none) = (
        HostSyncs {
            before: true,
            after: false,
        },
        HostSyncs {
            before: false,
            after: true,
        },
        HostSyncs {
            before: false,
            after: false,
        },
    );
    assert_eq!(syncs(true, Way::HostToDevice, true), first);
    assert_eq!(syncs(true, Way::HostToDevice, false), after);
    assert_eq!(syncs(true, Way::DeviceToHost, true), after);
    assert_eq!(syncs(true, Way::DeviceToDevice, false), none);
    // The async call itself blocks on the backend where the driver does.
    assert_eq!(syncs(false, Way::DeviceToHost, true), none);
    assert_eq!(syncs(false, Way::HostToDevice, true), none);
}

#[test]
fn a_pageable_upload_is_staged_only_when_it_fits() {
    let up = copy(false, Way::HostToDevice, true).observed;
    assert_eq!(up.stall(4096, 4096), Stall::Staging);
    assert_eq!(up.stall(4097, 4096), Stall::Op);
    let down = copy(false, Way::DeviceToHost, true).observed;
    assert_eq!(down.stall(1, 4096), Stall::Op);
    assert_eq!(
        copy(false, Way::HostToDevice, false)
            .observed
            .stall(1, 4096),
        Stall::None
    );
    assert_eq!(super::release(true).stall(1, 4096), Stall::Device);
    assert_eq!(super::release(false).stall(1, 4096), Stall::None);
}

#[test]
fn copies_follow_the_sync_behavior_page() {
    assert_eq!(
        copy(true, Way::HostToDevice, true).promised,
        HostWait::Staged
    );
    assert_eq!(
        copy(true, Way::HostToDevice, false).promised,
        HostWait::Completion
    );
    assert_eq!(
        copy(true, Way::DeviceToHost, true).promised,
        HostWait::Completion
    );
    assert_eq!(
        copy(true, Way::DeviceToDevice, false).promised,
        HostWait::None
    );
    assert_eq!(
        copy(false, Way::HostToDevice, true).promised,
        HostWait::SourceTaken
    );
    assert_eq!(
        copy(false, Way::DeviceToHost, true).promised,
        HostWait::Completion
    );
    assert_eq!(
        copy(false, Way::DeviceToHost, false).promised,
        HostWait::None
    );
}
