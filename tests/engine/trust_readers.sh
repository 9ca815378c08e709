#!/usr/bin/env bash
# Hostile inputs at every reader of a file a suite or a pulled document names: a suite's source,
# its local includes (the dialect's and a plain .cu's), its code object, a pulled results
# document (file://), a pulled run whose verdict was edited, a launch whose dimensions overflow.
# Each must end in one clear error naming the file or field, never a hang (every command runs
# under timeout), never a crash or a sanitizer report, and never a byte of a file outside the
# suite's folder in what kladder prints; the legitimate form of each still works.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
f=tests/engine/fixtures/trust
s=$KL_TMP/suite
mkdir -p "$s/sub" "$KL_TMP/outside"
cp $f/topk.kl $f/topk-pair.json "$s/"
# a secret outside the suite's folder: its text must never be printed
secret=$KL_TMP/outside/secret.h
echo 'kl_secret_line_7f3a = "do not print";' >"$secret"

# hostile NAME EXPECT [kladder args...]: the command ends within 30 s, with exit 1 or 2, says
# EXPECT, prints nothing of the secret, and no sanitizer speaks.
hostile() {
    local name=$1 expect=$2
    shift 2
    timeout 30 "$KLADDER" --db "$KL_TMP/k.db" "$@" >"$KL_TMP/out.txt" 2>&1
    local rc=$?
    if [ $rc -eq 124 ]; then
        tap_fail "$name: hung (stopped after 30 s)"
        return
    fi
    local why=""
    [ $rc -eq 1 ] || [ $rc -eq 2 ] || why="exit $rc"
    grep -q 'AddressSanitizer\|runtime error:\|LeakSanitizer' "$KL_TMP/out.txt" && why="sanitizer"
    grep -q 'kl_secret_line_7f3a' "$KL_TMP/out.txt" && why="printed the outside file"
    grep -qF -- "$expect" "$KL_TMP/out.txt" || why="${why:-no \"$expect\"}"
    [ -z "$why" ] || sed 's/^/# /' "$KL_TMP/out.txt" | head -6
    tap_check "$name (exit $rc${why:+; $why})" test -z "$why"
}
# suite NAME SOURCE-TEXT-FILE: a manifest NAME.json in the suite's folder over NAME.kl
suite() {
    sed "s/\"topk.kl\"/\"$1.kl\"/; s/\"trust-topk-pair\"/\"$1\"/" "$s/topk-pair.json" >"$s/$1.json"
}
runs() { echo run --rung 2 --suite "$s/$1.json" --backend cpu --no-progress --timeout 30; }

# --- the suite's source -------------------------------------------------------------------
ln -s "$secret" "$s/link.kl"
suite link
hostile "source: a link out of the suite's folder" "resolves outside the suite's folder" $(runs link)
mkfifo "$s/fifo.kl"
suite fifo
hostile "source: a FIFO" "is not a regular file" $(runs fifo)
mkdir "$s/dir.kl"
suite dir
hostile "source: a folder" "is not a regular file" $(runs dir)
sed 's/"topk.kl"/"..\/outside\/secret.h"/' "$s/topk-pair.json" >"$s/climb.json"
hostile "source: a name that climbs" 'source: expected a file name beside the manifest' \
    run --rung 2 --suite "$s/climb.json" --backend cpu --no-progress

