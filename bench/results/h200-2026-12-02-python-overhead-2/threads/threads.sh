#!/usr/bin/env bash
# The background fill's thread count against before, two rounds alternately, each in a process
# of its own: before, the after build with KLADDER_FILL_THREADS=8, 6 and 4 (the cap of both the
# fill on demand and the one made ahead), and with KLADDER_PREFETCH=0; then per-phase times of
# the three counts. Run from the repository root:
#
#   BIN=path/to/device/kladder BEFORE=path/to/before/libkladder.so \
#   BEFORE_PY=path/to/before/python OUT=out-folder \
#       bash bench/results/h200-2026-12-02-python-overhead-2/threads/threads.sh
set -u
: "${BIN:?}" "${BEFORE:?}" "${BEFORE_PY:?}" "${OUT:?}"
repo=$PWD
mkdir -p "$OUT"
O=$(cd "$OUT" && pwd)
AFTER=$(cd "$(dirname "$BIN")" && pwd)/libkladder.so
cd bench/results/2026-12-02-python
export XDG_DATA_HOME=$O/data XDG_CACHE_HOME=$O/cache PYTHONDONTWRITEBYTECODE=1
P=$PWD:$repo/bench/results/h200-2026-12-02-python-overhead
run() { name=$1; shift; env "$@" python3 overhead.py "$O/x.db" 7 >"$O/$name.tsv" 2>"$O/$name.err"; echo "== $name $(grep kladder "$O/$name.tsv")"; }
for r in 1 2; do
    run before-$r KLADDER_LIB="$BEFORE" PYTHONPATH="$BEFORE_PY:$P"
    for t in 8 6 4; do run t$t-$r KLADDER_FILL_THREADS=$t KLADDER_LIB="$AFTER" PYTHONPATH="$repo/python:$P"; done
    run nopf-$r KLADDER_PREFETCH=0 KLADDER_LIB="$AFTER" PYTHONPATH="$repo/python:$P"
done
for t in 8 6 4; do
    KLADDER_PHASE_TIMES=1 KLADDER_FILL_THREADS=$t KLADDER_LIB="$AFTER" PYTHONPATH="$repo/python:$P" \
        python3 overhead.py "$O/x.db" 3 >/dev/null 2>"$O/phases-t$t.txt"
done
lscpu | head -20 >"$O/lscpu.txt"
rm -rf "$O/data" "$O/cache" "$O"/*.db*
