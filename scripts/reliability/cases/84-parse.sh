# Variants of review 2026-12-01b's parse causes (issue 29; src/exercise/parse/macros/scan.rs, the
# one bounded expansion of object-like and function-like macros; src/exercise/parse.rs, the parse
# polling the check's halt): each a diagnostic or a verdict within seconds, under a 2 GB
# address-space limit, never an abort, a hang or a stack overflow.

variants_parse() {
    run_case VP1 vp1_define_bombs
    run_case VP2 vp2_defines_and_function_macros
    run_case VP3 vp3_35000_defines
    run_case VP4 vp4_paste_declaration_bomb
    run_case VP5 vp5_tui_cancel_long_parse
    run_case VP6 vp6_small_parse_causes
}

# vp_check NAME: `exercise check` of $CASE_DIR/NAME.cu under 2 GB into NAME.out; prints "rc secs".
vp_check() {
    local t0=$SECONDS rc
    (cd "$CASE_DIR" && cav "$CASE_DIR/s" exercise check time-a-copy "$CASE_DIR/$1.cu" --backend sim >"$CASE_DIR/$1.out" 2>&1)
    rc=$?
    echo "$rc $((SECONDS - t0))"
}

vp1_define_bombs() {
    case_start VP1 critical "object-like #define bombs (CK2's variants): a tripling chain 30 deep, a chain of 4 copies 15 deep (4^15 x 8 bytes), each used once"
    local bad="" r
    python3 - "$CASE_DIR" <<'PY'
import sys
d = sys.argv[1]
s = '#define A0 1\n' + ''.join(f'#define A{i} (A{i-1} * A{i-1} + A{i-1})\n' for i in range(1, 31))
open(f'{d}/triple.cu', 'w').write(s + 'int main()\n{\n    printf("%d\\n", A30);\n    return 0;\n}\n')
s = '#define B0 abcdefgh\n' + ''.join(f'#define B{i} B{i-1} B{i-1} B{i-1} B{i-1}\n' for i in range(1, 16))
open(f'{d}/wide.cu', 'w').write(s + 'int main()\n{\n    int B15;\n    return 0;\n}\n')
PY
    r=$(vp_check triple); [ "${r% *}" = 1 ] && [ "${r#* }" -le 30 ] && grep -q 'more than 16 deep' "$CASE_DIR/triple.out" && no_panic "$CASE_DIR/triple.out" || bad="$bad [triple: $r $(grep -m1 -o 'the macro[^;]*' "$CASE_DIR/triple.out")]"
    r=$(vp_check wide); [ "${r% *}" = 1 ] && [ "${r#* }" -le 30 ] && grep -q 'more than 4 MiB' "$CASE_DIR/wide.out" && no_panic "$CASE_DIR/wide.out" || bad="$bad [wide: $r $(grep -m1 -o 'macro expansion[^;]*' "$CASE_DIR/wide.out")]"
    [ -z "$bad" ]
    verdict $? "triple: $(grep -m1 -o 'the macro `[A-Z0-9]*` expands macros more than [0-9]* deep' "$CASE_DIR/triple.out"); wide: $(grep -m1 -o 'macro expansion makes the file more than [0-9]* MiB' "$CASE_DIR/wide.out"); each exit 1 within 30 s$bad"
}