# --- a dialect source's local includes ----------------------------------------------------
inc() { # NAME LINE...: topk.kl with the lines in front
    local n=$1
    shift
    { printf '%s\n' "$@"; cat "$s/topk.kl"; } >"$s/$n.kl"
    suite "$n"
}
inc climb '#include "../outside/secret.h"'
hostile "#include \"../\": refused, nothing read" "resolves outside the suite's folder" $(runs climb)
inc deep '#include "../../../../../../../../..'"$secret"'"'
hostile "#include \"../../..\" to the root" "resolves outside the suite's folder" $(runs deep)
inc abs "#include \"$secret\""
hostile "#include \"/absolute\"" "not an absolute path" $(runs abs)
inc angle "#include <$secret>"
hostile "#include </absolute>" "not an absolute or climbing name" $(runs angle)
inc anglec '#include <../../../../../../..'"$secret"'>'
hostile "#include <../climbing>" "not an absolute or climbing name" $(runs anglec)
ln -s "$secret" "$s/sub/link.h"
inc slink '#include "sub/link.h"'
hostile "#include of a link out" "resolves outside the suite's folder" $(runs slink)
mkfifo "$s/sub/fifo.h"
inc fifo_inc '#include "sub/fifo.h"'
hostile "#include of a FIFO" "not a regular file" $(runs fifo_inc)
inc macro "#define P \"$secret\"" '#include P'
hostile "#include MACRO (computed)" "a computed include could reach outside" $(runs macro)
inc digraph '%: /* c */ include \' '"../outside/secret.h"'
hostile "%:include split by a comment and a backslash-newline" "resolves outside the suite's folder" $(runs digraph)
inc embed "#embed \"$secret\""
hostile "#embed" "#embed: kladder does not hand a compiler files to embed" $(runs embed)
inc has "#if __has_include(\"$secret\")" '#endif'
hostile "__has_include(\"...\")" "__has_include: only of <name>" $(runs has)
inc next "#include_next \"sub/ok.h\""
hostile "#include_next \"...\"" "#include_next" $(runs next)
inc line "#line 1 \"$secret\"" 'syntax error here;'
hostile "#line naming a file outside (the compiler would quote its lines)" "#line with a file name" $(runs line)
hostile "compile FILE: #line naming a file outside" "#line with a file name" \
    compile --backend cpu --target cpu-wave32 "$s/line.kl"
hostile "compile FILE: #include \"../\" (the file's own folder is its limit)" \
    "resolves outside the suite's folder" compile --backend cpu --target cpu-wave32 "$s/climb.kl"
# the legitimate form: a header in a subfolder, put in place (the kernel needs its macro)
echo '#define TK_FROM_HEADER 1' >"$s/sub/ok.h"
inc good '#include "sub/ok.h"' '#if !defined(TK_FROM_HEADER)' '#error the local include was not read' '#endif'
timeout 60 "$KLADDER" --db "$KL_TMP/k.db" $(runs good) >"$KL_TMP/good.txt" 2>&1
tap_check "a local include inside the folder is read and the suite passes (exit $?)" \
    grep -q '^expectation met' "$KL_TMP/good.txt"

# --- a plain .cu source's local includes --------------------------------------------------
cat >"$s/plain.cu" <<'EOF'
#include "../outside/secret.h"
extern "C" __global__ void k(float *o) { o[threadIdx.x] = 1.0f; }
EOF
# its entries named, so that the source is read (the names are checked before any include)
python3 - "$s/topk-pair.json" "$s/plain.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["source"] = "plain.cu"
m["variants"] = {"fixed": "k", "buggy": "k"}
m["reference"] = "k"
json.dump(m, open(sys.argv[2], "w"))
PY
hostile "plain .cu: #include \"../\"" "resolves outside the suite's folder" \
    run --rung 2 --suite "$s/plain.json" --backend cpu --no-progress --timeout 30
printf '#include "sub/lined.cuh"\nextern "C" __global__ void k(float *o) { o[0] = 1.0f; }\n' >"$s/plain2.cu"
printf '#line 1 "%s"\nsyntax error here;\n' "$secret" >"$s/sub/lined.cuh"
sed 's/"topk.kl"/"plain2.cu"/' "$s/topk-pair.json" >"$s/plain2.json"
hostile "plain .cu: a header whose #line names a file outside" "#line with a file name" \
    run --rung 2 --suite "$s/plain2.json" --backend cpu --no-progress --timeout 30

# --- files a rung names: rung 7's recorded hosts ---------------------------------------------
r7() { # NAME HOST-PATH: topk-pair.json with rung 7's cross-host check reading HOST-PATH
    python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
s["name"] = sys.argv[3]
s["rungs"] = {"7": {"hosts": {"fixed": [sys.argv[4], sys.argv[4]], "buggy": [sys.argv[4], sys.argv[4]]}}}
json.dump(s, open(sys.argv[2], "w"))' "$s/topk-pair.json" "$s/$1.json" "$1" "$2"
}
r7 hostclimb ../outside/secret.h
hostile "rung 7 hosts: a \"../\" path" "resolves outside the suite's folder" \
    run --rung 7 --suite "$s/hostclimb.json" --backend cpu --no-progress --timeout 30
ln -s "$secret" "$s/hostlink.json"
r7 hostlink hostlink.json
hostile "rung 7 hosts: a link out" "resolves outside the suite's folder" \
    run --rung 7 --suite "$s/hostlink.json" --backend cpu --no-progress --timeout 30

