#!/usr/bin/env bash
# The quick tier (tests/run.sh --quick) is chosen from tests/test-times.tsv, the times of a whole
# run kept with the tests, not from marks kept by hand: a test that took more than KL_QUICK_MAX
# (default 8) wall seconds on the normal build is left out, every other test of the normal build
# (and one not timed yet) is in. --list prints the plan without running anything.
# kl-test: once (it reads the test plan; nothing of ours runs)
. tests/tap.sh
set -u

tsv=tests/test-times.tsv
tests/run.sh --quick --list >"$KL_TMP/quick" 2>&1
tests/run.sh --plain --list >"$KL_TMP/plain" 2>&1
extra=$(comm -23 <(sort "$KL_TMP/quick") <(sort "$KL_TMP/plain"))
tap_check "the quick tier ($(wc -l <"$KL_TMP/quick") tests) is a part of the normal build's pass ($(wc -l <"$KL_TMP/plain"))" \
    test -s "$KL_TMP/quick" -a -z "$extra" -a "$(wc -l <"$KL_TMP/quick")" -lt "$(wc -l <"$KL_TMP/plain")"
slow_in=$(awk -F'\t' 'FILENAME == ARGV[1] { q[$1] = 1; next } q[$1] && $2 + 0 > 8 { print $1 }' \
    "$KL_TMP/quick" "$tsv")
tap_check "no test the kept times say took over 8 s is in it${slow_in:+ ($slow_in)}" test -z "$slow_in"
fast_out=$(awk -F'\t' 'FILENAME == ARGV[1] { p[$1] = 1; next }
                       FILENAME == ARGV[2] { q[$1] = 1; next }
                       p[$1] && !q[$1] && $2 + 0 <= 8 { print $1 }' "$KL_TMP/plain" "$KL_TMP/quick" "$tsv")
tap_check "every test of the normal build timed at 8 s or less is in it${fast_out:+ ($fast_out)}" \
    test -z "$fast_out"
untimed=$(awk -F'\t' 'FILENAME == ARGV[1] { t[$1] = 1; next } !t[$1]' "$tsv" "$KL_TMP/plain")
in_quick=$(comm -12 <(sort <<<"$untimed") <(sort "$KL_TMP/quick") | grep -c .)
tap_check "a test not timed yet stays in ($(grep -c . <<<"$untimed") untimed)" \
    test "$in_quick" -eq "$(grep -c . <<<"$untimed")"
KL_QUICK_MAX=100000 tests/run.sh --quick --list >"$KL_TMP/all" 2>&1
tap_check "KL_QUICK_MAX raises the bar: with it high every test of the normal build is in" \
    cmp -s <(sort "$KL_TMP/all") <(sort "$KL_TMP/plain")
KL_QUICK_MAX=soon tests/run.sh --quick --list >"$KL_TMP/bad" 2>&1
tap_check "a KL_QUICK_MAX that is not seconds is refused, naming it" \
    grep -q "KL_QUICK_MAX expects seconds, got 'soon'" "$KL_TMP/bad"
marks=$(grep -rlE '^# kl-test:.*\bslow\b' tests --include='*.sh' || true)
tap_check "no script carries a hand-made slow mark any more${marks:+ ($marks)}" test -z "$marks"
