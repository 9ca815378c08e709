#!/usr/bin/env bash
# kladder exec records every run as `kladder run` does: a correct program (a pass, run with
# arguments), a last-block sum without __threadfence (a race under pct: finding), a program of
# ours that writes escape sequences and exits 3 (failed) and a file that does not compile
# (error) each land in the database with the cpu machine, the file, the arguments, schedule,
# seed and wave, the findings with their reports and the program's exit status and output
# tail, its control characters replaced; a kladder killed while its program runs leaves the run
# interrupted. --junit writes valid XML with one failure per finding and one for a program that
# did not pass. The rows survive export, a pull into a second
# database (a second pull finds them the same) and line up in a comparison with the same
# programs run there.
. tests/lib.sh
kl_need "sqlite3, jq and xmllint read what exec recorded" sqlite3 jq xmllint
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/exec
a=$KL_TMP/a.db b=$KL_TMP/b.db

q() { sqlite3 -batch -noheader "$1" "$2"; }
# the facts member M of check SEQ of the run whose suite is FILE, in database DB
fact() { q "$1" "SELECT json_extract(c.facts, '\$.exec.$4') FROM checks c JOIN runs r ON r.id = c.run_id WHERE r.suite = '$2' AND c.seq = $3"; }

out=$("$KLADDER" --db "$a" exec "$fx/reduce_ok.cu" --junit "$KL_TMP/ok.xml" -- 777 "two words" 2>"$KL_TMP/err")
rc=$?
tap_check "a passing program exits 0 ($rc)" test $rc -eq 0
id=$(sed -n 's/^========= recorded as run \([0-9a-f-]\{36\}\)$/\1/p' <<<"$out")
tap_check "the report names the run it recorded" test -n "$id"
tap_check "the run is in the database: rung 0, variant exec, the file as suite, pass" test \
    "$(q "$a" "SELECT rung, variant, suite, verdict, n_pass FROM runs WHERE uuid = '$id'")" = \
    "0|exec|reduce_ok.cu|pass|1"
tap_check "its command line names the file by its absolute path and the program's arguments" \
    bash -c 'case "$1" in "kladder exec /"*"/tests/engine/fixtures/exec/reduce_ok.cu --junit "*" -- 777 two words") ;; *) exit 1 ;; esac' _ \
    "$(q "$a" "SELECT argv FROM runs WHERE uuid = '$id'")"
tap_check "the machine is the cpu backend at the run's wave" test \
    "$(q "$a" "SELECT m.backend, m.target, m.wave_size FROM runs r JOIN machines m ON m.id = r.machine_id WHERE r.uuid = '$id'")" = \
    "cpu|cpu-wave32|32"
tap_check "one check, the program: pass, with exec's verdict, arguments, schedule, seed, wave" test \
    "$(q "$a" "SELECT k.check_name, c.verdict, json_extract(c.facts, '$.exec.verdict'),
               json_extract(c.facts, '$.exec.args'), json_extract(c.facts, '$.exec.schedule'),
               json_extract(c.facts, '$.exec.seed'), json_extract(c.facts, '$.exec.wave')
               FROM checks c JOIN check_keys k ON k.id = c.key_id JOIN runs r ON r.id = c.run_id
               WHERE r.uuid = '$id'")" = 'program|pass|pass|["777","two words"]|pct|1|32'
tap_check "its exit status 0 and its own PASS in the output tail" bash -c \
    'test "$1" = 0 && grep -q "PASS" <<<"$2"' _ "$(fact "$a" reduce_ok.cu 0 exit_status)" \
    "$(fact "$a" reduce_ok.cu 0 output_tail)"
tap_check "JUnit of a pass: valid XML, 1 test, no failure" bash -c \
    'xmllint --noout "$1" && grep -q "tests=\"1\" failures=\"0\" errors=\"0\"" "$1"' _ "$KL_TMP/ok.xml"

out=$("$KLADDER" --db "$a" exec "$fx/lastblock_nofence.cu" --seed 3 --junit "$KL_TMP/race.xml" 2>>"$KL_TMP/err")
rc=$?
tap_check "the racy program exits 1 ($rc)" test $rc -eq 1
tap_check "the racy run is recorded as failing, its program check's exec verdict finding" test \
    "$(q "$a" "SELECT verdict FROM runs WHERE suite = 'lastblock_nofence.cu'")|$(fact "$a" lastblock_nofence.cu 0 verdict)|$(fact "$a" lastblock_nofence.cu 0 seed)" = \
    "fail|finding|3"