# --- the code object ----------------------------------------------------------------------
co() { # NAME CODE_OBJECT BLOCK-Z
    cat >"$s/$1.json" <<JSON
{"format": "kladder-suite", "version": 1, "name": "$1", "code_object": "$2",
 "variants": {"fixed": "scale_fixed", "buggy": "scale_fixed"}, "reference": "scale_fixed",
 "params": {"n": 1000, "a": 2.5},
 "buffers": [{"name": "in", "dtype": "f32", "shape": ["n"], "role": "input"},
             {"name": "out", "dtype": "f32", "shape": ["n"], "role": "output"}],
 "args": ["out", "in", "a", "n"], "arg_types": {"a": "f32", "n": "i32"},
 "launch": {"block": [256, 1, $3], "grid": ["ceil(n, 256)", 1, 1]},
 "baseline": [{"n": 1000}], "rungs": {"1": {}}}
JSON
}
printf 'not a code object' >"$KL_TMP/outside/k.ptx"
ln -s "$KL_TMP/outside/k.ptx" "$s/link.ptx"
co colink link.ptx 1
hostile "code object: a link out (inspect --suite)" "resolves outside the suite's folder" \
    inspect --suite "$s/colink.json"
hostile "code object: a link out (run)" "resolves outside the suite's folder" \
    run --rung 1 --suite "$s/colink.json" --backend cpu --no-progress
mkfifo "$s/fifo.ptx"
co cofifo fifo.ptx 1
hostile "code object: a FIFO (inspect --suite)" "is not a regular file" inspect --suite "$s/cofifo.json"
hostile "code object: a FIFO (inspect FILE)" "not a regular file" inspect "$s/fifo.ptx"
hostile "code object: a FIFO (run --code-object)" "not a regular file" \
    run --rung 2 --suite "$s/topk-pair.json" --backend cpu --no-progress --code-object "$s/fifo.ptx"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$nvcc" ]; then
    printf 'extern "C" __global__ void scale_fixed(float *o, const float *i, float a, int n)\n{ int k = blockIdx.x * blockDim.x + threadIdx.x; if (k < n) o[k] = a * i[k]; }\n' >"$KL_TMP/k.cu"
    "$nvcc" -ptx -arch=sm_90 -o "$s/k.ptx" "$KL_TMP/k.cu" 2>"$KL_TMP/nvcc.txt"
    co big k.ptx 72057594037927936
    hostile "launch.block [256, 1, 2^56]: no overflow, the dimension named" \
        "launch.block[2]: expected 1 to 1024 threads, got 72057594037927936" inspect --suite "$s/big.json"
    co fine k.ptx 1
    timeout 30 "$KLADDER" inspect --suite "$s/fine.json" >"$KL_TMP/fine.txt" 2>&1
    tap_check "the same code object with a right launch checks (exit $?)" \
        grep -q 'variants.fixed "scale_fixed": kernel scale_fixed, its 4 parameters match' "$KL_TMP/fine.txt"
else
    tap_skip "nvcc absent: no PTX for inspect --suite's launch check"
    tap_skip "nvcc absent"
fi
sed 's/"block": \[32, 1, 1\]/"block": [256, 1, 72057594037927936]/' "$s/topk-pair.json" >"$s/bigrun.json"
hostile "launch.block [256, 1, 2^56] in a run: named, never launched" \
    "launch.block[2]: expected 1 to 1024 threads, got 72057594037927936" \
    run --rung 2 --suite "$s/bigrun.json" --backend cpu --no-progress

# --- a capture a suite names (rung 2 "inputs") -----------------------------------------------
python3 -c 'import numpy as np, sys; np.save(sys.argv[1], np.zeros((16, 40), np.float32))' \
    "$KL_TMP/outside/cap.npy" 2>/dev/null || printf 'x' >"$KL_TMP/outside/cap.npy"
cap() { # NAME FILE
    python3 - "$s/topk-pair.json" "$s/$1.json" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["rungs"]["2"] = {"inputs": [{"buffer": "S", "file": sys.argv[3], "tensor": "S"}]}
json.dump(m, open(sys.argv[2], "w"))
PY
}
cap capclimb ../outside/cap.npy
hostile "a capture named \"../\"" "rungs.2.inputs[0].file" $(runs capclimb)
cap capabs "$KL_TMP/outside/cap.npy"
hostile "a capture named by an absolute path" "not an absolute path" $(runs capabs)
ln -s "$KL_TMP/outside/cap.npy" "$s/caplink.npy"
cap caplink caplink.npy
hostile "a capture that is a link out" "resolves outside the suite's folder" $(runs caplink)

