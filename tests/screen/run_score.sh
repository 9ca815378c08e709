# Rung 8's score on screen: a run's check shows its score, baseline, samples and first diverging
# step; Compare sets two machines' scores side by side with their difference and a mark when
# they part beyond 8%; the Dashboard's rung 8 cell shows the latest score. Two local cpu runs of
# the built-in model with atom-2533's gather swapped in; the second is then made a run pulled
# from host "far", and its fixed model's check given a lower score (0.75, diverging at step 6),
# standing for a machine whose fixed kernels go wrong: no two cpu runs part by themselves.
# Identities, hosts and times are made fixed so the screens are the same on every machine.
. tests/screen/screen_lib
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "sqlite3 is needed to make the runs' identities fixed" sqlite3
db=$KL_TMP/score.db
for i in 1 2; do
    "$KLADDER" --db "$db" --data-dir tests/fixtures/tui run --rung 8 --case atom-2533 \
        --backend cpu --no-progress --timeout 120 >"$KL_TMP/run$i.txt" 2>&1
    tap_check "run $i: expectation met" test $? -eq 0
done
sqlite3 "$db" "
INSERT INTO hosts (name, url, added) VALUES ('far', 'file:///far.json', '2026-12-01T09:00:00Z');
UPDATE runs SET uuid = printf('00000000-0000-4000-8000-%012d', id), host = 'scorebox',
  started = printf('2026-12-01T10:0%d:00Z', id), finished = printf('2026-12-01T10:0%d:30Z', id),
  argv = 'kladder run --rung 8 --case atom-2533', owner_host = NULL, owner_boot = NULL,
  owner_pid = NULL, owner_start = NULL, owner_pid_ns = NULL;
UPDATE runs SET origin = 'far', host = 'farbox' WHERE id = 2;
UPDATE machines SET device = 'cpu emulation', host = 'scorebox';
UPDATE checks SET time_median_us = 100, time_min_us = 90, time_max_us = 110 WHERE oracle != 'score';
UPDATE checks SET limit_s = 60;
UPDATE checks SET facts = json_set(facts, '$.score.value', 0.75, '$.score.diverge_step', 6), verdict = 'fail',
  detail = 'score 6/8 tokens agree with the reference model; first wrong token at step 6'
  WHERE run_id = 2 AND key_id = (SELECT id FROM check_keys WHERE check_name = 'model:fixed');
UPDATE runs SET n_pass = n_pass - 1, n_fail = n_fail + 1, verdict = 'fail' WHERE id = 2;" ||
    tap_fail "runs made fixed"

SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 120x34 '3
G
Enter
G
:save-screen run-score
Esc
4
R
R
R
R
R
R
R
R
:save-screen compare-score
1
:save-screen dashboard-score'
for s in run-score compare-score dashboard-score; do
    screen_check $s
done
tap_check "run view: the swapped-in gather's score, baseline, samples and diverging step" \
    grep -qE 'Score +score 0.625 \(baseline 1, 8 samples, first diverging step 3\)' \
    "$SCREENS/run-score.screen"
tap_check "compare: the fixed model's two scores and their difference, marked" \
    grep -qE 'model:fixed .* 1 +0.75 +-0.25 !' "$SCREENS/compare-score.screen"
tap_check "compare: the gather's two equal scores, within" \
    grep -qE 'kv_gather.* 0.625 +0.625 +[+]0 =' "$SCREENS/compare-score.screen"
tap_check "dashboard: rung 8's latest score per host" \
    grep -qE 'local .*✓ 1$' "$SCREENS/dashboard-score.screen"
tap_check "dashboard: ... and the far host's lower one" grep -qE 'far .*✗ 0.75$' "$SCREENS/dashboard-score.screen"
tap_check "compare: the summary counts the scores apart" grep -qE 'scores (apart 1 of 2|!1/2)' "$SCREENS/compare-score.screen"
tap_check "compare --json: the scores apart beyond tolerance" \
    sh -c "'$KLADDER' --db '$db' compare local far --rung 8 --json | grep -qE '\"differing_scores\":[[:space:]]+1'"
tap_check "results: the score in words" \
    sh -c "'$KLADDER' --db '$db' results 00000000-0000-4000-8000-000000000001 | grep -q 'score 0.625 (baseline 1, 8 samples, first diverging step 3)'"