tap_check "a check per finding: the race, its report naming both lines" bash -c \
    'test "$(cut -d"|" -f1-3 <<<"$1")" = "finding 1: race|race|fail" &&
     grep -q "data race on global memory.*lastblock_ok.cu:23.*lastblock_ok.cu:34" <<<"$1"' _ \
    "$(q "$a" "SELECT k.check_name, c.oracle, c.verdict, replace(c.detail, char(10), ' ')
               FROM checks c JOIN check_keys k ON k.id = c.key_id JOIN runs r ON r.id = c.run_id
               WHERE r.suite = 'lastblock_nofence.cu' AND c.seq = 1")"
tap_check "the program's own FAIL and exit status 1 are kept beside the finding" bash -c \
    'test "$1" = 1 && grep -q "expected 2047: FAIL" <<<"$2"' _ \
    "$(fact "$a" lastblock_nofence.cu 0 exit_status)" "$(fact "$a" lastblock_nofence.cu 0 output_tail)"
tap_check "JUnit of the race: valid XML, 2 tests, 2 failures (the program and the race)" bash -c \
    'xmllint --noout "$1" && grep -q "tests=\"2\" failures=\"2\" errors=\"0\"" "$1" &&
     test "$(grep -c "<failure" "$1")" -eq 2 && grep -q "name=\"finding 1: race\"" "$1"' _ "$KL_TMP/race.xml"

out=$("$KLADDER" --db "$a" exec "$fx/escape_out.cu" --junit "$KL_TMP/esc.xml" 2>>"$KL_TMP/err")
rc=$?
tap_check "a program that exits 3: failed, exit 1 ($rc)" test $rc -eq 1
tap_check "its escape sequences never reach the terminal: no ESC, BEL or CR in the report" bash -c \
    '! LC_ALL=C grep -q "[[:cntrl:]]" <<<"$1" && grep -q "last 126" <<<"$1"' _ "$(tr -d '\n' <<<"$out")"
tap_check "recorded as failed with exit status 3, the tail's control characters replaced" bash -c \
    'test "$1" = "failed|3" && grep -q "last 126" <<<"$2" && ! LC_ALL=C grep -q "[[:cntrl:]]" <<<"$(tr -d "\n" <<<"$2")"' _ \
    "$(fact "$a" escape_out.cu 0 verdict)|$(fact "$a" escape_out.cu 0 exit_status)" \
    "$(fact "$a" escape_out.cu 0 output_tail)"
tap_check "JUnit of a failed program: valid XML, 1 failure" bash -c \
    'xmllint --noout "$1" && grep -q "tests=\"1\" failures=\"1\" errors=\"0\"" "$1"' _ "$KL_TMP/esc.xml"

"$KLADDER" --db "$a" exec "$fx/bad_compile.cu" --junit "$KL_TMP/bad.xml" >/dev/null 2>&1
rc=$?
tap_check "a file that does not compile exits 2 ($rc) and is recorded as an error" bash -c \
    'test "$1" -eq 2 && test "$2" = "error|error|error"' _ "$rc" \
    "$(q "$a" "SELECT r.verdict, c.verdict, json_extract(c.facts, '$.exec.verdict') FROM runs r
               JOIN checks c ON c.run_id = r.id WHERE r.suite = 'bad_compile.cu'")"
tap_check "JUnit of it: valid XML, an error" bash -c \
    'xmllint --noout "$1" && grep -q "failures=\"0\" errors=\"1\"" "$1"' _ "$KL_TMP/bad.xml"

# ---- a kladder killed while its program runs: the run reads interrupted, as a killed run's ----
"$KLADDER" --db "$a" exec "$fx/hang.cu" --timeout 60 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
    [ "$(q "$a" "SELECT verdict FROM runs WHERE suite = 'hang.cu'")" = running ] && break
    sleep 0.05
