#!/usr/bin/env bash
# Malformed suite manifests are refused before any device is touched, with exit status 2 and a
# message that names the file, the field and what was expected.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
dir=tests/engine/fixtures/bad
check() { # file expected-substring
    local out rc
    out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$dir/$1" --backend cpu --no-progress 2>&1)
    rc=$?
    if [ "$rc" -ne 2 ]; then
        tap_fail "$1: exit status $rc, expected 2"
        echo "$out" | sed 's/^/# /'
        return
    fi
    if printf '%s' "$out" | grep -qF -- "$dir/$1: $2"; then
        tap_ok "$1: $2"
    else
        tap_fail "$1: message lacks '$2'"
        echo "$out" | sed 's/^/# /'
    fi
}
check not_json.json 'line 1: expected valid JSON'
check bad_dtype.json 'buffers[0].dtype: expected one of f32 bf16 fp8e4m3 i32 u32 i64 u8 f16, got "f64"'
check unknown_name.json "launch.grid[0]: expected an expression over the parameters: unknown name 'Q'"
check no_variants.json 'variants: expected an object'
check no_output.json 'buffers: expected at least one buffer with "role": "output"'
# an output's contract (docs/engine.md, "Contracts, bounds and doubt")
check contract_kind.json 'buffers[1].kind: expected one of elementwise sum normalized selection quantized, got "mean"'
check contract_input.json 'buffers[0].nonfinite: expected only on a buffer whose role is "output"'
check contract_reduce.json "buffers[1].reduce: expected an expression over the parameters: unknown name 'K'"
check contract_nan_pick.json 'buffers[1].nan_pick: expected only on an index output (i32 or u32)'
check contract_int_kind.json 'buffers[1].kind: expected "selection" on an integer output, got "sum"'
check contract_domain.json 'buffers[1].domain: expected'
check misspelt.json 'tolerence: unknown field'
check bad_rung.json 'rungs.9: expected a rung number from 1 to 8'
check bad_expr.json "launch.grid[0]: expected an expression over the parameters: expected ')'"
check bad_tile.json 'tiles.tile_q: expected a parameter named in "params"'
check bad_version.json 'version: expected a whole number from 1 to 1, got 2'
# A rung's settings are its own; a key it does not know is a mistake, never ignored.
check rung1_misspelt.json 'rungs.1: expected only the keys "tail_dims", "untuned", "cliffs" or "extra", got unknown key "tail_dim"'
check rung5_misspelt.json 'rungs.5: expected only the keys "failure_rate", "confidence", "repeats", "schedule" or "wide", got unknown key "repeat"'
check rung2_misspelt.json 'rungs.2: expected only the keys "classes", "chunks", "topk", "properties" or "inputs", got unknown key "class"'
check rung2_input_output.json 'rungs.2.inputs[0].buffer: expected an input buffer, got "o"'
check rung2_input_dtype.json 'rungs.2.inputs[0].dtype: expected one of bf16, got "f16"'
check rung1_cliff_misspelt.json 'rungs.1.cliffs[0]: expected only the keys "buffer", "param", "with" or "unit", got unknown key "width"'
check rung1_cliff_unit.json 'rungs.1.cliffs[0].unit: expected one of bytes elements, got "bits"'
check rung3_misspelt.json 'rungs.3: expected only the keys "wave", "baseline_wave", "shapes", "targets", "no_spills", "layouts", "isa", "tile_builds" or "tuned_table", got unknown key "no_spill"'
check rung3_wave.json 'rungs.3.wave: expected 32 or 64 (lanes per wave), got 48'
check rung3_target.json 'rungs.3.targets[0]: expected an AMD processor such as "gfx1250", got "sm_90"'
check rung3_layout.json 'rungs.3.layouts[0]: expected a parameter listed in "tiles"'
check rung3_tile_builds.json 'rungs.3.tile_builds[0]: expected a parameter listed in "tiles" (each accepted value is built on its own)'
check rung3_isa.json 'rungs.3.isa.gfx1250: expected a processor listed in rungs.3.targets'
check rung8_declared.json 'rungs.8: no rung 8 in a suite: rung 8 scores an evaluation command (kladder run --rung 8 --e2e COMMAND) or the built-in model (--rung 8 --suite model)'
check rung6_settings.json 'rungs.6: expected no settings ({}): rung 6 takes none, got "ranks"'

