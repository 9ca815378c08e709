#!/usr/bin/env bash
# Small things a user met: files kladder writes for others (export --out, compile --out) follow
# the umask like any file (0644 under umask 022, to serve from a web root), not 0600; `show
# --lang zh` calls a rung 阶梯 as the interface does; `pull` of a name that is no host is a
# usage error (exit 2) as with every verb.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
mode() { stat -c %a "$1"; }
(umask 022 && "$KLADDER" --db "$db" export --all --out "$KL_TMP/export.json") >/dev/null 2>&1
tap_check "export --out under umask 022: 644 ($(mode "$KL_TMP/export.json"))" test "$(mode "$KL_TMP/export.json")" = 644
(umask 027 && "$KLADDER" --db "$db" export --all --out "$KL_TMP/export2.json") >/dev/null 2>&1
tap_check "export --out under umask 027: 640 ($(mode "$KL_TMP/export2.json"))" test "$(mode "$KL_TMP/export2.json")" = 640
(umask 022 && "$KLADDER" compile --backend cpu --target cpu-wave32 --out "$KL_TMP/k.so" \
    tests/engine/fixtures/drop_tail.kl) >"$KL_TMP/c.txt" 2>&1
sed 's/^/# /' "$KL_TMP/c.txt"
tap_check "compile --out under umask 022: 644 ($(mode "$KL_TMP/k.so" 2>/dev/null))" test "$(mode "$KL_TMP/k.so" 2>/dev/null)" = 644
"$KLADDER" --db "$db" show aiter-4494 --lang zh >"$KL_TMP/zh.txt" 2>&1
tap_check "show --lang zh: a rung is 阶梯, as in the interface" \
    sh -c "grep -q '阶梯' '$KL_TMP/zh.txt' && ! grep -q '梯级' '$KL_TMP/zh.txt'"
"$KLADDER" --db "$db" pull nosuch >/dev/null 2>"$KL_TMP/err"
rc=$?
tap_check "pull of a name that is no host: exit 2 ($rc)" test $rc -eq 2
tap_check "saying so" grep -q "no host named 'nosuch'" "$KL_TMP/err"
# export --since takes the first characters of a run id, as `kladder results` does
for _ in 1 2; do
    "$KLADDER" --db "$db" run --suite tests/engine/fixtures/drop_tail.json --rung 1 --backend cpu \
        --no-progress >/dev/null 2>&1
done
first=$("$KLADDER" --db "$db" results --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[-1]["run_id"])')
"$KLADDER" --db "$db" export --since "${first:0:4}" >"$KL_TMP/since.json" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err"
tap_check "export --since with a run id's first 4 characters: exit 0 ($rc)" test $rc -eq 0
tap_check "and it keeps the runs after that one" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ids = [r["run_id"] for r in d["runs"]]
sys.exit(not (len(ids) == 1 and ids[0] != sys.argv[2]))' "$KL_TMP/since.json" "$first"
"$KLADDER" --db "$db" export --since ffff0000 >/dev/null 2>"$KL_TMP/err"
rc=$?
tap_check "a prefix of no run: exit 2 ($rc), saying so" \
    sh -c "test $rc -eq 2 && grep -q 'no run ffff0000' '$KL_TMP/err'"
