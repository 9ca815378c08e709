#!/usr/bin/env bash
# kladder report on a run of the user's own suite carries what a recipient needs to rerun it: the
# run's command names the manifest by its absolute path (run from another folder with a relative
# one), and a script writes the manifest and its kernel source into a new folder and reruns the
# same command there, which a fresh database on another folder runs to the same verdict. A
# source line that reads like the script's here-document end does not cut the file. A run of a
# built-in case needs nothing bundled; a source that is gone is named, not bundled.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
pl=tests/engine/fixtures/plain
mkdir -p "$KL_TMP/work/mine"
cp $pl/block-sumsq.json "$KL_TMP/work/mine/sumsq.json"
# a raw line "KLADDER_EOF" inside a block comment: valid C, and the first end word the script
# tries, which must not end the bundled file early
{ cat $pl/block_sumsq.hip; printf '/*\nKLADDER_EOF\n*/\n'; } >"$KL_TMP/work/mine/block_sumsq.hip"
(cd "$KL_TMP/work" && "$KLADDER" --db "$db" run --suite mine/sumsq.json --rung 1 --backend cpu \
    --no-progress --timeout 60 >"$KL_TMP/run.txt" 2>&1)
rc=$?
tap_check "the suite's run from its folder, by a relative path (exit $rc)" test $rc -eq 0
id=$("$KLADDER" --db "$db" results --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["run_id"])')
md=$KL_TMP/r.md
(cd / && "$KLADDER" --db "$db" report "$id") >"$md" 2>"$KL_TMP/err.txt"
tap_check "report from another folder: exit 0" test $? -eq 0
sed 's/^/# /' "$md" | sed -n '/Reproduce/,/^# cat/p'
tap_check "the command names the manifest by its absolute path" \
    grep -qxF "kladder run --suite $KL_TMP/work/mine/sumsq.json --rung 1 --backend cpu --no-progress --timeout 60" "$md"
tap_check "the note says the files are bundled, the manifest and its source" \
    grep -qF "The suite's files as they are on this machine now ($KL_TMP/work/mine/sumsq.json and its source)" "$md"
python3 - "$md" "$KL_TMP/rerun.sh" <<'PY'
import re, sys
md = open(sys.argv[1]).read()
at = md.index("The suite's files as they are")
m = re.compile(r"^(`{3,})sh\n(.*?)^\1$", re.S | re.M).search(md, at)
open(sys.argv[2], "w").write(m.group(2))
PY
tap_check "the script writes both files and reruns with --suite at the copy" \
    sh -c "grep -q \"^cat > 'sumsq.json' <<'KLADDER_EOF'\$\" '$KL_TMP/rerun.sh' &&
           grep -q \"^cat > 'block_sumsq.hip' <<'KLADDER_EOF_1'\$\" '$KL_TMP/rerun.sh' &&
           grep -qx \"kladder run --suite ./sumsq.json --rung 1 --backend cpu --no-progress --timeout 60\" '$KL_TMP/rerun.sh'"
# The recipient: another folder, a fresh database, kladder on PATH.
mkdir -p "$KL_TMP/elsewhere" "$KL_TMP/bin"
ln -s "$KLADDER" "$KL_TMP/bin/kladder"
(cd "$KL_TMP/elsewhere" && PATH="$KL_TMP/bin:$PATH" \
    XDG_DATA_HOME="$KL_TMP/other-data" bash "$KL_TMP/rerun.sh") >"$KL_TMP/rerun.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/rerun.txt" | tail -4
tap_check "the script reruns the run elsewhere (exit $rc)" test $rc -eq 0
tap_check "the same checks, the same verdicts" \
    bash -c "diff <(grep -E '^(pass|fail|doubt|skip|error|hang) ' '$KL_TMP/run.txt' | awk '{print \$1, \$2, \$3, \$4}') \
                <(grep -E '^(pass|fail|doubt|skip|error|hang) ' '$KL_TMP/rerun.txt' | awk '{print \$1, \$2, \$3, \$4}')"
tap_check "the bundled source is the file as run, the end-word line in it kept" \
    cmp "$KL_TMP/work/mine/block_sumsq.hip" "$(ls -d "$KL_TMP"/elsewhere/kladder-rerun-*)/block_sumsq.hip"
tap_check "the recipient's run was recorded in its own database" \
    test "$(XDG_DATA_HOME="$KL_TMP/other-data" "$KLADDER" results --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1

# The other side: a built-in case needs no file; a source that is gone is named.
"$KLADDER" --db "$db" run --case aiter-4812 --backend cpu --no-progress >/dev/null 2>&1
case_id=$("$KLADDER" --db "$db" results --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["run_id"])')
"$KLADDER" --db "$db" report "$case_id" >"$KL_TMP/case.md"
tap_check "a built-in case's report bundles nothing" \
    sh -c "grep -q '^kladder run --case aiter-4812' '$KL_TMP/case.md' && ! grep -qE 'KLADDER_EOF|files as they are' '$KL_TMP/case.md'"
rm "$KL_TMP/work/mine/block_sumsq.hip"
"$KLADDER" --db "$db" report "$id" >"$KL_TMP/gone.md"
tap_check "a source gone since: the report says so and bundles the manifest alone" \
    sh -c "grep -qE 'not its source: .*block.?_sumsq\.hip: No such file' '$KL_TMP/gone.md' && ! grep -q \"cat > 'block_sumsq.hip'\" '$KL_TMP/gone.md'"
"$KLADDER" --db "$db" report "$id" --format html >"$KL_TMP/r.html"
tap_check "html: the script too, escaped" grep -q "cat &gt; &#39;sumsq.json&#39; &lt;&lt;\|cat &gt; 'sumsq.json' &lt;&lt;" "$KL_TMP/r.html"
