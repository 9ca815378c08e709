# The Compare tab over the committed H200 results (pulled over file://) and a cpu run made here:
# the same flydsl-1199 checks side by side, hundreds of times apart yet neither flagged nor
# summed into a headline (the H200 recorded one repeat a check), no verdict differing. The times
# of the local side vary from run to run, so the screen is checked line by line, not against a
# golden file.
. tests/screen/screen_lib
db=$KL_TMP/h200.db
"$KLADDER" --db "$db" run --rung 1 --suite flydsl-1199 --backend cpu --no-progress >/dev/null 2>&1
tap_check "a cpu run of flydsl-1199 rung 1 made here" test $? = 0
"$KLADDER" --db "$db" hosts add h200 "file://$PWD/bench/results/h200-2026-11-29/export.json" >/dev/null
"$KLADDER" --db "$db" pull >/dev/null 2>&1
tap_check "the H200 results pulled" test $? = 0

SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 120x34 '4
:save-screen h200-all
f
:save-screen h200-flagged
f
o
:save-screen h200-both'
all=$SCREENS/h200-all.screen flagged=$SCREENS/h200-flagged.screen both=$SCREENS/h200-both.screen
tap_check "side A is this machine" grep -q '^ A local' "$all"
tap_check "side B is the H200 host" grep -q '^ B h200 (host, 34 runs)' "$all"
tap_check "54 checks matched; one repeat on the H200 makes no headline, however far apart" \
    grep -q '^ no row judged: none of the 54 rows timed on both sides has 3 repeats a side' "$all"
tap_check "none with a differing verdict; none flagged: the H200 has one repeat" \
    grep -q ' ! 0 flagged · ~ 0 within noise · ? 54 not judged · ≠ 0 verdicts differ ' "$all"
tap_check "f keeps nothing: no row stands out on one repeat" grep -q 'No row matches the filters' "$flagged"
tap_check "the matched rows still show the magnitude, marked not judged" \
    test "$(grep -Ec '^   R1  flydsl-1199 .* [0-9]{2,}× faster \? ' "$both")" -ge 20
tap_check "the status line says why: the H200's one repeat" \
    grep -Eq '^Row 1 of 54 · on both sides · \? not judged: A has [0-9]+ repeats?, B 1 \(3 needed on each side\)' "$both"
tap_check "not run on this machine reads ○, apart from a skip (-)" grep -q ' ○/✓$' "$all"
tap_check "o keeps the 54 checks on both sides" grep -q '^Row 1 of 54 · on both sides' "$both"
tap_check "a buggy row fails on both machines" grep -Eq 'flydsl-1199 +k640_t256 +buggy .*✗/✗' "$both"
tap_check "its fixed row passes on both" grep -Eq 'flydsl-1199 +k640_t256 +fixed .*✓/✓' "$both"
# The unit tests' rows come in twins, baseline-fixed and baseline-buggy: at 120 columns the
# Variant column holds them whole; at 80, cut at the start, they still read apart (cut at the
# end both read "baseline…" and the twin rows looked the same).
tap_check "120 columns: both baseline variants whole" \
    sh -c "grep -Eq ' aiter-4494 +unit-test.* baseline-fixed ' '$all' && grep -Eq ' aiter-4494 +unit-test.* baseline-buggy ' '$all'"
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 80x24 '4
:save-screen h200-80x24'
narrow=$SCREENS/h200-80x24.screen
tap_check "80 columns: the twins still read apart (…ne-fixed, …ne-buggy)" \
    sh -c "grep -q ' …ne-fixed ' '$narrow' && grep -q ' …ne-buggy ' '$narrow'"
tap_check "80 columns: no variant reads only baseline…" sh -c "! grep -q 'baseline…' '$narrow'"
# Between the two (the width of the report that found it), and in the every-host view (m),
# which cut its names at their end: every width cuts the twins apart.
"$KLADDER" --db "$db" hosts add lag "file://$PWD/bench/results/h200-2026-12-01-b/lag/r.export.json" >/dev/null
"$KLADDER" --db "$db" pull lag >/dev/null 2>&1
for cols in 110 100; do
    SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run ${cols}x24 "4
:save-screen h200-${cols}
m
:save-screen h200-every-${cols}"
    for v in h200 h200-every; do
        s=$SCREENS/$v-$cols.screen
        tap_check "$v, $cols columns: no variant cut to baseline… (the twins read apart)" \
            sh -c "! grep -qE 'baselin?e?…|baseli…' '$s' && grep -qE '(ne-|…|-)fixed ' '$s'"
    done
done
