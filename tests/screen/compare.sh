# The Compare tab over two pulled hosts: rows matched on (rung, suite, check, shape, variant),
# times, ratio, the ratio bars, verdicts; flagged ratios (spreads apart) and a differing verdict
# (a hang on one host, a pass on the other); the summary; a and b change sides, R the rung, f
# the rows that stand out; Enter opens the run behind a row. The numbers are checked against
# `kladder compare --json` on the same database.
. tests/screen/screen_lib
. tests/screen/runs_lib

if ! command -v python3 >/dev/null; then
    tap_skip "python3 is needed to write the fixture documents"
    exit 0
fi
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
for s in compare-hosts compare-flagged compare-rung-1 compare-side-b-machine compare-zh compare-80x24; do
    screen_check "$s"
done
f=$SCREENS/compare-hosts.screen
tap_check "side A is the first host, side B the next" \
    sh -c "grep -q '^ A cpubox (host, 3 runs)' '$f' && grep -q '^ B h200 (host, 3 runs)' '$f'"
# The CLI twin on the same sides: the same flagged count and geometric mean.
json=$KL_TMP/compare.json
"$KLADDER" --db "$KL_TMP/cmp.db" compare cpubox h200 --json >"$json"
read -r flagged gm differ < <(python3 -c "
import json,sys; d=json.load(open('$json')); s=d['summary']
print(s['flagged'], '%.3f' % s['geomean_ratio'], s['differing_verdicts'])")
tap_check "the summary matches kladder compare --json (flagged $flagged, mean $gm, differ $differ)" \
    grep -q "18 rows · geometric-mean ratio B/A ${gm}× (over 18) · flagged $flagged · verdicts differ $differ" "$f"
tap_check "12 ratios flagged, 6 not (same speed, overlapping spreads)" \
    sh -c "test \$(grep -c '^ ! ' '$f') -eq 11 && test \$(grep -c '^ ≠ ' '$f') -eq 1"
tap_check "the differing verdict: hang on A, pass on B" grep -q '^ ≠ R1  suite0 .* ⧗/✓$' "$f"
tap_check "a flagged 3x row has its bar to the left (B faster)" grep -q '0.33× .*█│' "$f"
tap_check "f keeps only the rows that stand out" \
    test "$(grep -c '^ [!≠] ' "$SCREENS/compare-flagged.screen")" -eq 12
tap_check "R shows one rung" sh -c "grep -q '6 rows · rung 1' '$SCREENS/compare-rung-1.screen'"
tap_check "Enter opens the run of side B" grep -q '^ ✗ fail · run .* · h200 ' "$SCREENS/compare-opens-run.screen"