# A missing file and an unknown built-in name are setup errors too.
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$dir/absent.json" --backend cpu 2>&1)
rc=$?
tap_check "a missing manifest file exits 2 and names it" test "$rc" -eq 2 -a -n "$(printf '%s' "$out" | grep -F "$dir/absent.json")"
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite no-such-suite --backend cpu 2>&1)
rc=$?
n=$("$KLADDER" run --list | wc -l)
tap_check "an unknown suite exits 2, points at run --list and the path form, lists no paths" \
    sh -c "test $rc -eq 2 && printf '%s' \"\$1\" | grep -qxF \"kladder run: no suite named 'no-such-suite' (kladder run --list lists the $n built-in suites; a suite of your own is a path to its .json manifest)\"" _ "$out"
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite flydsl1199 --backend cpu 2>&1)
tap_check "a near miss: the nearest names first, whole, no internal path" \
    sh -c "printf '%s' \"\$1\" | grep -qF \"no suite named 'flydsl1199' (did you mean flydsl-1199, \" &&
           ! printf '%s' \"\$1\" | grep -q 'kernels/suites'" _ "$out"
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 6 --suite 4812 --backend cpu 2>&1)
tap_check "a part of a name: the names that hold it, the closest first" \
    sh -c "printf '%s' \"\$1\" | grep -qF \"(did you mean aiter-4812, aiter-4812-ep? \"" _ "$out"

# Every built-in manifest is valid.
list=$("$KLADDER" run --list)
tap_check "every built-in suite manifest loads" test -n "$list" -a -z "$(printf '%s' "$list" | grep -F '(invalid')"

# Usage errors.
"$KLADDER" run --rung 3 --suite flydsl-1199 >/dev/null 2>&1
tap_check "rung 3 has no engine checks: exit 2" test $? -eq 2
"$KLADDER" run --rung 1 --suite flydsl-1199 --wave 48 >/dev/null 2>&1
tap_check "--wave 48: exit 2" test $? -eq 2
"$KLADDER" run --case flydsl-1199 --rung 1 >/dev/null 2>&1
tap_check "--case with --rung: exit 2" test $? -eq 2
"$KLADDER" run --case no-such-case --backend cpu >/dev/null 2>&1
tap_check "an unknown case: exit 2" test $? -eq 2

# A rung the suite does not declare, and settings that plan no check, are usage errors, never a
# crash or an "expectation met" over nothing.
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite aiter-4812 --backend cpu --no-progress 2>&1)
rc=$?
tap_check "rung 1 of a rung-6 suite: exit 2" test "$rc" -eq 2
tap_check "and the message names the rungs it has" grep -qF 'suite aiter-4812 does not declare rung 1 (its rungs: 6' <<<"$out"
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 6 --suite flydsl-1199 --backend cpu --no-progress 2>&1)
tap_check "rung 6 of a rung-1 suite: exit 2" test $? -eq 2
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 4 --suite tests/engine/fixtures/rung4_no_checks.json \
    --backend cpu --no-progress 2>&1)
rc=$?
tap_check "settings that plan no check: exit 2" test "$rc" -eq 2
tap_check "and the message says so, naming the settings that plan checks" \
    grep -qF 'rung 4 plans no check from its settings: give "rungs": {"4": {...}} some "checks" (graph, streams, warm, garbage, pool)' <<<"$out"

# A manifest's message never carries its file's control characters to the terminal: an unknown
# key holding ESC, an OSC title and BEL is named with them written as escapes.
mkdir -p "$KL_TMP/esc"
sed 's/"tolerence"/"\\u001b]0;owned\\u0007\\u001b[2Jtol\\u009b"/' "$dir/misspelt.json" >"$KL_TMP/esc/esc.json"
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$KL_TMP/esc/esc.json" --backend cpu \
    --no-progress 2>&1)
rc=$?
tap_check "ESC in a manifest key: exit 2" test "$rc" -eq 2
tap_check "... named, its control characters written as escapes" \
    grep -qF '\x1b]0;owned\x07\x1b[2Jtol\u009b: unknown field' <<<"$out"
tap_check "... and no control character reaches the output" \
    sh -c "! printf '%s' \"\$1\" | LC_ALL=C grep -q '[[:cntrl:]]' && ! printf '%s' \"\$1\" | grep -q \$'\\xc2\\x9b'" _ "$(tr -d '\n' <<<"$out")"
