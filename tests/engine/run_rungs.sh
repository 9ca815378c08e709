#!/usr/bin/env bash
# --rung names the rungs a run goes through: repeated (--rung 1 --rung 2) or as a list
# (--rung 2,1), every rung named runs, in the ladder's order, none dropped without a word.
# Several rungs where only one fits (--e2e, --inputs, the built-in model, --suite all) and a
# malformed list are usage errors that say so.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
pl=tests/engine/fixtures/plain
dir=$KL_TMP/mine
mkdir -p "$dir"
cp $pl/block_sumsq.hip "$dir/"
python3 - $pl/block-sumsq.json "$dir/two.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["params"] = {"n": 1024}
m["rungs"] = {"1": {}, "2": {}}
json.dump(m, open(sys.argv[2], "w"))
PY
rungs_of() { # the rungs of a run's checks, ascending, one line
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(" ".join(str(r) for r in sorted({c["rung"] for c in d["checks"]})))' "$1"
}
run() { "$KLADDER" --db "$KL_TMP/k.db" run --suite "$dir/two.json" --backend cpu --no-progress \
          --variant fixed --timeout 60 --json "$@"; }

run --rung 1 --rung 2 >"$KL_TMP/rep.json" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err"
tap_check "--rung 1 --rung 2 runs (exit $rc)" test $rc -eq 0
tap_check "--rung 1 --rung 2 runs both rungs: $(rungs_of "$KL_TMP/rep.json")" \
    test "$(rungs_of "$KL_TMP/rep.json")" = "1 2"

run --rung 2,1 >"$KL_TMP/list.json" 2>/dev/null
tap_check "--rung 2,1 runs both rungs in the ladder's order: $(rungs_of "$KL_TMP/list.json")" \
    test "$(rungs_of "$KL_TMP/list.json")" = "1 2"

run --rung 2 >"$KL_TMP/one.json" 2>/dev/null
tap_check "--rung 2 alone runs rung 2 only: $(rungs_of "$KL_TMP/one.json")" \
    test "$(rungs_of "$KL_TMP/one.json")" = "2"

usage() { # $1 what, $2 the text the message must hold, then the arguments
    local what=$1 want=$2
    shift 2
    "$KLADDER" --db "$KL_TMP/k.db" run "$@" >"$KL_TMP/out" 2>"$KL_TMP/uerr"
    local rc=$?
    sed 's/^/# /' "$KL_TMP/uerr"
    tap_check "$what: usage error (exit $rc)" test $rc -eq 2
    tap_check "$what: says '$want'" grep -qF -- "$want" "$KL_TMP/uerr"
    tap_check "$what: nothing on stdout" test ! -s "$KL_TMP/out"
}
usage "--rung 1,x" "not 'x'" --suite "$dir/two.json" --rung 1,x
usage "--rung 1,,2" "not ''" --suite "$dir/two.json" --rung 1,,2
usage "--rung 0" "from 1 to" --suite "$dir/two.json" --rung 0
usage "two rungs over --suite all" "give one --rung" --suite all --rung 1 --rung 2
usage "two rungs with --case" "leave out --suite and --rung" --case aiter-4987 --rung 1,2