vp2_defines_and_function_macros() {
    case_start VP2 critical "#define values and function-like macros mixed: SQ(N) through a define runs and prints 16; a chain alternating the two, 40 deep, is a diagnostic"
    local bad="" r
    printf '#include "academy.cuh"\n#define N 4\n#define SQ(x) ((x) * (x))\n#define M SQ(N)\nint main()\n{\n    printf("%%d\\n", M);\n    return 0;\n}\n' >"$CASE_DIR/mix.cu"
    python3 - "$CASE_DIR" <<'PY'
import sys
d = sys.argv[1]
s = '#define V0 1\n'
for i in range(1, 41):
    s += f'#define F{i}(x) (x + V{i-1})\n' if i % 2 else ''
    s += f'#define V{i} F{i}(V{i-1})\n' if i % 2 else f'#define V{i} (V{i-1} + 1)\n'
open(f'{d}/alt.cu', 'w').write(s + 'int main()\n{\n    int v = V40;\n    return v;\n}\n')
PY
    vp_check mix >/dev/null
    grep -qx '  16' "$CASE_DIR/mix.out" && grep -q 'pass.*runs to the end' "$CASE_DIR/mix.out" || bad="$bad [mix: $(grep -m1 'mix.cu:' "$CASE_DIR/mix.out")]"
    r=$(vp_check alt); [ "${r% *}" = 1 ] && [ "${r#* }" -le 30 ] && grep -q 'more than 16 deep' "$CASE_DIR/alt.out" && no_panic "$CASE_DIR/alt.out" || bad="$bad [alt: $r $(grep -m1 'alt.cu:' "$CASE_DIR/alt.out" | cut -c1-120)]"
    [ -z "$bad" ]
    verdict $? "mix printed $(grep -A1 'program output' "$CASE_DIR/mix.out" | tail -1 | tr -d ' '); alt: $(grep -m1 -o 'the macro `[A-Z0-9]*` expands macros more than [0-9]* deep' "$CASE_DIR/alt.out")$bad"
}

vp3_35000_defines() {
    case_start VP3 critical "35,000 chained #defines (CK3's worst case, just under the 1 MiB cap), the program using A9: parsed within 30 s"
    local r
    python3 - "$CASE_DIR/long.cu" <<'PY'
import sys
s = '#include "academy.cuh"\n#define A0 1\n' + ''.join(f'#define A{i} (A{i-1}+1)\n' for i in range(1, 35001))
s += 'int main()\n{\n    printf("%d\\n", A9);\n    return 0;\n}\n'
assert len(s) < 1 << 20
open(sys.argv[1], 'w').write(s)
PY
    r=$(vp_check long)
    [ "${r% *}" -le 1 ] && [ "${r#* }" -le 30 ] && ! grep -q 'parses' "$CASE_DIR/long.out" && grep -q 'pass.*runs to the end' "$CASE_DIR/long.out" && no_panic "$CASE_DIR/long.out"
    verdict $? "$(wc -c <"$CASE_DIR/long.cu") bytes: exit ${r% *} after ${r#* } s, $(grep -m1 -o '\[pass\] runs to the end[^)]*)' "$CASE_DIR/long.out")"
}

vp4_paste_declaration_bomb() {
    case_start VP4 critical "a ## declaration bomb through #defines (4 copies a level, 10 levels: a million int arrays) is a diagnostic, not gigabytes"
    local r
    {
        echo '#include "academy.cuh"'
        echo '#define D0(x) int x##0[4096]; int x##1[4096]; int x##2[4096]; int x##3[4096];'
        for k in $(seq 1 9); do echo "#define D$k(x) D$((k - 1))(x##0) D$((k - 1))(x##1) D$((k - 1))(x##2) D$((k - 1))(x##3)"; done
        echo '#define ALL D9(a)'
        printf 'int main()\n{\n    ALL\n    return 0;\n}\n'
    } >"$CASE_DIR/paste.cu"
    r=$(vp_check paste)
    [ "${r% *}" = 1 ] && [ "${r#* }" -le 30 ] && grep -q 'more than 4 MiB' "$CASE_DIR/paste.out" && no_panic "$CASE_DIR/paste.out"
    verdict $? "exit ${r% *} after ${r#* } s: $(grep -m1 -o 'macro expansion makes[^;]*' "$CASE_DIR/paste.out")"
}

