#!/usr/bin/env bash
# Rung 6 on every visible GPU of this machine (cuda backend): both collective reproducers, all
# their checks (TP 4 ones are skipped with the reason when fewer than 4 GPUs are visible), JSON
# results in $OUT. NCCL is the reference collective when it loads: from $KLADDER_NCCL_LIBRARY,
# the loader's path, or the nvidia/nccl/lib folder of this machine's PyTorch install.
#
#   KL_BUNDLE=build/device bash scripts/device-rung6.sh      (the bundle of scripts/device-bundle.sh)
#   KLADDER=build/kladder  bash scripts/device-rung6.sh
set -u
OUT=${OUT:-build/device-out}
mkdir -p "$OUT"
if [ -n "${KL_BUNDLE:-}" ]; then
    KLADDER=${KLADDER:-$KL_BUNDLE/kladder}
    export LD_LIBRARY_PATH=$KL_BUNDLE${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
KLADDER=${KLADDER:-build/kladder}
# NVLink multicast (NVLS) stays off: rung 6 never asks for it, and NCCL must not either.
export NCCL_NVLS_ENABLE=0
export XDG_DATA_HOME=$OUT/xdg-data XDG_CACHE_HOME=$OUT/xdg-cache

if [ -z "${KLADDER_NCCL_LIBRARY:-}" ]; then
    found=$(python3 -c '
import glob, os, site, sys
roots = list(getattr(site, "getsitepackages", lambda: [])())
roots += [p for p in sys.path if p.endswith("-packages")]
for r in roots:
    hits = sorted(glob.glob(os.path.join(r, "nvidia", "nccl", "lib", "libnccl.so*")))
    if hits:
        print(hits[0])
        break
' 2>/dev/null)
    if [ -n "$found" ] && ! ldconfig -p 2>/dev/null | grep -q 'libnccl.so.2 '; then
        export KLADDER_NCCL_LIBRARY=$found
    fi
fi
echo "NCCL: ${KLADDER_NCCL_LIBRARY:-from the dynamic loader search path}" | tee "$OUT/rung6-nccl.txt"
nvidia-smi topo -m >"$OUT/rung6-topo.txt" 2>&1 || true

status=0
for case in aiter-4812 aiter-6446; do
    timeout 280 "$KLADDER" --db "$OUT/rung6.db" run --case "$case" --backend cuda --json \
        --timeout 30 --no-progress >"$OUT/rung6-$case.json" 2>"$OUT/rung6-$case.err"
    rc=$?
    echo "$case: exit $rc" | tee -a "$OUT/rung6-summary.txt"
    [ $rc -eq 0 ] || status=1
done
exit $status
