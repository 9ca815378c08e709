#!/usr/bin/env bash
# The cpu backend's weakly ordered memory (the pct schedule, engine/cpu/cpu_weak.h), on message
# passing between two blocks (tests/engine/fixtures/weak/mp.kl): values stored, then a flag
# raised with no fence (mp), with a release of block scope only (scope), or with a fence by a
# thread whose siblings' stores no barrier ordered before it (sibling). Over 20 seeds the reader
# copies out stale values (the oracle sees them: wrong elements, beside the race report) in at
# least 19, and the fixed variant (barrier, then a device fence or release) passes in all 20.
# A coherent memory, as before, gave the right values in all of them.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE

# outcome FILE VARIANT: "VERDICT BAD_COUNT" of the variant's rung 5 check
outcome() {
    python3 - "$1" "$2" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
for c in rep["checks"]:
    if c["variant"] == sys.argv[2]:
        print(c["verdict"], c["bad_count"] or 0); break
PY
}

for s in mp scope sibling; do
    stale=0 clean=0
    for seed in $(seq 1 20); do
        "$KLADDER" --db "$KL_TMP/w.db" run --rung 5 --suite tests/engine/fixtures/weak/$s.json \
            --backend cpu --repeat 1 --no-progress --timeout 60 --schedule pct --seed $seed \
            --json >"$KL_TMP/$s.json" 2>"$KL_TMP/$s.err"
        read -r v bad <<<"$(outcome "$KL_TMP/$s.json" buggy)"
        [ "$v" = fail ] && [ "${bad:-0}" -gt 0 ] && stale=$((stale + 1))
        read -r v bad <<<"$(outcome "$KL_TMP/$s.json" fixed)"
        [ "$v" = pass ] && clean=$((clean + 1))
    done
    sed 's/^/# /' "$KL_TMP/$s.err"
    tap_check "$s: the reader copies out stale values in >= 19 of 20 seeds ($stale)" test $stale -ge 19
    tap_check "$s: the fixed variant passes in 20 of 20 seeds ($clean)" test $clean -eq 20
done

# The default schedule keeps memory coherent: the same buggy kernel passes there.
"$KLADDER" --db "$KL_TMP/w.db" run --rung 5 --suite tests/engine/fixtures/weak/mp.json \
    --backend cpu --repeat 1 --no-progress --timeout 60 --json >"$KL_TMP/def.json" 2>&1
tap_check "the default schedule (coherent memory) lets mp's buggy variant pass" \
    test "$(outcome "$KL_TMP/def.json" buggy)" = "pass 0"

# The race report names each access's source line (the kernel's line table, read by
# llvm-symbolizer or addr2line): mp.kl line 15 stores the data, line 35 copies it out. Without
# either tool on PATH it keeps kernel+offset.
src=tests/engine/fixtures/weak/mp.kl
wline=$(grep -n 'data\[t\] = in\[t\]' $src | cut -d: -f1)
rline=$(grep -n 'out\[t\] = data\[t\]' $src | cut -d: -f1)
"$KLADDER" --db "$KL_TMP/w.db" run --rung 5 --suite tests/engine/fixtures/weak/mp.json \
    --backend cpu --variant buggy --repeat 1 --no-progress --timeout 60 --schedule pct --seed 1 \
    >"$KL_TMP/lines.txt" 2>&1
sed 's/^/# /' "$KL_TMP/lines.txt"
if command -v llvm-symbolizer-22 >/dev/null || command -v llvm-symbolizer >/dev/null ||
    command -v addr2line >/dev/null; then
    tap_check "the race report names both source lines (mp.kl:$wline, mp.kl:$rline)" \
        grep -qE "write by block 0 thread [0-9]+ at mp_buggy\+0x[0-9a-f]+ \(mp\.kl:$wline\), then read by block 1 thread [0-9]+ at mp_buggy\+0x[0-9a-f]+ \(mp\.kl:$rline\)" "$KL_TMP/lines.txt"
else
    tap_skip "no llvm-symbolizer or addr2line on PATH"
fi
# PATH: every program of the system's bin folders (the compiler and its assembler and linker)
# but the symbolizers.
mkdir -p "$KL_TMP/nobin"
for d in /usr/local/bin /usr/bin /bin; do
    for f in "$d"/*; do
        case ${f##*/} in llvm-symbolizer* | addr2line | llvm-addr2line*) continue ;; esac
        [ -e "$KL_TMP/nobin/${f##*/}" ] || ln -s "$f" "$KL_TMP/nobin/${f##*/}"
    done
done
PATH=$KL_TMP/nobin "$KLADDER" --db "$KL_TMP/w.db" run \
    --rung 5 --suite tests/engine/fixtures/weak/mp.json --backend cpu --variant buggy --repeat 1 \
    --no-progress --timeout 60 --schedule pct --seed 1 >"$KL_TMP/nolines.txt" 2>&1
sed 's/^/# /' "$KL_TMP/nolines.txt"
tap_check "without a symbolizer the report keeps kernel+offset" \
    grep -qE "write by block 0 thread [0-9]+ at mp_buggy\+0x[0-9a-f]+, then read by block 1 thread [0-9]+ at mp_buggy\+0x[0-9a-f]+, with" "$KL_TMP/nolines.txt"
