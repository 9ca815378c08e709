# Cases marks the cases that have a built-in reproducer (▶, r runs it) and filters on it; s
# sorts Cases and Runs by the next column (its heading shows ▲ or ▼), S reverses.
. tests/screen/screen_lib
. tests/screen/runs_lib

# The built-in index: the cases whose entry names a reproducer suite (counted here from the
# data, not from the screen); aiter-6360 has none.
nrep=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for c in d["cases"] if c.get("reproducer")))' data/cases.json)
real=$KL_TMP/real.db
"$KLADDER" --db "$real" cases >/dev/null || { tap_fail "the built-in index loads"; exit 0; }
SCREEN_DB=$real SCREEN_KEEP_DB=1 screen_run 120x40 '2
:save-screen cases-repro-column
h
G
Space
:save-screen cases-repro-only
l
s
s
:save-screen cases-sort-repo
S
:save-screen cases-sort-repo-reversed
x
s
s
s
s
:save-screen cases-sort-title'
screen_check cases-repro-column
f=$SCREENS/cases-repro-column.screen
tap_check "a Repro column" grep -q '│ Case  *Repo  *Gap  *Rung  *Repro ' "$f"
tap_check "atom-2533 is marked ▶" grep -qE '│ atom-2533 .* R4 +▶ ' "$f"
tap_check "aiter-6360 is not" sh -c "grep -E '│ aiter-6360 ' '$f' | grep -qv '▶'"
g=$SCREENS/cases-repro-only.screen
tap_check "the sidebar counts $nrep with a reproducer" grep -qE "^. ▶ has one +$nrep │" "$g"
tap_check "the filter keeps the $nrep" grep -q "^Case 1 of $nrep (32 in the index) · with a reproducer\$" "$g"
tap_check "every case listed has one" test "$(grep -cE '│ [a-z]+-[0-9]+ .*▶ ' "$g")" -eq "$nrep"
tap_check "aiter-6360 is gone" sh -c "! grep -q 'aiter-6360' '$g'"
ids() { sed -nE 's/^.*│ ([a-z]+-[0-9]+) +([a-z]+) .*/\2 \1/p' "$1"; }
tap_check "s s: sorted by repo, the heading says so" grep -q '│ Case  *Repo▲ ' "$SCREENS/cases-sort-repo.screen"
tap_check "s s: the rows in repo order" sh -c "ids() { sed -nE 's/^.*│ ([a-z]+-[0-9]+) +([a-z]+) .*/\\2 \\1/p' \"\$1\"; }; \
    ids '$SCREENS/cases-sort-repo.screen' | cut -d' ' -f1 | sort -c"
tap_check "S: reversed" sh -c "ids() { sed -nE 's/^.*│ ([a-z]+-[0-9]+) +([a-z]+) .*/\\2 \\1/p' \"\$1\"; }; \
    ids '$SCREENS/cases-sort-repo-reversed.screen' | cut -d' ' -f1 | sort -r -c && \
    grep -q '│ Case  *Repo▼ ' '$SCREENS/cases-sort-repo-reversed.screen' && \
    grep -q 'sorted by repo, reversed' '$SCREENS/cases-sort-repo-reversed.screen'"
tap_check "x keeps the sort; four s more: by title" grep -q 'Title▲' "$SCREENS/cases-sort-title.screen"

kl_need "python3 is needed to write the fixture documents" python3
docs=$KL_TMP/docs
results_docs "$docs" || { tap_fail "fixture documents written"; exit 0; }
results_db "$KL_TMP/runs.db" "$docs" pull || { tap_fail "hosts pulled"; exit 0; }
# Six s: the Checks column, most failing checks first: cpubox's oldest run (1 hung; the
# buggy variants caught do not count as failing).
SCREEN_DB=$KL_TMP/runs.db SCREEN_KEEP_DB=1 screen_run 100x30 '3
s
:save-screen runs-sort-host
s
s
s
s
s
:save-screen runs-sort-checks
S
:save-screen runs-sort-checks-reversed'
screen_check runs-sort-checks
tap_check "s: by host, cpubox's three first" \
    sh -c "sed -n '3,5p' '$SCREENS/runs-sort-host.screen' | grep -c ' cpubox ' | grep -qx 3 && grep -q 'Host▲' '$SCREENS/runs-sort-host.screen'"
tap_check "by failing checks: the run with a hung check comes first" \
    grep -qE '^ 2026-11-01 00:00 +cpubox .*1 hung, 1 bug caught, 4 passed' <(sed -n 3p "$SCREENS/runs-sort-checks.screen")
tap_check "the status line says how it is sorted" grep -q 'sorted by failing checks, most first' "$SCREENS/runs-sort-checks.screen"
tap_check "S: that run comes last" \
    grep -qE '^ 2026-11-01 00:00 +cpubox .*1 hung, 1 bug caught' <(sed -n 8p "$SCREENS/runs-sort-checks-reversed.screen")
