#!/usr/bin/env bash
# kladder ci-audit: a CI job whose reports show that nothing ran fails (aiter-5133), a real
# report passes, a suite that shrank against a baseline is named, and hostile XML is refused
# with a message naming the file, the line and what was expected (exit 2), never trusted.
. tests/tap.sh
fx=tests/fixtures/ci
audit() { # expected-status expected-substring args...
    local want=$1 text=$2 out rc
    shift 2
    out=$("$KLADDER" ci-audit "$@" 2>&1)
    rc=$?
    if [ "$rc" -eq "$want" ] && printf '%s' "$out" | grep -qF -- "$text"; then
        tap_ok "ci-audit $*: exit $want, '$text'"
    else
        tap_fail "ci-audit $*: exit $rc (expected $want), wanted '$text'"
        printf '%s\n' "$out" | sed 's/^/# /'
    fi
}
# aiter-5133: the job passed with zero tests executed.
audit 1 'FAIL zero tests executed' $fx/aiter-5133-empty.xml
audit 1 'pytest exit status 5: no tests were collected' $fx/aiter-5133-exit5.log
audit 1 'FAIL every test was skipped (3 skipped, none executed)' $fx/all-skipped.xml
# Real reports pass; a failed test still executed, a skipped one did not.
audit 0 'JUnit XML, 2 suites, 7 tests, 1 skipped, 1 failed: 6 executed' $fx/passing.xml
audit 0 'ci-audit: ok (6 tests executed)' $fx/passing.xml
audit 0 'pytest log, 1 suite, 12 tests, 1 skipped, 0 failed: 11 executed; exit status 0' $fx/passing.log
audit 0 'ci-audit: ok (11 tests executed)' $fx/passing-actions.log
# Several reports are audited together: one empty file beside a real one does not fail the job,
# but the counts add up.
audit 0 'ci-audit: ok (17 tests executed)' $fx/passing.xml $fx/passing.log $fx/aiter-5133-empty.xml
audit 1 'fewer than --min-tests 20' $fx/passing.xml $fx/passing.log --min-tests 20
# Against a baseline: the suite that shrank is named, the one that did not is not.
out=$("$KLADDER" ci-audit $fx/shrunk.xml --baseline $fx/passing.xml)
rc=$?
tap_check "a shrunk suite fails against the baseline" test "$rc" -eq 1
tap_check "it names the suite that shrank, with both counts" \
    grep -qF 'FAIL suite op_tests.test_flydsl_grouped_gemm_gfx1250 shrank: 1 executed, the baseline had 4' <<<"$out"
tap_check "a suite that kept its tests is not named" test -z "$(grep -F 'test_moe_topk_gating shrank' <<<"$out")"

audit 0 'ci-audit: ok' $fx/passing.xml --baseline $fx/shrunk.xml
audit 1 '(the suite is missing)' $fx/passing.log --baseline $fx/passing.xml
# Hostile or broken XML: refused with the file, the line and what was expected.
audit 2 "$fx/hostile-truncated.xml: line 2: expected well-formed XML" $fx/hostile-truncated.xml
audit 2 "$fx/hostile-laughs.xml: line 2: <!DOCTYPE testsuites>: expected no DOCTYPE" $fx/hostile-laughs.xml
audit 2 "$fx/hostile-external.xml: line 2: <!DOCTYPE testsuite>: expected no DOCTYPE" $fx/hostile-external.xml
audit 2 "$fx/hostile-deep.xml: line 2: elements nested deeper than 32" $fx/hostile-deep.xml
audit 2 "$fx/hostile-count.xml: line 2: <testsuite tests>: expected a whole number, got \"141abc\"" $fx/hostile-count.xml
audit 2 'expected tests="1", the testcases it holds, got tests="141"' $fx/hostile-count-lies.xml
audit 2 "$fx/not-a-report.log: expected a pytest summary line" $fx/not-a-report.log
audit 2 "expected JUnit XML or a pytest log" /dev/null
audit 2 "$KL_TMP/absent.xml: No such file" "$KL_TMP/absent.xml"
# A report that is bad as a baseline is just as refused; nothing is audited.
audit 2 "$fx/hostile-count.xml" $fx/passing.xml --baseline $fx/hostile-count.xml
# A suite name with C1 controls (legal in XML 1.0) never reaches the terminal raw.
out=$("$KLADDER" ci-audit $fx/passing.xml --baseline $fx/hostile-control.xml)
tap_check "a control character in a suite name is replaced" grep -qF 'suite ctl�2J�x shrank' <<<"$out"
tap_check "no C1 control byte is written" test -z "$(printf '%s' "$out" | LC_ALL=C grep -P '\xc2[\x80-\x9f]')"
# Usage.
audit 2 'give at least one REPORT'
audit 2 '--min-tests expects' $fx/passing.xml --min-tests 0
# kladder's own JUnit file reads back: its tests= matches the testcases it holds, and the checks
# it ran count as executed.
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
"$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite flydsl-1153 --variant fixed --backend cpu \
    --no-progress --junit "$KL_TMP/kladder.xml" >/dev/null 2>&1
audit 0 "$KL_TMP/kladder.xml: JUnit XML, 1 suite," "$KL_TMP/kladder.xml"
