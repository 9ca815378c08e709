# Copying a run: y shows the selected run's id on the status line and Y the command line that
# made it (no --events N); the run is a pulled one, so Y gives its command only quoted and as a
# comment naming its host, never as a command to run (tui/cmdline.h); Y works in a run's checks too, where y copies the
# run's Markdown report (kladder report). This terminal is not known to take OSC 52, so the
# status line says to select the text rather than claim a copy that never happened, and the
# report, too long to select there, is written to a file in the state folder it names.
. tests/screen/screen_lib
. tests/screen/runs_lib
kl_need "python3 is needed to write the fixture documents" python3
docs=$KL_TMP/docs
results_docs "$docs" || { tap_fail "fixture documents written"; exit 0; }
results_db "$KL_TMP/runs.db" "$docs" pull || { tap_fail "hosts pulled"; exit 0; }
# A run recorded with the --events the interface adds (pulled as host "mine"), the newest one.
python3 - "$docs/h200.json" "$docs/mine.json" <<'PY'
import json, sys, uuid
doc = json.load(open(sys.argv[1]))
run = doc["runs"][-1]
old, run["run_id"] = run["run_id"], str(uuid.UUID(int=7, version=4))
for c in doc["checks"]:
    if c["run_id"] == old:
        c["run_id"] = run["run_id"]
run["started"] = "2026-11-02T00:00:00Z"
run["finished"] = "2026-11-02T00:00:30Z"
run["argv"] = "kladder run --rung 3 --suite suite2 --backend cpu --no-progress --events 3"
doc["runs"] = [run]
doc["checks"] = [c for c in doc["checks"] if c["run_id"] == run["run_id"]]
doc["exported_at"] = "2026-11-03T00:00:00Z"
doc["exported_by"]["host"] = run["host"] = "mine"
json.dump(doc, open(sys.argv[2], "w"))
PY
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["run_id"])' "$docs/mine.json")
"$KLADDER" --db "$KL_TMP/runs.db" hosts add mine "file://$docs/mine.json" >/dev/null &&
    "$KLADDER" --db "$KL_TMP/runs.db" pull mine >/dev/null 2>&1 || tap_fail "our run pulled"
export XDG_STATE_HOME=$KL_TMP/state
TERM=xterm-256color TERM_PROGRAM= SCREEN_DB=$KL_TMP/runs.db SCREEN_KEEP_DB=1 screen_run 120x30 '3
y
:save-screen copy-id
Y
:save-screen copy-cmd
Enter
Y
:save-screen copy-run-cmd
y
:save-screen copy-run-report
L
y
:save-screen copy-run-report-zh'
tap_check "y: the run's whole id on the status line" \
    grep -q "^$id (select it to copy: this terminal is not known to take OSC 52)" "$SCREENS/copy-id.screen"
tap_check "Y: a pulled run's command line as a comment naming its host, without --events" \
    grep -q '^# pulled from mine, not verified here: kladder run --rung 3 --suite suite2 --backend cpu --no-progress (select' "$SCREENS/copy-cmd.screen"
tap_check "Y in the run's checks too" \
    grep -q '^# pulled from mine, not verified here: kladder run --rung 3 --suite suite2 --backend cpu --no-progress (select' "$SCREENS/copy-run-cmd.screen"
report=$XDG_STATE_HOME/kladder/reports/$id.md
tap_check "y in a run: its Markdown report written to the state folder, named on the status line" \
    grep -q "^Markdown report written to $KL_TMP/state/kladder/reports/" "$SCREENS/copy-run-report.screen"
tap_check "... the report of that run (kladder report's Markdown)" \
    sh -c "grep -q '^## kladder: suite2 rung 3' '$report' && grep -q '^- \*\*run:\*\* $id' '$report'"
tap_check "y in Chinese" grep -q "^Markdown 报告已写入 " "$SCREENS/copy-run-report-zh.screen"
tap_check "the key bar offers y Copy" grep -q ' y Copy ' "$SCREENS/copy-id.screen"
