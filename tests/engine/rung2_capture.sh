#!/usr/bin/env bash
# scripts/kladder_capture.py: the safetensors it writes replay in kladder (a capture with a
# zero row catches the divide by the row maximum), and degenerate captures (all zeros, one
# value) are refused with nothing written. The hooks need PyTorch; without it that part skips.
. tests/lib.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "python3 not found" python3
python3 - "$KL_TMP" <<'PY'
import os, struct, sys
sys.path.insert(0, "scripts")
from kladder_capture import write_safetensors, CaptureError
d = sys.argv[1]
rows = [[0.25 * ((i * 5 + r) % 9 - 4) for i in range(40)] for r in range(4)]
rows[2] = [0.0] * 40
write_safetensors(d + "/cap.safetensors", [("x", "F32", [4, 40], struct.pack("<160f", *sum(rows, [])))],
                  {"model": "test"})
def refused(name, tensors):
    p = d + "/" + name + ".safetensors"
    try:
        write_safetensors(p, tensors)
    except CaptureError as e:
        print("refused:", name, e)
        return not os.path.exists(p)
    return False
ok = [
    refused("zeros", [("x", "F32", [2, 3], bytes(24))]),
    refused("onevalue", [("x", "BF16", [4], struct.pack("<4H", *[0x3f80] * 4))]),
    refused("second_zeros", [("x", "F32", [2], struct.pack("<2f", 1.5, 2)), ("s", "F32", [], struct.pack("<f", 3)),
                             ("y", "F32", [2], bytes(8))]),
    refused("shape", [("x", "F32", [3], struct.pack("<2f", 1, 2))]),
    refused("dtype", [("x", "F8_E4M3FNUZ", [2], b"\x01\x02")]),
]
open(d + "/refusals", "w").write(" ".join("1" if o else "0" for o in ok))
PY
tap_check "the capture script writes a capture" test -s "$KL_TMP/cap.safetensors"
read -r zeros one second shape dtype <"$KL_TMP/refusals"
tap_check "an all-zero capture is refused and not written" test "$zeros" = 1
tap_check "a capture of one value is refused" test "$one" = 1
tap_check "one degenerate tensor stops the whole file" test "$second" = 1
tap_check "bytes that do not match the shape are refused" test "$shape" = 1
tap_check "FNUZ fp8 is refused" test "$dtype" = 1
"$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite tests/engine/fixtures/rowscale.json --backend cpu \
    --no-progress --timeout 60 --variant buggy --inputs "$KL_TMP/cap.safetensors" >"$KL_TMP/out.txt" 2>&1
sed 's/^/# /' "$KL_TMP/out.txt"
tap_check "kladder replays it and the zero row catches the divide by the row maximum" \
    grep -qE '^ +replayed x \(cap\.safetensors, x\): y: 40 of 160 elements differ .*first at \[2, 0\]' "$KL_TMP/out.txt"
if python3 -c 'import torch' 2>/dev/null; then
    python3 - "$KL_TMP" <<'PY'
import sys, torch
sys.path.insert(0, "scripts")
from kladder_capture import Capture
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(8, 40), torch.nn.ReLU())
with Capture(m, {"x": "0"}, sys.argv[1] + "/torch.safetensors"):
    m(torch.randn(4, 8))
PY
    tap_check "with PyTorch: a forward hook captures a layer's output" test -s "$KL_TMP/torch.safetensors"
else
    tap_skip "PyTorch is not installed: the forward-hook capture is not exercised"
fi
