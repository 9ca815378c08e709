#!/usr/bin/env bash
# Rung 2 replays captured tensors: the reproducers' own captures (regenerated bit for bit by
# their committed script) catch each buggy kernel, a user's file or folder given with --inputs
# binds tensors to the input buffers they are named after, and every capture that does not fit
# (wrong rank or size, a value the buffer cannot hold exactly, raw 16-bit integers for a bf16
# buffer, a truncated file, nothing to bind) stops the run before anything is recorded, with a
# message naming the file, the tensor and the field.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
f=tests/engine/fixtures
db=$KL_TMP/k.db
run() { # out-file args...
    local o=$1
    shift
    "$KLADDER" --db "$db" run --rung 2 --backend cpu --no-progress --timeout 60 "$@" >"$o" 2>&1
}
runs() { "$KLADDER" --db "$db" results --json 2>/dev/null | grep -c '"run_id"'; }

if command -v python3 >/dev/null 2>&1; then
    python3 scripts/make_captures.py "$KL_TMP/caps" >/dev/null
    same=1
    for c in kernels/captures/*; do
        cmp -s "$c" "$KL_TMP/caps/$(basename "$c")" || { same=0; echo "# $c differs"; }
    done
    tap_check "the committed captures are what scripts/make_captures.py writes" test $same -eq 1
    tap_check "and they are small (under 1 MB in all)" test "$(du -sk kernels/captures | cut -f1)" -lt 1024
else
    tap_skip "python3 not found: the capture script is not rerun"
fi

# Each reproducer's captured inputs catch its buggy kernel and pass its fixed one.
for s in flydsl-1020 flydsl-1213 atom-1750 aiter-5801; do
    run "$KL_TMP/$s.txt" --suite $s
    grep -E ' r2 replay ' -A1 "$KL_TMP/$s.txt" | sed 's/^/# /'
    tap_check "$s: the replayed capture passes the fixed kernel" grep -qE '^pass +fixed +r2 replay ' "$KL_TMP/$s.txt"
    tap_check "$s: and catches the buggy one, naming the capture" \
        grep -qE '^ +replayed [A-Za-z]+ \(captures?/?[a-z0-9-]*\.(safetensors|npy)?|^ +replayed [A-Za-z]+ \([a-z0-9-]+\.(safetensors|npy), ' "$KL_TMP/$s.txt"
done

# A user's own capture: three rows of x, one all zeros, as safetensors; the rows parameter
# comes from the tensor.
python3 - "$KL_TMP" <<'PY'
import json, struct, sys
d = sys.argv[1]
def st(path, tensors):
    hdr, off, blob = {}, 0, b""
    for name, dtype, shape, data in tensors:
        hdr[name] = {"dtype": dtype, "shape": shape, "data_offsets": [off, off + len(data)]}
        off += len(data); blob += data
    h = json.dumps(hdr).encode()
    open(path, "wb").write(struct.pack("<Q", len(h)) + h + blob)
rows = [[0.5 * ((i * 7 + r) % 11 - 5) for i in range(40)] for r in range(3)]
rows[1] = [0.0] * 40
x = struct.pack("<120f", *sum(rows, []))
st(d + "/mycap.safetensors", [("x", "F32", [3, 40], x), ("unrelated", "I32", [1], b"\0\0\0\0")])
st(d + "/flat.safetensors", [("x", "F32", [120], x)])
st(d + "/tenth.safetensors", [("scores", "F32", [2, 24], struct.pack("<48f", *([0.1] + [0.5] * 47)))])
open(d + "/trunc.safetensors", "wb").write(open(d + "/mycap.safetensors", "rb").read()[:-9])
st(d + "/y.safetensors", [("y", "F32", [3, 40], x)])
# A folder holding x as .npy, and raw 16-bit integers for a bf16 buffer.
import os
os.makedirs(d + "/capdir", exist_ok=True)
def npy(path, descr, shape, data):
    h = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, ", ".join(map(str, shape)))
    h += " " * (-(10 + len(h) + 1) % 64) + "\n"
    open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + data)
npy(d + "/capdir/x.npy", "<f4", [3, 40], x)
npy(d + "/scores.npy", "<u2", [2, 24], struct.pack("<48H", *([0x3f80] * 48)))
# A folder whose file name carries an escape sequence.
os.makedirs(d + "/escdir", exist_ok=True)
st(d + "/escdir/\x1b[2Jx.safetensors", [("x", "F32", [3, 40], x)])
PY
n0=$(runs)
run "$KL_TMP/mine.txt" --suite $f/rowscale.json --inputs "$KL_TMP/mycap.safetensors"
rc=$?
sed 's/^/# /' "$KL_TMP/mine.txt"
tap_check "--inputs FILE: expectation met (exit 0)" test $rc -eq 0
tap_check "--inputs FILE: the replay takes its shape from the tensor" \
    grep -qE '^pass +fixed +r2 replay-inputs +rows=3,n=40 ' "$KL_TMP/mine.txt"
tap_check "--inputs FILE: the zero row of the capture catches the divide by the row maximum" \
    grep -qE '^ +replayed x \(mycap\.safetensors, x\): y: 40 of 120 elements differ .*first at \[1, 0\].*input x there is 0$' "$KL_TMP/mine.txt"
run "$KL_TMP/dir.txt" --suite $f/rowscale.json --inputs "$KL_TMP/capdir" --variant buggy
tap_check "--inputs DIR: x.npy binds to x and catches the bug" \
    grep -qE '^ +replayed x \(x\.npy, x\): y: 40 of 120' "$KL_TMP/dir.txt"
n1=$(runs)

# Captures that do not fit: exit 2, one message, nothing recorded.
refuse() { # name expected-substring run-args...
    local name=$1 want=$2
    shift 2
    run "$KL_TMP/bad.txt" "$@"
    local rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$want" "$KL_TMP/bad.txt"; then
        tap_ok "$name"
    else
        tap_fail "$name (exit $rc)"
        sed 's/^/# /' "$KL_TMP/bad.txt"
    fi
}
refuse "a tensor of the wrong rank" \
    "flat.safetensors: tensor 'x': shape: expected 2 dimensions (buffer x), got 1" \
    --suite $f/rowscale.json --inputs "$KL_TMP/flat.safetensors"
refuse "a value the buffer cannot hold exactly" \
    "tenth.safetensors: tensor 'scores': element 0: 0.100000001 is not exact in buffer scores's bf16" \
    --suite $f/argmax_ties.json --inputs "$KL_TMP/tenth.safetensors"
refuse "16-bit integers for a bf16 buffer need a declared dtype" \
    "scores.npy: tensor 'scores': dtype: 16-bit integers reach a bf16 buffer (scores) only when" \
    --suite $f/argmax_ties.json --inputs "$KL_TMP/scores.npy"
refuse "a truncated file" "trunc.safetensors: tensor 'x': data_offsets[1]: ends at byte 480 past the end" \
    --suite $f/rowscale.json --inputs "$KL_TMP/trunc.safetensors"
refuse "a file with nothing to bind" \
    "y.safetensors: no tensor is named like an input buffer of suite rowscale-test (x)" \
    --suite $f/rowscale.json --inputs "$KL_TMP/y.safetensors"
refuse "a missing file" "nope.npy: cannot open" --suite $f/rowscale.json --inputs "$KL_TMP/nope.npy"
sed 's|"rungs": {"2": {}}|"rungs": {"2": {"inputs": [{"buffer": "x", "file": "gone.safetensors", "tensor": "x"}]}}|' \
    $f/rowscale.json >"$KL_TMP/rowscale_gone.json"
cp $f/rowscale.kl "$KL_TMP/"
refuse "a suite's capture that is missing" "gone.safetensors: file: cannot open" --suite "$KL_TMP/rowscale_gone.json"
refuse "a file name with control characters" "x.safetensors: file: expected a path without ';', '#' or control characters" \
    --suite $f/rowscale.json --inputs "$KL_TMP/escdir"
tap_check "  and no escape byte reaches the terminal" test "$(tr -dc '\033' <"$KL_TMP/bad.txt" | wc -c)" -eq 0
tap_check "no refused capture recorded a run" test "$(runs)" -eq "$n1"
tap_check "(the two good replays did: $n0 -> $n1)" test "$n1" -eq $((n0 + 2))
"$KLADDER" --db "$db" run --rung 1 --suite flydsl-1199 --inputs "$KL_TMP/mycap.safetensors" >/dev/null 2>&1
tap_check "--inputs on another rung is a usage error (exit 2)" test $? -eq 2
