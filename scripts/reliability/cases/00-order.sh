# The order of the table: the review's failures first, then its passes, then the variants.
all_cases() {
    run_case C1 c1_list_check
    run_case C2 c2_profile_fields
    run_case C3 c3_sim_oom
    run_case C4 c4_two_instances
    run_case C5 c5_linear
    run_case C6 c6_missing_symbol
    signals_basic
    signals_suspend
    run_case M3 m3_full_stdout
    run_case M5 m5_calibrate_atomic
    run_case M4 m4_calibrate_no_gpu
    run_case m1 m1_failed_trace
    run_case m2 m2_export_links
    run_case m3 m3_kill_mid_save
    run_case m4 m4_symlinked_progress
    run_case m5 m5_state_under_file
    run_case m11 m11_stub
    run_case m12 m12_hang
    run_case m9 m9_stale_progress
    run_case m10 m10_absurd_profiles
    run_case m13a m13_dumb
    run_case m13b m13_rest
    run_case m13c m13_crash_logs
    run_case m6 m6_metrics
    run_case m7 m7_choices
    run_case m8 m8_reported
    run_case P1 p1_tui_hostile
    run_case P2 p2_list_json
    run_case P3 p3_run_json
    run_case P4 p4_non_utf8_args
    p5_8_odd_entries
    run_case P9 p9_unreadable
    run_case P10 p10_huge_lesson
    run_case P11 p11_16mib_tui
    p12_13_many_cards
    run_case P14 p14_many_files
    p15_16_quiz_diagnostics
    run_case P17 p17_non_md
    progress_cases
    p24_25_state_fs
    p26_30_trace_targets
    run_case P31 p31_trace_overwrite
    p32_33_export_cwd
    run_case P34 p34_numbers
    p35_36_big
    p37_38_profiles
    run_case P39 p39_closed_stdout
    run_case P40 p40_terms
    run_case P41 p41_sizes
    run_case P45 p45_term_during_run
    run_case P46 p46_resizes
    run_case P47 p47_hangup
    run_case P48 p48_fuzz
    run_case P49 p49_junk_lib
    run_case P50 p50_tui_bad_driver
    run_case P51 p51_calibrate_bad_out
    p52_53_xdg
    run_case P54 p54_no_tty
    run_case V1 v_error_paths
    run_case V2 v_memory_limit
    run_case V3 v_memory_gpu
    run_case V5 v_crash_in_cuinit
    run_case V6 gpu_rows
    run_case V7 v_quit_while_probing
    run_case V8 v_exercise_output
    exercise_surfaces
    review_rest
    macro_cases
    review_b_cases
    variant_cases
}
