use super::{CallId, OrderRule, TABLE, find};
use crate::exercise::api;
use crate::ordering::rules::{self, Way};

#[test]
fn each_id_is_its_rows_index_and_each_name_is_one_row() {
    for (i, row) in TABLE.iter().enumerate() {
        assert_eq!(row.id as usize, i, "{}", row.name);
        assert_eq!(row.id.row(), row);
        assert_eq!(find(row.name), Some(row));
        assert_eq!(
            TABLE.iter().filter(|r| r.name == row.name).count(),
            1,
            "{} twice",
            row.name
        );
    }
    assert_eq!(find("cudaMemcpy2D"), None);
}

#[test]
fn arity_follows_from_the_signature() {
    let arity = |id: CallId| id.row().arity();
    assert_eq!(arity(CallId::CudaMemcpy), (4, 4));
    assert_eq!(arity(CallId::CudaMemcpyAsync), (4, 5));
    assert_eq!(arity(CallId::CudaMemsetAsync), (3, 4));
    assert_eq!(arity(CallId::CudaEventRecord), (1, 2));
    assert_eq!(arity(CallId::CudaStreamWaitEvent), (2, 3));
    assert_eq!(arity(CallId::CudaMallocAsync), (3, 3));
    assert_eq!(arity(CallId::Dim3), (1, 3));
    assert_eq!(arity(CallId::Printf), (1, usize::MAX));
    assert_eq!(arity(CallId::CudaDeviceSynchronize), (0, 0));
    let memcpy = CallId::Memcpy.row();
    assert_eq!(
        memcpy.arity_error(2).as_deref(),
        Some("`memcpy` takes 3 arguments, not 2")
    );
    assert_eq!(memcpy.arity_error(3), None);
    assert_eq!(
        CallId::CudaMemcpyAsync.row().arity_error(6).as_deref(),
        Some("`cudaMemcpyAsync` takes 4 to 5 arguments, not 6")
    );
    assert_eq!(
        CallId::Printf.row().arity_error(0).as_deref(),
        Some("`printf` needs a format string")
    );
    assert_eq!(CallId::Printf.row().arity_error(9), None);
}

#[test]
fn the_form_is_what_the_learner_writes() {
    assert_eq!(
        CallId::CudaMemcpyAsync.row().form(),
        "cudaMemcpyAsync(dst, src, bytes, kind[, stream])"
    );
    assert_eq!(CallId::CudaMalloc.row().form(), "cudaMalloc(&ptr, bytes)");
    assert_eq!(CallId::Printf.row().form(), "printf(format, ...)");
    assert_eq!(CallId::NowMs.row().form(), "now_ms()");
}

/// A row's rule is about that call: its `call` names it (the copies' rules, picked by
/// direction and memory, name `cudaMemcpy` or `cudaMemcpyAsync`).
#[test]
fn each_rule_link_names_its_call() {
    let mut linked = 0;
    for row in TABLE {
        match row.ordering {
            OrderRule::Rule(rule) => {
                let calls: Vec<&str> = rule.call.split(", ").collect();
                assert!(
                    calls.contains(&row.name),
                    "{}'s rule is about {}",
                    row.name,
                    rule.call
                );
                linked += 1;
            }
            OrderRule::Copy => {
                let sync = row.id == CallId::CudaMemcpy;
                for way in [Way::HostToDevice, Way::DeviceToHost, Way::DeviceToDevice] {
                    for pageable in [false, true] {
                        assert_eq!(rules::copy(sync, way, pageable).call, row.name);
                    }
                }
                linked += 1;
            }
            OrderRule::Host
            | OrderRule::Handle
            | OrderRule::Marker
            | OrderRule::Waits
            | OrderRule::Polls => {}
        }
    }
    // Four releases, two copies, two memsets and three stream-ordered calls.
    assert_eq!(linked, 11);
}

/// The README's "supported subset" names every call of the table, and every CUDA or NVTX name
/// it shows in backticks is a call of the table or a constant of `api`.
#[test]
fn the_readme_subset_list_is_the_table() {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find("**The supported subset**")
        .expect("README has the subset list");
    let list = &readme[start..];
    let list = &list[..list.find("\n\n").unwrap_or(list.len())];
    for row in TABLE {
        let plain = format!("`{}`", row.name);
        let called = format!("`{}(", row.name);
        assert!(
            list.contains(&plain) || list.contains(&called),
            "README's subset list lacks `{}`",
            row.name
        );
    }
    for quoted in list.split('`').skip(1).step_by(2) {
        let ident: String = quoted
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // Types (`cudaStream_t`) have an underscore; calls and constants do not.
        let call_like = !ident.contains('_');
        if call_like && (ident.starts_with("cuda") || ident.starts_with("nvtx")) {
            assert!(
                find(&ident).is_some() || api::constant(&ident).is_some(),
                "README's subset list names `{ident}`, which is not in the call table"
            );
        }
    }
}
