#!/usr/bin/env bash
# A worker killed from outside (a person's kill, the OOM killer), not by kladder's watchdog, has
# shown nothing about the kernel: the check it ran is an error naming the signal, never a crash
# or a hang that catches the buggy variant. The buggy variant's check "big" never returns, held
# for a limit far longer than the test waits, so the kill lands while that check runs whatever
# the machine's load; only the worker is killed, and the run goes on to its end.
. tests/lib.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "python3 is needed to read the run's JSON" python3
db=$KL_TMP/k.db
fx=tests/engine/fixtures
ev=$KL_TMP/events
: >"$ev"
"$KLADDER" --db "$db" run --rung 1 --suite $fx/hang.json --backend cpu --timeout 600 \
    --no-progress --json --events 3 3>"$ev" >"$KL_TMP/run.json" 2>"$KL_TMP/err" &
owner=$!

# Wait for the buggy variant's "big" check to start, then kill the worker that runs it.
started=no
for _ in $(seq 1 1200); do # up to 120 s on a loaded machine
    if grep '"check-start"' "$ev" | grep '"variant":"buggy"' | grep -q '"check":"big"'; then
        started=yes
        break
    fi
    sleep 0.1
done
tap_check "the hanging check starts" test $started = yes
sleep 1 # mostly past its setup; killed before or after, it is the same error
killed=
for _ in $(seq 1 100); do
    worker=$(pgrep -P $owner | head -1)
    if [ -n "$worker" ] && kill -KILL "$worker" 2>/dev/null; then killed=$worker; break; fi
    sleep 0.1
done
tap_check "its worker is killed from outside (${killed:-none})" test -n "$killed"
wait $owner
rc=$?
sed 's/^/# err: /' "$KL_TMP/err"

python3 - "$KL_TMP/run.json" >"$KL_TMP/big" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["checks"]:
    if c["variant"] == "buggy" and c["check"] == "big":
        print(c["verdict"])
        print(c["detail"])
print("met", d["expectation_met"], d["verdict"])
PY
sed 's/^/# /' "$KL_TMP/big"
tap_check "the killed check is an error, not a hang or a failure" test "$(sed -n 1p "$KL_TMP/big")" = error
tap_check "its detail names the signal and says it came from outside" \
    grep -q "killed by signal 9 (SIGKILL) from outside kladder" "$KL_TMP/big"
tap_check "the buggy variant is not counted as caught: the run is not met" \
    bash -c "grep -q '^met False ' '$KL_TMP/big' && ! grep -q '^met .* pass$' '$KL_TMP/big'"
tap_check "and exits 1 ($rc)" test $rc = 1
tap_check "the database records the check as an error and the run not as a pass" \
    bash -c "'$KLADDER' --db '$db' results --json | python3 -c 'import json,sys; r = json.load(sys.stdin)[0]; sys.exit(not (r[\"verdict\"] != \"pass\" and r[\"counts\"][\"error\"] == 1))'"
