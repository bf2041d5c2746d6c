# Function-like macros (expanded before parsing since this session, src/exercise/parse/macros.rs):
# hostile uses must be diagnostics within seconds, never a hang, a crash or unbounded memory.

macro_cases() {
    run_case MX1 mx1_macro_bombs
}

mx1_macro_bombs() {
    case_start MX1 critical "exercise check of macro bombs (each level 4 copies, 16 deep; a 40-deep chain; a self-reference; an invocation left open over 10,000 lines; a 2 GB address-space limit)"
    local bad="" k rc t0
    {
        echo '#define L0(x) x x x x'
        for k in $(seq 1 15); do echo "#define L$k(x) L$((k - 1))(x) L$((k - 1))(x) L$((k - 1))(x) L$((k - 1))(x)"; done
        printf 'int main()\n{\n    L15(abcdefgh);\n    return 0;\n}\n'
    } >"$CASE_DIR/bomb.cu"
    {
        echo '#define D0(x) x'
        for k in $(seq 1 39); do echo "#define D$k(x) D$((k - 1))(x)"; done
        printf 'int main()\n{\n    int y = D39(1);\n    return 0;\n}\n'
    } >"$CASE_DIR/deep.cu"
    printf '#define R(x) R(x)\nint main()\n{\n    R(1);\n    return 0;\n}\n' >"$CASE_DIR/self.cu"
    { printf '#define F(a) a\nint main()\n{\n    F(1,\n'; for k in $(seq 1 10000); do echo '2,'; done; printf '    return 0;\n}\n'; } >"$CASE_DIR/open.cu"
    for f in bomb deep self open; do
        t0=$SECONDS
        (cd "$CASE_DIR" && cav "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/$f.cu" --backend sim >"$CASE_DIR/$f.out" 2>&1)
        rc=$?
        [ $rc = 1 ] && no_panic "$CASE_DIR/$f.out" && [ $((SECONDS - t0)) -le 30 ] || bad="$bad [$f: exit $rc after $((SECONDS - t0)) s]"
    done
    grep -q 'more than 4 MiB' "$CASE_DIR/bomb.out" || bad="$bad [bomb: $(grep -m1 -o 'more than[^;]*' "$CASE_DIR/bomb.out")]"
    grep -q 'more than 16 deep' "$CASE_DIR/deep.out" || bad="$bad [deep]"
    grep -q 'not closed (within 64 lines)' "$CASE_DIR/open.out" || bad="$bad [open]"
    [ -z "$bad" ]
    verdict $? "bomb: $(grep -m1 -o 'macro expansion[^;]*' "$CASE_DIR/bomb.out"); deep: $(grep -m1 -o 'expands macros more than [0-9]* deep' "$CASE_DIR/deep.out"); self: exit 1 ($(grep -m1 -o '`R` is not supported here' "$CASE_DIR/self.out")); open: $(grep -m1 -o 'not closed (within [0-9]* lines)' "$CASE_DIR/open.out")$bad"
}
