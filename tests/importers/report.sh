#!/usr/bin/env bash
# kladder report: one run written up for an issue tracker. The run is a real one, aiter-6127 on
# an H200 (its buggy variant caught by a lag copy), pulled from the bench export. The Markdown
# renders with Debian's python3-markdown into tables and a code block; the HTML passes Debian's
# tidy and names no URL (it opens offline). Strings from the database reach neither with a
# control character in them.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data
db=$KL_TMP/k.db
"$KLADDER" --db "$db" pull "file://$PWD/bench/results/h200-2026-12-01-b/lag/r.export.json" \
    >"$KL_TMP/pull.txt" 2>&1
tap_check "the bench export pulls" test $? -eq 0
run=92671e64
md=$KL_TMP/r.md
"$KLADDER" --db "$db" report $run >"$md" 2>"$KL_TMP/err.txt"
tap_check "report RUN: exit 0" test $? -eq 0
sed 's/^/# /' "$md" | head -n 40
tap_check "md: the case, its gap and its reference" \
    sh -c "grep -q 'aiter-6127' '$md' && grep -qE 'gap:\*\* [0-9], ' '$md' && grep -q 'https://github.com/' '$md'"
tap_check "md: the machine's fingerprint (device, target, driver)" \
    sh -c "grep -q 'NVIDIA H200' '$md' && grep -q 'target:\*\* sm\\\\_90' '$md' && grep -q 'driver:\*\*' '$md'"
tap_check "md: a pulled run's command, fenced, marked as the pulled host's and not run-ready" \
    sh -c "grep -A1 '^\`\`\`sh' '$md' | grep -q '^# pulled from vm, not verified here: kladder run --case aiter-6127 --backend cuda'"
tap_check "md: ... under a heading that says it was not verified, never \"Reproduce\"" \
    sh -c "grep -q '^### Command recorded by the pulled host (not verified here)' '$md' && ! grep -q '^### Reproduce' '$md'"
# a run made here: its own command, to reproduce it
"$KLADDER" --db "$db" run --rung 2 --suite tests/engine/fixtures/trust/topk-pair.json --backend cpu \
    --no-progress >/dev/null 2>&1
own=$("$KLADDER" --db "$db" results --json | python3 -c 'import json,sys; print([r["run_id"] for r in json.load(sys.stdin) if r["suite"] == "trust-topk-pair"][0])')
"$KLADDER" --db "$db" report "$own" >"$KL_TMP/own.md" 2>&1
tap_check "md: a run made here is reproduced by its own command" \
    sh -c "grep -q '^### Reproduce' '$KL_TMP/own.md' && grep -A1 '^\`\`\`sh' '$KL_TMP/own.md' | grep -q '^kladder .*run --rung 2 --suite'"
fails=$(grep -c '| buggy | fail |' "$md")
tap_check "md: the 8 failing checks, each with the fixed variant beside it ($fails rows)" \
    test "$(grep '| buggy | fail |' "$md" | grep -c '| fixed pass (median [0-9.]* µs) |$')" -eq 8
tap_check "md: a failing check's shape and first bad element" \
    grep -qE '^\| identical-rows-lag1 \| 2 \| buggy \| fail \| T=128,E=8,cap=32 \| [^|]+ \| [^|]+ \| 64 \|' "$md"
tap_check "md: a check launched once has no spread to show" grep -qE '\| one launch \| 1 \|$' "$md"
# the same export's rung-5 run timed its checks twice: their spread is shown
"$KLADDER" --db "$db" report 35377643 >"$KL_TMP/r5.md" 2>&1
tap_check "md: repeated checks' timings with their spread" \
    grep -qE '\| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| ±[0-9.]+% \| 2 \|$' "$KL_TMP/r5.md"
# Debian's renderer: the system python3, whatever python3 comes first on PATH
py=/usr/bin/python3
[ -x $py ] || py=python3
if $py -c 'import markdown' 2>/dev/null; then
    $py -c '
import sys, markdown
html = markdown.markdown(open(sys.argv[1]).read(), extensions=["tables", "fenced_code"])
ok = html.count("<table>") == 2 \
     and "<code class=\"language-sh\"># pulled from vm, not verified here: kladder run" in html \
     and html.count("<h3>") == 5 and "<script" not in html
sys.exit(0 if ok else 1)' "$md"
    tap_check "md renders (python3-markdown): two tables, the command, five sections" test $? -eq 0
else
    tap_skip "python3-markdown is not installed (scripts/deps.sh --test installs it)"
fi

html=$KL_TMP/r.html
"$KLADDER" --db "$db" report $run --format html --out "$html" 2>"$KL_TMP/err.txt"
tap_check "report --format html --out: exit 0" test $? -eq 0
tap_check "html: no URL at all (nothing to fetch, nothing to follow)" \
    sh -c "! grep -qiE 'https?://|src=|href=|@import|url\\(' '$html'"
if command -v tidy >/dev/null; then
    tidy -q -e "$html" >"$KL_TMP/tidy.txt" 2>&1
    trc=$?
    sed 's/^/# /' "$KL_TMP/tidy.txt"
    tap_check "html passes tidy with neither error nor warning" test $trc -eq 0
else
    tap_skip "tidy is not installed (scripts/deps.sh --test installs it)"
fi
tap_check "html: the same failing checks" test "$(grep -c '<td>buggy</td><td>fail</td>' "$html")" -eq 8

"$KLADDER" --db "$db" report ffff >/dev/null 2>"$KL_TMP/none.txt"
tap_check "a run not stored: exit 2, named" \
    sh -c "test $? -eq 2 && grep -q \"no run 'ffff'\" '$KL_TMP/none.txt'"
"$KLADDER" --db "$db" report $run --format pdf >/dev/null 2>"$KL_TMP/fmt.txt"
tap_check "an unknown format: exit 2, the formats named" \
    sh -c "test $? -eq 2 && grep -q 'md, html or markdown' '$KL_TMP/fmt.txt'"
tap_check "kladder help report" sh -c "'$KLADDER' help report | grep -q 'usage: kladder report RUN_ID'"
