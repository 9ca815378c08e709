# The dashboard's row of a host shows each rung's latest verdict; where the host ran a rung
# several times and some runs failed, a line under the rows says how many ("h200: runs that
# failed: R5 2 of 9"), since a latest ✓ hid a rung that fails one run in three. Two examples: a
# fixture host whose rung 1 passed last but failed once in three runs (and whose rung 2, run
# three times, never failed: not mentioned), and the committed H200 results, whose rung 5 passed
# last but failed twice in nine runs.
. tests/screen/screen_lib
kl_need "python3 is needed to write the fixture document" python3
python3 tests/fixtures/remote/gen_results.py --host lab --runs 24 --checks 4 \
    --out "$KL_TMP/lab.tmp.json" || { tap_fail "fixture document written"; exit 0; }
python3 - "$KL_TMP/lab.tmp.json" "$KL_TMP/lab.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rung1 = [r for r in doc["runs"] if r["rung"] == 1]
assert len(rung1) == 3
rung1[1]["verdict"] = "fail"   # the middle one of three; the newest passed
json.dump(doc, open(sys.argv[2], "w"))
PY
db=$KL_TMP/lab.db
"$KLADDER" --db "$db" --data-dir tests/fixtures/tui hosts add lab "file://$KL_TMP/lab.json" >/dev/null &&
    "$KLADDER" --db "$db" pull >/dev/null 2>&1 || { tap_fail "fixture pulled"; exit 0; }
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 100x30 ':save-screen dash-lab
L
:save-screen dash-lab-zh'
tap_check "lab's rung 1 shows its latest verdict, a pass" grep -qE '^ ▸ lab +✓( |$)' "$SCREENS/dash-lab.screen"
tap_check "the legend under the rows says the marks" \
    grep -qE '^ ▸ each machine.s latest run of each rung: +✓ pass' "$SCREENS/dash-lab.screen"
tap_check "the rows are the same marks in Chinese, and the legend is in Chinese" \
    sh -c "grep -qE '^ ▸ 本机|^ ▸ lab +✓( |\$)' '$SCREENS/dash-lab-zh.screen' &&
           grep -qE '^ ▸ 每台机器每一阶梯最近一次运行： ✓ 通过' '$SCREENS/dash-lab-zh.screen' &&
           ! grep -qE '^ ▸ lab .*通过' '$SCREENS/dash-lab-zh.screen'"
tap_check "and the line says 1 of its 3 rung 1 runs failed, nothing of rung 2" \
    grep -qE '^   lab: runs that failed: R1 1 of 3$' "$SCREENS/dash-lab.screen"
tap_check "in Chinese too" grep -qE '^   lab 失败的运行：R1 3 次中 1 次$' "$SCREENS/dash-lab-zh.screen"

h200=$KL_TMP/h200.db
"$KLADDER" --db "$h200" hosts add h200 "file://$PWD/bench/results/h200-2026-11-29/export.json" >/dev/null &&
    "$KLADDER" --db "$h200" pull >/dev/null 2>&1 || { tap_fail "H200 results pulled"; exit 0; }
SCREEN_DB=$h200 SCREEN_KEEP_DB=1 screen_run 80x24 ':save-screen dash-h200'
tap_check "H200: rung 5 passed last" grep -qE '^ ▸ h200 +✓ +✓ +✓' "$SCREENS/dash-h200.screen"
tap_check "H200: but 2 of its 9 rung 5 runs failed" \
    grep -qE '^   h200: runs that failed: R5 2 of 9$' "$SCREENS/dash-h200.screen"
