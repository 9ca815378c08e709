#!/usr/bin/env bash
# Malformed suite manifests are refused before any device is touched, with exit status 2 and a
# message that names the file, the field and what was expected.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_TMP/cache
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
check bad_dtype.json 'buffers[0].dtype: expected one of f32 bf16 fp8e4m3 i32 u32 i64 u8, got "f16"'
check unknown_name.json "launch.grid[0]: expected an expression over the parameters: unknown name 'Q'"
check no_variants.json 'variants: expected an object'
check no_output.json 'buffers: expected at least one buffer with "role": "output"'
check misspelt.json 'tolerence: unknown field'
check bad_rung.json 'rungs.9: expected a rung number from 1 to 8'
check bad_expr.json "launch.grid[0]: expected an expression over the parameters: expected ')'"
check bad_tile.json 'tiles.tile_q: expected a parameter named in "params"'
check bad_version.json 'version: expected a whole number from 1 to 1, got 2'

# A missing file and an unknown built-in name are setup errors too.
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$dir/absent.json" --backend cpu 2>&1)
rc=$?
tap_check "a missing manifest file exits 2 and names it" test "$rc" -eq 2 -a -n "$(printf '%s' "$out" | grep -F "$dir/absent.json")"
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite no-such-suite --backend cpu 2>&1)
rc=$?
tap_check "an unknown suite exits 2 and lists the known ones" test "$rc" -eq 2 -a -n "$(printf '%s' "$out" | grep -F "known:")"

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
