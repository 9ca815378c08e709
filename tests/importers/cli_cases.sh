# The case-index CLI: cases/show/import with filters, JSON, usage errors, and imports that fail
# leaving the database as it was.
. tests/tap.sh
fix=tests/fixtures/import
db=$KL_TMP/cases.db
k() { "$KLADDER" --db "$db" "$@"; }
count() { python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }

k import cases "$fix/cases.json" >"$KL_TMP/out" 2>&1
tap_check "import a valid index" grep -q "imported 4 cases" "$KL_TMP/out"
tap_check "cases --json lists all" test "$(k cases --json | count)" = 4
tap_check "--gap filters the primary gap" test "$(k cases --gap 4 --json | count)" = 2
tap_check "--repo matches the case's own repository" test "$(k cases --repo flydsl --json | python3 -c 'import json,sys; print(",".join(c["id"] for c in json.load(sys.stdin)))')" = flydsl-1220
tap_check "--mentions matches any reference's repository" test "$(k cases --mentions flydsl --json | count)" = 2
tap_check "--repo and --mentions together" test "$(k cases --repo aiter --mentions flydsl --json | count)" = 1
tap_check "--symptom" test "$(k cases --symptom hang --json | count)" = 1
tap_check "--search Chinese single character" test "$(k cases --search 挂 --json | python3 -c 'import json,sys; print(",".join(c["id"] for c in json.load(sys.stdin)))')" = aiter-4494
tap_check "--search two English words" test "$(k cases --search 'semaphore replay' --json | count)" = 1
tap_check "filters combine" test "$(k cases --gap 4 --search stream --json | count)" = 1
k show aiter-4494 --lang zh >"$KL_TMP/zh"
tap_check "show in Chinese" grep -q "信号量" "$KL_TMP/zh"
k show aiter-4494 --json | python3 -c 'import json,sys; c=json.load(sys.stdin); assert c["id"]=="aiter-4494" and c["refs"][0]["kind"]=="pr"'
tap_check "show --json is a case object" test $? = 0
k cases --json >"$KL_TMP/before.json"

# usage errors: exit 2 and a message that names the problem
k cases --gap 9 2>"$KL_TMP/err"; rc=$?
tap_check "--gap 9 is a usage error" test $rc = 2
tap_check "the message names the option" grep -q -- "--gap expects a whole number from 1 to 7" "$KL_TMP/err"
k cases --symptom nope 2>"$KL_TMP/err"; tap_check "unknown symptom exits 2" test $? = 2
k frobnicate 2>"$KL_TMP/err"; tap_check "unknown verb exits 2" test $? = 2
tap_check "unknown verb is named" grep -q "unknown verb 'frobnicate'" "$KL_TMP/err"
k show no-such-case 2>"$KL_TMP/err"; tap_check "unknown case exits 2" test $? = 2

# hostile files: each refused with file/field named, database unchanged
mkdir -p "$KL_TMP/bad"
cp "$fix/gaps.json" "$fix/rungs.json" "$KL_TMP/bad/"
while IFS='|' read -r name expr want; do
    python3 - "$fix/cases.json" "$KL_TMP/bad/cases.json" "$expr" <<'PY'
import json, sys
src, dst, expr = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(src, encoding="utf-8").read()
doc = json.loads(text)
c = doc["cases"]
if expr == "truncate":
    open(dst, "w").write(text[: len(text) // 3]); sys.exit()
exec(expr)
open(dst, "w", encoding="utf-8").write(json.dumps(doc, ensure_ascii=False))
PY
    k import cases "$KL_TMP/bad/cases.json" 2>"$KL_TMP/err" >/dev/null; rc=$?
    k cases --json >"$KL_TMP/after.json"
    if [ $rc = 2 ] && grep -q -- "$want" "$KL_TMP/err" && grep -q "bad/cases.json" "$KL_TMP/err" \
        && cmp -s "$KL_TMP/before.json" "$KL_TMP/after.json" \
        && ! grep -q $'\x1b' "$KL_TMP/err"; then
        tap_ok "hostile file refused, database unchanged: $name"
    else
        tap_fail "hostile file: $name (rc=$rc)"; cat "$KL_TMP/err"
    fi
done <<'CASES'
escape sequence in a title|c[0]["title_en"] = "\x1b]0;pwned\x07\x1b[2J"|title_en
truncated JSON|truncate|not valid JSON
wrong type|c[1]["rung"] = "4"|'rung'
1 MB string|c[2]["summary_en"] = "x" * (1 << 20)|at most
duplicate id|c[1]["id"] = c[0]["id"]; c[1]["refs"] = c[0]["refs"]|aiter-6402
missing list|del doc["cases"]|'cases'
CASES
tap_check "--version" sh -c "'$KLADDER' --version | grep -q '^kladder '"

# The built-in index (data/): 32 cases, filters and bilingual search agree with the data.
rdb=$KL_TMP/real.db
r() { "$KLADDER" --db "$rdb" "$@"; }
ids() { python3 -c 'import json,sys; print(" ".join(sorted(c["id"] for c in json.load(sys.stdin))))'; }
tap_check "built-in index has 32 cases" test "$(r cases --json | count)" = 32
tap_check "searching 挂 finds exactly the hang cases" test "$(r cases --search 挂 --json | ids)" = "$(r cases --symptom hang --json | ids)"
tap_check "gap 5 holds the five timing cases" test "$(r cases --gap 5 --json | count)" = 5
tap_check "English search: 151936" test "$(r cases --search 151936 --json | ids)" = "aiter-6402"
tap_check "Chinese search: 信号量" sh -c "'$KLADDER' --db '$rdb' cases --search 信号量 --json | grep -q aiter-4494"
tap_check "--repo atom" test "$(r cases --repo atom --json | ids)" = "atom-1750 atom-2533"
r cases --json | python3 -c '
import json, sys
cases = json.load(sys.stdin)
src = json.load(open("data/cases.json", encoding="utf-8"))["cases"]
by = {c["id"]: c for c in cases}
assert len(by) == len(src) == 32
for c in src:
    assert by[c["id"]] == c, c["id"]
'
tap_check "cases --json reproduces data/cases.json field for field" test $? = 0
# the table speaks one language: in Chinese no English heading or count, and the columns keep
# their places (a heading two cells a character wide does not push the rows out of line)
r cases --search "wave size" --lang zh >"$KL_TMP/zh.txt"
sed 's/^/# /' "$KL_TMP/zh.txt"
tap_check "cases --lang zh: its headings and count in Chinese, no ID/GAP/RUNG/cases" \
    sh -c "head -1 '$KL_TMP/zh.txt' | grep -q '^编号 *缺口 阶梯 症状 *标题\$' &&
           ! grep -qE '\\b(ID|GAP|RUNG|SYMPTOMS|TITLE|cases?)\\b' '$KL_TMP/zh.txt' &&
           tail -1 '$KL_TMP/zh.txt' | grep -qE '^共 [0-9]+ 个案例\$'"
tap_check "cases --lang zh: each row's rung under the heading 阶梯 (column 20)" \
    sh -c "sed -n 2p '$KL_TMP/zh.txt' | cut -c20 | grep -q '[1-8]'"
r cases --search "wave size" >"$KL_TMP/en.txt"
tap_check "cases in English: ID GAP RUNG SYMPTOMS TITLE and 'N cases'" \
    sh -c "head -1 '$KL_TMP/en.txt' | grep -q '^ID *GAP *RUNG *SYMPTOMS *TITLE\$' &&
           tail -1 '$KL_TMP/en.txt' | grep -qE '^[0-9]+ cases?\$'"
