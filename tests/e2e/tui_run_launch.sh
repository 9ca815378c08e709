# Launch a run from the interface and watch it to its end: the flydsl-1220 case's rung 4 suite on
# the cpu backend, buggy variant only (3 checks). The live view shows the progress and every
# verdict as it arrives; the run lands in the database with its checks (kladder results), and
# Enter opens them.
. tests/e2e/tui_run_lib
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
db=$KL_TMP/launch.db
tui_start "$db"
wait_for "the dashboard comes up" '1 Dashboard.*3 Runs.*4 Compare' || exit 0
keys 2 /
keys -l 1220
keys Enter Enter
wait_for "the flydsl-1220 case opens" 'The test that catches it' || exit 0
keys r
wait_for "r opens the launch panel" 'Run case flydsl-1220' || exit 0
wait_for "the panel lists the case's suite" 'Run +‹ flydsl-1220 · rung 4 ›'
wait_for "kladder devices answered: the cpu backend is available" 'cpu +available: 1 device'
wait_for "a rung 4 run's repeats are the rung's default" "Repeats +‹ the rung's default ›"
pane >"$KL_TMP/panel.txt"
tap_check "rung 5's failure-rate repeats are not offered for rung 4" bash -c "! grep -q 'failure rate' '$KL_TMP/panel.txt'"
keys l
wait_for "h/l change the backend to cpu" 'Backend +‹ cpu ›'
keys j j l l
wait_for "variants: buggy" 'Variants +‹ buggy ›'
wait_for "the command line is shown" 'kladder --db .* run --rung 4 --suite flydsl-1220 --backend cpu --device 0'
keys Enter
wait_for "the live view starts" 'running · [0-9]+ of 3 checks done|of 3 checks done' 10 || exit 0
wait_for "the run ends with every expectation met" '^ pass · 3 of 3 checks done' 60 || exit 0
wait_for "the buggy variant was caught" '2 +✗ fail +buggy '
wait_for "the baseline passed" '0 +✓ pass +baseline-buggy'
wait_for "the status line says so" 'The run ended: pass'
# The checks' columns are laid out from their content, under headings, two cells apart (not at
# fixed widths): each row's variant starts under "Variant", at 110, 80 and 60 columns and in
# Chinese, and the time never runs into the check.
lined_up() { # HEADING-REGEX VARIANT-HEADING
    pane | python3 -c '
import re, sys, unicodedata
lines = sys.stdin.read().split("\n")
def cells(s): return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)
head = [l for l in lines if l.startswith(" #  ") and sys.argv[1] in l]
rows = [l for l in lines if any(" %s " % v in l for v in ("buggy", "baseline-buggy"))
        and ("✓" in l or "✗" in l)]
assert head and len(rows) == 3, (head, rows)
at = cells(head[0][:head[0].index(sys.argv[1])])
for r in rows:
    v = "baseline-buggy" if "baseline-buggy" in r else "buggy"
    assert cells(r[:r.index(" " + v + " ") + 1]) == at, (r, at)
    assert re.search(r"  +([0-9.]+ (us|ms|s)|n/a)$", r.rstrip()), r
' "$1"
}
tap_check "the live view's rows line up under their headings (110 columns)" lined_up Variant
tm resize-window -t "$session" -x 80 -y 24
sleep 0.5
tap_check "and at 80 columns" lined_up Variant
keys L
wait_for "L: Chinese" '^ #  +判定 +变体' 5
tap_check "and in Chinese at 80 columns" lined_up 变体
tm resize-window -t "$session" -x 60 -y 16
sleep 0.5
tap_check "and in Chinese at 60 columns" lined_up 变体
keys L
tm resize-window -t "$session" -x 110 -y 32
wait_for "back in English at 110 columns" '^ #  +Verdict +Variant' 5
run=$(pane | sed -nE 's/^ run ([0-9a-f-]{36}) .*/\1/p' | head -1)
tap_check "the live view names the run ($run)" test -n "$run"
keys Enter
wait_for "Enter opens the run's checks" 'Check 1 of 3 · m the machine'
keys m
wait_for "m shows the machine" 'backend +cpu'
# The database has the run, finished, with its three checks.
json=$KL_TMP/run.json
"$KLADDER" --db "$db" results "$run" --json >"$json" 2>&1
tap_check "kladder results knows the run" grep -qE "\"run_id\":[[:space:]]*\"$run\"" "$json"
tap_check "it is recorded as pass" grep -qE '"verdict":[[:space:]]*"pass"' "$json"
tap_check "with its three checks" test "$(grep -cE '"seq":' "$json")" -eq 3
keys 1
wait_for "the dashboard shows the local verdict at rung 4" '^ ▸ local +✓'
tui_quit
