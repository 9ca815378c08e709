#!/usr/bin/env bash
# A check in doubt through the pytest plugin (tests/python/test_doubt.py): an op that differs
# from its reference only in rows past the output's declared domain is in doubt, which pytest
# shows as DOUBT (never PASSED), counts as "1 doubt", lists with what would settle it, and does
# not let exit 0; the run is recorded with the verdict doubt. The same op without those rows
# passes.
. tests/tap.sh
. tests/python_env.sh numpy pytest
export KL_DB=$KL_TMP/k.db

$py -m pytest -p kladder.pytest_plugin -p no:cacheprovider -v tests/python/test_doubt.py \
    >"$KL_TMP/v.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/v.txt" | tail -12
tap_check "pytest does not exit 0 on a doubt (exit 1, got $rc)" test $rc -eq 1
tap_check "the ordinary class passes" grep -qE 'test_clamp\[distinct\] PASSED' "$KL_TMP/v.txt"
tap_check "the class past the domain shows DOUBT, not PASSED nor FAILED" \
    sh -c "grep -qE 'test_clamp\[max-finite\] DOUBT' '$KL_TMP/v.txt' && ! grep -qE '\[max-finite\] (PASSED|FAILED)' '$KL_TMP/v.txt'"
tap_check "the summary line counts it apart" grep -qE '^=+ 1 passed, 1 doubt in ' "$KL_TMP/v.txt"
tap_check "its section says what would settle it" \
    grep -qE 'IN DOUBT \(not a pass, not a failure of the op\): rung 2 check max-finite .*to settle it: declare the domain' "$KL_TMP/v.txt"
tap_check "the run's line says doubt" grep -qE '^kladder run [0-9a-f-]{36} \(test_clamp\): doubt, 2 checks run, 0 failed, 1 in doubt' "$KL_TMP/v.txt"
"$KLADDER" --db "$KL_DB" results >"$KL_TMP/r.txt" 2>&1
sed 's/^/# /' "$KL_TMP/r.txt"
tap_check "the database records the run as doubt" grep -qE 'py-clamp-doubt +fixed +doubt ' "$KL_TMP/r.txt"

$py -m pytest -p kladder.pytest_plugin -p no:cacheprovider -q -k distinct \
    tests/python/test_doubt.py >"$KL_TMP/q.txt" 2>&1
rc=$?
tap_check "without the class past the domain: a pass (exit 0, got $rc)" test $rc -eq 0