# --- other files named on the command line -------------------------------------------------
mkfifo "$KL_TMP/inputs.npy" "$KL_TMP/junit.xml"
hostile "run --inputs of a FIFO (captured tensors)" "expected a regular file" \
    run --rung 2 --suite "$s/topk-pair.json" --backend cpu --no-progress --inputs "$KL_TMP/inputs.npy"
hostile "ci-audit of a FIFO" "a FIFO, not a report file" ci-audit "$KL_TMP/junit.xml"

# --- a pulled document --------------------------------------------------------------------
mkfifo "$KL_TMP/fifo.json"
hostile "pull file:// of a FIFO" "not a regular file" pull "file://$KL_TMP/fifo.json"
hostile "pull file:// of a folder" "not a regular file" pull "file://$KL_TMP/outside"
hostile "pull file:// of a device" "not a regular file" pull "file:///dev/zero"
# a run whose fixed variant fails (the one-pass variance as the "fixed" kernel): verdict fail
python3 - $f/colnorm-bug.json "$KL_TMP/failing.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m.update({"name": "trust-failing", "source": "colnorm.kl",
          "variants": {"fixed": "cn_onepass", "buggy": "cn_chan"}})
json.dump(m, open(sys.argv[2], "w"))
PY
cp $f/colnorm.kl "$KL_TMP/"
"$KLADDER" --db "$KL_TMP/src.db" run --rung 2 --suite "$KL_TMP/failing.json" --backend cpu \
    --no-progress >/dev/null 2>&1
"$KLADDER" --db "$KL_TMP/src.db" export --out "$KL_TMP/export.json" >/dev/null 2>&1
tap_check "the source run failed (its fixed variant is the one-pass variance)" \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if [r["verdict"] for r in d["runs"]] == ["fail"] else 1)' "$KL_TMP/export.json"
python3 - "$KL_TMP/export.json" "$KL_TMP/edited.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"][0]["verdict"] = "pass"
json.dump(d, open(sys.argv[2], "w"))
PY
# a verdict edited from fail to pass is not believed: the run lands with the verdict its checks
# give (fail), the document's word kept beside it as what it was exported as
timeout 30 "$KLADDER" --db "$KL_TMP/k.db" pull "file://$KL_TMP/edited.json" >"$KL_TMP/edited.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/edited.txt"
tap_check "pull of a run whose verdict was edited from fail to pass: read, not trusted (exit $rc)" \
    test $rc -eq 0
tap_check "... stored as the fail its checks show, never as the pass it says" \
    sh -c "'$KLADDER' --db '$KL_TMP/k.db' results --json | python3 -c 'import json,sys; sys.exit(0 if [r[\"verdict\"] for r in json.load(sys.stdin) if r.get(\"suite\") == \"trust-failing\"] == [\"fail\"] else 1)'"
id=$("$KLADDER" --db "$KL_TMP/k.db" results --json | python3 -c 'import json,sys; print([r["run_id"] for r in json.load(sys.stdin) if r.get("suite") == "trust-failing"][0])')
tap_check "... and shown with the word it was exported as" \
    sh -c "'$KLADDER' --db '$KL_TMP/k.db' results '$id' | grep -q 'exported as pass'"
timeout 30 "$KLADDER" --db "$KL_TMP/k2.db" pull "file://$KL_TMP/export.json" >"$KL_TMP/pull.txt" 2>&1
tap_check "the unedited document pulls (exit $?), its verdict fail as recorded" \
    sh -c "'$KLADDER' --db '$KL_TMP/k2.db' results --json | python3 -c 'import json,sys; sys.exit(0 if [r[\"verdict\"] for r in json.load(sys.stdin) if r.get(\"suite\") == \"trust-failing\"] == [\"fail\"] else 1)'"
ln -s "$KL_TMP/export.json" "$KL_TMP/link.json"
timeout 30 "$KLADDER" --db "$KL_TMP/k3.db" pull "file://$KL_TMP/link.json" >"$KL_TMP/pull2.txt" 2>&1
tap_check "a pull file is not a suite's: a link to a regular file is read (exit $?)" \
    grep -q '1 new run' "$KL_TMP/pull2.txt"
echo "1..$_tap_n"
