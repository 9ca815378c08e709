# The Compare tab over two pulled hosts: rows matched on (rung, suite, check, shape, variant),
# times, ratio, the ratio bars, verdicts; flagged ratios (spreads apart) and a differing verdict
# (a hang on one host, a pass on the other); the summary; a and b change sides, R the rung, f
# the rows that stand out, s the sort, / a search, V a verdict, o rows on both sides; Enter opens
# the matched check in the run behind a row; at 60x16 nothing wraps and Check stays. The
# numbers are checked against `kladder compare --json` on the same database.
. tests/screen/screen_lib
. tests/screen/runs_lib

kl_need "python3 is needed to write the fixture documents" python3
docs=$KL_TMP/docs
results_docs "$docs" || { tap_fail "fixture documents written"; exit 0; }
results_db "$KL_TMP/cmp.db" "$docs" pull || { tap_fail "pulled with kladder pull"; exit 0; }

SCREEN_DB=$KL_TMP/cmp.db SCREEN_KEEP_DB=1 screen_run 120x34 '4
:save-screen compare-hosts
f
:save-screen compare-flagged
f
R
:save-screen compare-rung-1
R
R
R
R
R
R
R
R
j
j
Enter
:save-screen compare-opens-run
4
b
:save-screen compare-side-b-machine
L
:save-screen compare-zh'
SCREEN_DB=$KL_TMP/cmp.db SCREEN_KEEP_DB=1 screen_run 80x24 '4
:save-screen compare-80x24'
# the small screen, then sorting, a search, the verdict and both-sides filters, clearing
SCREEN_DB=$KL_TMP/cmp.db SCREEN_KEEP_DB=1 screen_run 60x16 '4
:save-screen compare-60x16
s
:save-screen compare-sort-ratio
x
/
:type check-5
Enter
:save-screen compare-search
x
V
V
:save-screen compare-verdict-fail
x
o
f
:save-screen compare-both-flagged'
# a click on a heading sorts by that column, a second click goes back to name order
SCREEN_DB=$KL_TMP/cmp.db SCREEN_KEEP_DB=1 screen_run 120x34 '4
:click 62 5
:save-screen compare-click-time-a
:click 62 5
:save-screen compare-click-again'
for s in compare-hosts compare-flagged compare-rung-1 compare-side-b-machine compare-zh compare-80x24 \
         compare-60x16 compare-sort-ratio compare-search compare-verdict-fail; do
    screen_check "$s"
done
f=$SCREENS/compare-hosts.screen
tap_check "side A is the first host, side B the next" \
    sh -c "grep -q '^ A cpubox (host, 3 runs)' '$f' && grep -q '^ B h200 (host, 3 runs)' '$f'"
# The CLI twin on the same sides: the same counts and geometric mean.
json=$KL_TMP/compare.json
"$KLADDER" --db "$KL_TMP/cmp.db" compare cpubox h200 --json >"$json"
read -r flagged noise few differ gm < <(python3 -c "
import json,sys; d=json.load(open('$json')); s=d['summary']
print(s['flagged'], s['noise'], s['few_repeats'], s['differing_verdicts'], '%.2f' % (1 / s['geomean_ratio']))")
tap_check "the summary names the faster side as kladder compare does (${gm}×)" \
    grep -q "^ B (h200) is ${gm}× faster than A (cpubox), geometric mean over 18 rows judged" "$f"
tap_check "the counts match kladder compare --json (! $flagged, ~ $noise, ? $few, ≠ $differ)" \
    grep -q "^ 18 rows · ! $flagged flagged · ~ $noise within noise · ? $few not judged · ≠ $differ verdicts differ · only A 0 · only B 0" "$f"
tap_check "12 ratios flagged, 6 within noise (same speed)" \
    sh -c "test \$(grep -c ' faster ! ' '$f') -eq 12 && test \$(grep -c ' 1.00× same ~ ' '$f') -eq 6"
tap_check "the differing verdict: hang on A, pass on B" grep -q '^ ≠ R1  suite0 .* ⧗/✓$' "$f"
tap_check "no ratio reads 0.33× or 0.00×" sh -c "! grep -Eq '0\.[0-9]+×' '$f'"
tap_check "a flagged 3x row has its bar to the left (B faster)" grep -q '3.00× faster ! *▕█│' "$f"
tap_check "f keeps only the rows that stand out" \
    test "$(grep -Ec ' (faster|slower|same) [!~?] ' "$SCREENS/compare-flagged.screen")" -eq 12
tap_check "the status line says why the selected row is marked" \
    sh -c "grep -q '^Row 1 of 18 · ~ within noise: the spreads overlap · ' '$f' &&
           grep -q '^Row 1 of 12 · only !/≠ · ! spreads apart and beyond 5%, 20 and 20 repeats' '$SCREENS/compare-flagged.screen'"
tap_check "R shows one rung" sh -c "grep -q '6 rows · rung 1' '$SCREENS/compare-rung-1.screen'"
o=$SCREENS/compare-opens-run.screen
tap_check "Enter opens the run of side B" grep -q '^ ✗ fail · run .* · h200 ' "$o"
tap_check "on the matched check (the third row, check-2), not the run's first" \
    sh -c "grep -q '^Check 3 of 6 ' '$o' && grep -q '^ ✓ pass · check-2 · fixed' '$o'"
# 60x16: one line each for the sides, the summary, the counts and the heading; Check stays
s60=$SCREENS/compare-60x16.screen
tap_check "60x16: the heading lines are not wrapped" \
    sh -c "sed -n 4p '$s60' | grep -q '^ B (h200) is' && sed -n 5p '$s60' | grep -q '^ 18 rows' &&
           sed -n 6p '$s60' | grep -q ' Check '"
tap_check "60x16: every row keeps its check name, suite and ratio apart" \
    test "$(grep -Ec '^ [ ≠] R1  suite0 +check-[0-9] +(fixed|buggy) +[0-9.]+× (faster|same) [!~] [✓✗⧗]/[✓✗⧗]$' "$s60")" -eq 6
tap_check "s sorts by ratio (B slowest against A first), marked in the heading" \
    sh -c "grep -q 'B vs A↓' '$SCREENS/compare-sort-ratio.screen' &&
           sed -n 7p '$SCREENS/compare-sort-ratio.screen' | grep -q '1.00× same' &&
           grep -q 'sorted by ratio' '$SCREENS/compare-sort-ratio.screen'"
tap_check "a click on Time A sorts by it, slowest first" \
    sh -c "grep -q 'Time A↓' '$SCREENS/compare-click-time-a.screen' &&
           sed -n 7p '$SCREENS/compare-click-time-a.screen' | grep -q ' 45 us '"
tap_check "a second click goes back to name order" \
    sh -c "! grep -q '↓' '$SCREENS/compare-click-again.screen' &&
           sed -n 7p '$SCREENS/compare-click-again.screen' | grep -q 'R1  suite0       check-0 '"
tap_check "/ searches the rows (check-5: one per rung)" \
    sh -c "test \$(grep -Ec 'check-5 +buggy' '$SCREENS/compare-search.screen') -eq 3 &&
           ! grep -q 'check-[0-4] ' '$SCREENS/compare-search.screen'"
tap_check "V V keeps the rows with a failing side" \
    sh -c "test \$(grep -c '✗/✗' '$SCREENS/compare-verdict-fail.screen') -eq 3 &&
           grep -q 'verdict fail' '$SCREENS/compare-verdict-fail.screen'"
tap_check "o and f together: on both sides and standing out" \
    grep -q '^Row 1 of 12 · only !/≠ · on both sides' "$SCREENS/compare-both-flagged.screen"
