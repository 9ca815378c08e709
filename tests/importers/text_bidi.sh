# Text from outside with bidirectional controls or zero-width characters: a pulled document is
# refused like one with an escape sequence (naming the field), and strings already in a database
# — a host name holding U+202E RIGHT-TO-LEFT OVERRIDE — reach neither `results` nor the Runs view
# raw: they show U+FFFD in its place.
. tests/tap.sh
db=$KL_TMP/bidi.db
k() { "$KLADDER" --db "$db" "$@"; }
rlo=$(printf '\342\200\256') zwsp=$(printf '\342\200\213') fffd=$(printf '\357\277\275')

python3 tests/fixtures/remote/gen_results.py --host lab --runs 2 --checks 3 --out "$KL_TMP/good.json"
for c in 202e 200b 2067; do
    python3 - "$KL_TMP/good.json" "$KL_TMP/bad-$c.json" "$c" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["machines"][0]["host"] = "vm" + chr(int(sys.argv[3], 16)) + "xob"
json.dump(d, open(sys.argv[2], "w"))
PY
    k hosts add "bad$c" "file://$KL_TMP/bad-$c.json" >/dev/null
    k pull "bad$c" >"$KL_TMP/out" 2>&1; rc=$?
    tap_check "U+${c^^} in a machine's host name: the pull fails, naming the field" \
        sh -c "test $rc != 0 && grep -q \"machines\\[0\\].*host.*control character\" '$KL_TMP/out'"
done
tap_check "and nothing was stored" test "$(k results --json)" = "[]"

# a database that holds such strings already (written before they were refused)
k hosts add lab "file://$KL_TMP/good.json" >/dev/null && k pull lab >/dev/null 2>&1
tap_check "a clean document pulls" test "$(k results --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 2
sqlite3 "$db" "PRAGMA foreign_keys = OFF;
  INSERT INTO hosts (name, url, added) SELECT 'ev' || char(0x202E) || 'il', url, added FROM hosts WHERE name = 'lab';
  UPDATE runs SET origin = 'ev' || char(0x202E) || 'il', host = 'vm' || char(0x202E) || 'xob' || char(0x200B);
  UPDATE machines SET host = 'vm' || char(0x202E) || 'xob';"
tap_check "the database now holds U+202E in host names" \
    sh -c "sqlite3 '$db' 'SELECT host FROM runs' | grep -q '$rlo'"
k results >"$KL_TMP/list.txt"
tap_check "results: no raw U+202E or U+200B" sh -c "! grep -q -e '$rlo' -e '$zwsp' '$KL_TMP/list.txt'"
tap_check "results: the host shows U+FFFD in its place" grep -q "ev${fffd}il" "$KL_TMP/list.txt"
id=$(k results --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["run_id"])')
k results "$id" >"$KL_TMP/one.txt"
tap_check "results RUN: the machine's host name is escaped too" \
    sh -c "! grep -q -e '$rlo' -e '$zwsp' '$KL_TMP/one.txt' && grep -q 'vm${fffd}xob' '$KL_TMP/one.txt'"
k results --host "ev${rlo}il" --json | python3 -c '
import json, sys; s = json.dumps(json.load(sys.stdin), ensure_ascii=False)
assert "\u202e" not in s and "\u200b" not in s, s' 2>/dev/null
tap_check "results --json: no raw bidi control either" test $? = 0

printf '3\n:save-screen %s\n' "$KL_TMP/runs.screen" >"$KL_TMP/steps"
KLADDER_SCRIPT=$KL_TMP/steps KLADDER_SIZE=120x30 LC_ALL=C.UTF-8 TERM=xterm-256color \
    "$KLADDER" --db "$db" >/dev/null 2>"$KL_TMP/stderr"
tap_check "the Runs view draws" test -s "$KL_TMP/runs.screen"
tap_check "the Runs view: no raw U+202E or U+200B, U+FFFD instead" \
    sh -c "! grep -q -e '$rlo' -e '$zwsp' '$KL_TMP/runs.screen' && grep -q '$fffd' '$KL_TMP/runs.screen'"
