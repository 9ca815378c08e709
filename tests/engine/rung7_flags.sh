#!/usr/bin/env bash
# Rung 7's flags come from a suite, which is data: a flag that would make the compiler read a
# file into the check (-include/etc/passwd, whose text would reach the check's detail, the
# database and every export) or write one outside the suite's folder (-MD -MF PATH) is refused
# when the manifest loads, naming the field and the flag, before anything compiles or is
# recorded (exit 2). The same in a configuration. Ordinary flags (-D, -O, -U, -std=, -f/-m that
# touch no file) still reach the compiler: the suite with them runs and its flags are checked.
. tests/lib.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "python3 is needed to write the suites" python3
fx=tests/engine/fixtures/rung7
dir=$KL_TMP/suites
mkdir -p "$dir"
cp $fx/knobs.kl "$dir/"
# suite NAME FLAGS_JSON [CONFIGS_JSON]: knobs.json with its rung 7 flags (and configs) replaced
suite() {
    python3 - "$fx/knobs.json" "$dir/$1.json" "$2" "${3:-}" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["rungs"]["7"]["flags"] = json.loads(sys.argv[3])
if sys.argv[4] == "none":  # the flag checks alone: no configurations to compile
    del m["rungs"]["7"]["configs"], m["rungs"]["7"]["buggy_key"]
elif sys.argv[4]:
    m["rungs"]["7"]["configs"] = json.loads(sys.argv[4])
json.dump(m, open(sys.argv[2], "w"))
PY
}
run7() { # NAME [OPTION...] -> $KL_TMP/out, $rc
    local name=$1
    shift
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$dir/$name.json" --backend cpu \
        --no-progress --timeout 60 "$@" >"$KL_TMP/out" 2>&1
    rc=$?
    sed 's/^/# /' "$KL_TMP/out" | head -20
}
refused() { # NAME FIELD FLAG
    run7 "$1"
    tap_check "$1: refused at load (exit $rc)" test $rc = 2
    tap_check "$1: the message names the field $2 and the flag $3" \
        grep -qF -- "$dir/$1.json: $2: compiler flag \"$3\" is refused" "$KL_TMP/out"
}

suite include '["-DKNOBS_ROWS_PER_BLOCK=4", "-include/etc/passwd"]'
refused include 'rungs.7.flags[1]' -include/etc/passwd
tap_check "include: nothing of the file reaches the output" bash -c "! grep -q 'root:' '$KL_TMP/out'"

out=$KL_TMP/written.d
suite deps "{\"fixed\": [\"-DKNOBS_ROWS_PER_BLOCK=4\"], \"buggy\": [\"-MD\", \"-MF$out\"]}"
refused deps 'rungs.7.flags.buggy[0]' -MD
tap_check "deps: no file is written at the -MF path" test ! -e "$out"

suite config '["-DKNOBS_ROWS_PER_BLOCK=4"]' '[["-DKNOBS_TILE=16"], ["-fplugin=/tmp/x.so"]]'
refused config 'rungs.7.configs[1][0]' -fplugin=/tmp/x.so
suite profile '["-fprofile-generate", "-O1"]'
refused profile 'rungs.7.flags[0]' -fprofile-generate
suite prefix '["-fdebug-prefix-map=/a=/b"]'
refused prefix 'rungs.7.flags[0]' -fdebug-prefix-map=/a=/b
tap_check "nothing was recorded by the refused suites" \
    bash -c "test \"\$('$KLADDER' --db '$KL_TMP/k.db' results --json)\" = '[]'"

# Ordinary flags: every kind the list accepts reaches the compiler, each in a flag check of its
# own (whether it changes the code object is that check's verdict, not this test's).
suite ordinary '["-DKNOBS_ROWS_PER_BLOCK=4", "-O1", "-UKNOBS_TRACE", "-std=c++17",
                 "-fno-strict-aliasing", "-mtune=generic"]' none
run7 ordinary --variant fixed
tap_check "ordinary flags: the suite loads and runs (exit $rc)" test $rc -ne 2
tap_check "ordinary flags: the -D flag is checked (flag:-DKNOBS_ROWS_PER_BLOCK=4)" \
    grep -qE -- '^pass +fixed +r7 flag:-DKNOBS_ROWS_PER_BLOCK=4 ' "$KL_TMP/out"
tap_check "ordinary flags: every one reaches a flag check" \
    bash -c "for f in -O1 -UKNOBS_TRACE -std=c++17 -fno-strict-aliasing -mtune=generic; do grep -qF -- \" r7 flag:\$f \" '$KL_TMP/out' || exit 1; done"