done
state=$(q "$a" "SELECT verdict FROM runs WHERE suite = 'hang.cu'")
kill -STOP "$pid" # no new child after the list is taken
kids=$(pgrep -P "$pid")
{ kill -9 "$pid"; wait "$pid"; } 2>/dev/null # the shell's "Killed" too
for k in $kids; do kill -9 -- "-$k" 2>/dev/null || kill -9 "$k" 2>/dev/null; done
"$KLADDER" --db "$a" results >/dev/null 2>&1 # opening the database reaps it
tap_check "the run is recorded as running while its program runs, interrupted once killed" test     "$state|$(q "$a" "SELECT verdict FROM runs WHERE suite = 'hang.cu'")" = "running|interrupted"
q "$a" "DELETE FROM runs WHERE suite = 'hang.cu'" # an unfinished run is not exported anyway

# ---- export, pull into a second database, compare ----
"$KLADDER" --db "$a" export --out "$KL_TMP/a.json" 2>>"$KL_TMP/err"
tap_check "export writes the exec facts of every check" test \
    "$(jq '[.checks[] | select(.exec)] | length' "$KL_TMP/a.json")" -eq 5
"$KLADDER" --db "$b" hosts add lab "file://$KL_TMP/a.json" >/dev/null 2>>"$KL_TMP/err"
"$KLADDER" --db "$b" pull >"$KL_TMP/pull1" 2>&1
tap_check "pull takes the 4 exec runs and their 5 checks" grep -q "4 new runs, 5 checks" "$KL_TMP/pull1"
"$KLADDER" --db "$b" pull --full >"$KL_TMP/pull2" 2>&1
tap_check "a second pull of them all finds them the same" \
    grep -q "0 new runs, 0 checks (4 already present)" "$KL_TMP/pull2"
"$KLADDER" --db "$b" export --all --out "$KL_TMP/b.json" 2>>"$KL_TMP/err"
tap_check "pulled, the runs and checks export again as they were, exec facts and all" bash -c \
    'test "$(jq -S "[.runs[] | del(.exported_by)], .checks" "$1")" = "$(jq -S "[.runs[] | del(.exported_by)], .checks" "$2")"' _ \
    "$KL_TMP/a.json" "$KL_TMP/b.json"
rm -f "$KL_TMP/c.db"
q "$b" "VACUUM INTO '$KL_TMP/c.db'" # a copy with what the WAL holds
q "$KL_TMP/c.db" "UPDATE checks SET facts = json_set(facts, '\$.exec.exit_status', 9)
                   WHERE seq = 0 AND run_id = (SELECT id FROM runs WHERE suite = 'reduce_ok.cu')"
"$KLADDER" --db "$KL_TMP/c.db" pull --full >"$KL_TMP/pull3" 2>&1
tap_check "a stored exec run whose exit status differs from the document's is refused" \
    grep -q "with different content (check seq 0: exec differs)" "$KL_TMP/pull3"
tap_check "the pulled racy run keeps exec's verdict, findings and output" test \
    "$(fact "$b" lastblock_nofence.cu 0 verdict)|$(q "$b" "SELECT count(*) FROM checks c JOIN runs r ON r.id = c.run_id WHERE r.suite = 'lastblock_nofence.cu'")" = \
    "finding|2"
"$KLADDER" --db "$b" exec "$fx/lastblock_ok.cu" >/dev/null 2>>"$KL_TMP/err"
"$KLADDER" --db "$b" exec "$fx/lastblock_nofence.cu" --seed 3 >/dev/null 2>>"$KL_TMP/err"
"$KLADDER" --db "$b" compare local lab >"$KL_TMP/cmp" 2>&1
tap_check "compare lines the racy program's checks up on both sides" bash -c \
    'grep -qE "^ +0 +lastblock_nofence.cu +program .* fail/fail" "$1" &&
     grep -qE "^ +0 +lastblock_nofence.cu +finding 1: race .* fail/fail" "$1"' _ "$KL_TMP/cmp"
tap_check "and shows the program only one side ran on that side alone" bash -c \
    'grep -qE "lastblock_ok.cu +program .*pass/not run" "$1" &&
     grep -qE "reduce_ok.cu +program +777 two words +exec .*not run/pass" "$1"' _ "$KL_TMP/cmp"
tap_check "nothing was said on stderr" test ! -s "$KL_TMP/err"
