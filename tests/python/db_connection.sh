#!/usr/bin/env bash
# kladder from Python keeps one connection per database for the process (python/kladder/
# ladder.py, _db): the runs of several kladder.ladder() calls land in the same file through it;
# a database file removed since gets a new connection (the next run lands in the new file, not
# in the removed one); ":memory:" stays a database of the run's own; and a run a Ladder left
# open is ended at exit, before its connection closes. Debian's python3 with numpy.
. tests/tap.sh
. tests/python_env.sh numpy
KLADDER=$KL_BUILD/kladder
db=$KL_TMP/k.db

$py - "$db" >"$KL_TMP/out.txt" 2>&1 <<'PY'
import importlib, os, sys
import kladder
import ops
L = importlib.import_module("kladder.ladder")
db = sys.argv[1]
o = ops.OPS["softmax"]
kw = dict(params=o["params"], buffers=o["buffers"], rungs=(2,), tolerance=o["tolerance"],
          db=db)
for name in ("first", "second"):
    print(name, kladder.ladder(ops.softmax, o["reference"], name=name, **kw).verdict)
print("connections", len(L._dbs))
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
print("third", kladder.ladder(ops.softmax, o["reference"], name="third", **kw).verdict)
print("connections", len(L._dbs), "replaced", len(L._replaced))
print("memory", kladder.ladder(ops.softmax, o["reference"], name="memory",
                               **dict(kw, db=":memory:")).verdict)
print("connections", len(L._dbs))
lad = kladder.Ladder(ops.softmax, o["reference"], name="left-open", **kw)
lad.run_check(0)
print("left open")
PY
rc=$?
sed 's/^/# /' "$KL_TMP/out.txt"
tap_check "the script ran" test $rc -eq 0
tap_check "two runs, one connection" grep -qx "connections 1" "$KL_TMP/out.txt"
tap_check "the removed file's connection is replaced" grep -qx "connections 1 replaced 1" "$KL_TMP/out.txt"
tap_check "the runs pass" test "$(grep -cE '^(first|second|third|memory) pass$' "$KL_TMP/out.txt")" -eq 4

"$KLADDER" --db "$db" results --json >"$KL_TMP/runs.json" 2>"$KL_TMP/err.txt"
$py - "$KL_TMP/runs.json" >"$KL_TMP/runs.txt" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    print(r["suite"], r["verdict"])
PY
sed 's/^/# /' "$KL_TMP/runs.txt"
tap_check "the new file holds the runs made after it: third, and the one left open" \
    test "$(sort "$KL_TMP/runs.txt" | tr '\n' ' ')" = "py-left-open pass py-third pass "