vp5_tui_cancel_long_parse() {
    case_start VP5 major "TUI: CK4's file without a memory limit (tree-sitter parses 4 MB of \`(\` for seconds), Ctrl-R, Esc after 0.5 s (the check takes about 2 s on a debug build); then Esc, 4, r; q"
    local s="$CASE_DIR/s" bad="" i
    mkdir -p "$s/exercises"
    {
        echo '#include "academy.cuh"'
        echo '#define P(x) x(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((('
        for m in Q:P R:Q S:R T:S U:T V:U; do echo "#define ${m%:*}(x) ${m#*:}(x) ${m#*:}(x) ${m#*:}(x) ${m#*:}(x)"; done
        printf 'int main()\n{\n    int a = %s;\n    return 0;\n}\n' "$(printf 'V(1) %.0s' $(seq 1 15))"
    } >"$(ex_file "$s")"
    tui_ed rl-vp5 "$s"
    tmx_keys rl-vp5 F5; sleep 0.5
    tmx_flat rl-vp5 | grep -q 'checking' || bad="$bad [the check had already ended: $(tmx_flat rl-vp5 | grep -o 'parses[^│]*' | head -1)]"
    tmx_keys rl-vp5 Escape
    for ((i = 0; i < 20; i++)); do tmx_flat rl-vp5 | grep -q 'cancelling' || break; sleep 0.1; done
    tmx_flat rl-vp5 | grep -q 'cancelling' && bad="$bad [still cancelling 2 s after Esc]"
    tmx_keys rl-vp5 Escape; tmx_keys rl-vp5 4; tmx_keys rl-vp5 r; sleep 1
    tmx_flat rl-vp5 | grep -q 'queued behind' && bad="$bad [the run queued behind the check]"
    tmx_keys rl-vp5 q
    local code; code=$(tmx_exit rl-vp5 10); [ "$code" = 0 ] || bad="$bad [exit $code]"
    [ "$(tmx_restored rl-vp5)" = restored ] || bad="$bad [terminal]"
    tmx_kill rl-vp5
    [ -z "$bad" ]
    verdict $? "Esc during the parse ended the check within 2 s; the run was not queued behind it; q exit $code, restored$bad"
}

vp6_small_parse_causes() {
    case_start VP6 minor "CK9/CK12-CK16 variants: mixed CR and CRLF endings, {{{ }}}, a helper defined twice, void main(void), a NUL in a comment, a prototype-only helper called in a condition"
    local bad="" f
    printf '#include "academy.cuh"\r\nint main()\r{\r\n    {{{ }}}\r    return 0;\r\n}\r' >"$CASE_DIR/cr.cu"
    printf '#include "academy.cuh"\nint g()\n{\n    return 1;\n}\nint g()\n{\n    return 2;\n}\nint main()\n{\n    return g();\n}\n' >"$CASE_DIR/twice.cu"
    printf '#include "academy.cuh"\nvoid main(void)\n{\n}\n' >"$CASE_DIR/vmain.cu"
    printf '#include "academy.cuh"\nint main()\n{\n    // a \0 here\n    return 0;\n}\n' >"$CASE_DIR/nul.cu"
    printf '#include "academy.cuh"\nbool ready(int n);\nint main()\n{\n    if (ready(2)) {\n        return 1;\n    }\n    return 0;\n}\n' >"$CASE_DIR/proto.cu"
    for f in cr twice vmain nul proto; do vp_check $f >/dev/null; done
    grep -q 'pass.*runs to the end' "$CASE_DIR/cr.out" || bad="$bad [cr: $(grep -m1 'cr.cu:' "$CASE_DIR/cr.out")]"
    grep -q 'twice.cu:6:1: redefinition of `g`, first defined on line 2' "$CASE_DIR/twice.out" || bad="$bad [twice: $(grep -m1 'twice.cu:' "$CASE_DIR/twice.out")]"
    grep -q 'vmain.cu:2:1: `main` must return `int`' "$CASE_DIR/vmain.out" || bad="$bad [vmain: $(grep -m1 'vmain.cu:' "$CASE_DIR/vmain.out")]"
    grep -aq 'nul.cu:4:10: the file holds a NUL byte' "$CASE_DIR/nul.out" || bad="$bad [nul: $(grep -a -m1 'nul.cu:' "$CASE_DIR/nul.out")]"
    grep -q 'proto.cu:5:9: `ready` is declared on line 2 but never defined' "$CASE_DIR/proto.out" || bad="$bad [proto: $(grep -m1 'proto.cu:' "$CASE_DIR/proto.out")]"
    for f in cr twice vmain nul proto; do no_panic "$CASE_DIR/$f.out" && terminal_safe "$CASE_DIR/$f.out" || bad="$bad [$f: panic or control bytes]"; done
    [ -z "$bad" ]
    verdict $? "cr runs; $(grep -m1 -o 'redefinition of `g`[^;]*' "$CASE_DIR/twice.out"); $(grep -m1 -o '`main` must return `int`' "$CASE_DIR/vmain.out"); the NUL named at 4:10; $(grep -m1 -o '`ready` is declared on line 2 but never defined' "$CASE_DIR/proto.out")$bad"
}
