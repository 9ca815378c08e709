#!/usr/bin/env bash
# The preprocessor decides what a plain source reads (docs/kernels.md, "Includes"): a suite's
# include_dirs and defines (and kladder compile's -I and -D) reach a project's common header,
# which includes system headers and tests the CUDA runtime's guard; an include in a branch the
# preprocessor does not take is never looked up; a byte-order mark in an included file is
# accepted; a compile error in an included header names that header's line. Every file the
# compiler's preprocessor reaches must be inside the suite's folders, kladder's headers or the
# compiler's own: the directives a text scan misses (a bare CR, a backslash-space-newline, an
# include after a comment's end, an absolute name in a plain file given alone) are refused
# with the file and the including line, and /etc/passwd's content is never printed. An include
# of a FIFO ends at the compile's time limit with a clear error.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/preproc

# ---- a suite with include_dirs and defines, both ways --------------------------------------
"$KLADDER" --db "$KL_TMP/k.db" run --suite "$fx/axpy-rows.json" --backend cpu --no-progress \
    --json --timeout 120 >"$KL_TMP/axpy.json" 2>"$KL_TMP/axpy.err"
sed 's/^/# /' "$KL_TMP/axpy.err"
tap_check "include_dirs + defines: the fixed variant and its unit test pass, the buggy one is caught" \
    python3 - "$KL_TMP/axpy.json" <<'PY'
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
fixed = [c for c in checks if c["variant"] in ("fixed", "baseline-fixed")]
buggy = [c for c in checks if c["variant"] == "buggy"]
sys.exit(not (fixed and all(c["verdict"] == "pass" for c in fixed) and buggy
              and all(c["verdict"] == "fail" for c in buggy)))
PY
tap_check "the fixture's included header starts with a byte-order mark" \
    test "$(head -c 3 "$fx/common/lanes.h" | od -An -tx1 | tr -d ' ')" = efbbbf

# a manifest's include_dirs stay inside its folder, and its defines are macro definitions
bad=$KL_TMP/bad
mkdir -p "$bad"
cp "$fx/axpy_rows.cu" "$bad/"
manifest() { # FIELD-JSON -> $bad/m.json with it in place of include_dirs and defines
    python3 - "$fx/axpy-rows.json" "$1" >"$bad/m.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
del j["include_dirs"], j["defines"]
j.update(json.loads(sys.argv[2]))
print(json.dumps(j))
PY
    "$KLADDER" compile --backend cpu --target cpu-wave32 "$bad/m.json" >"$KL_TMP/out" 2>&1
}
manifest '{"include_dirs": ["../common"]}'
tap_check "include_dirs climbing out of the suite's folder: exit 2, naming the field"     bash -c "[ $? -eq 2 ] && grep -q 'include_dirs: element 0: expected a folder inside the suite' '$KL_TMP/out'"
manifest '{"include_dirs": ["nothere"]}'
tap_check "include_dirs naming no folder: exit 2, naming the field and the folder"     bash -c "[ $? -eq 2 ] && grep -q 'include_dirs: \"nothere\": expected a folder inside' '$KL_TMP/out'"
ln -s "$PWD/$fx/common" "$bad/outlink"
manifest '{"include_dirs": ["outlink"]}'
tap_check "include_dirs through a link out of the folder: exit 2"     bash -c "[ $? -eq 2 ] && grep -q 'include_dirs: \"outlink\"' '$KL_TMP/out'"
manifest '{"defines": ["2BAD=1"]}'
tap_check "a define that is no macro name: exit 2, naming the field"     bash -c "[ $? -eq 2 ] && grep -q 'defines: element 0: expected NAME or NAME=VALUE' '$KL_TMP/out'"

cc() { "$KLADDER" compile --backend cpu --target cpu-wave32 "$@" >"$KL_TMP/out" 2>&1; }
cc -I "$fx/common" -D UNROLL=2 "$fx/axpy_rows.cu"
tap_check "kladder compile FILE.cu -I DIR -D X=V compiles a plain file whole ($?)" \
    grep -q "^ok cpu" "$KL_TMP/out"
cc -I "$fx/common" "$fx/axpy_rows.cu"
tap_check "without -D the source's own #error is the message, at its line" \
    grep -qF "axpy_rows.cu:$(grep -n '^#error' "$fx/axpy_rows.cu" | cut -d: -f1):" "$KL_TMP/out"
cc -D UNROLL=2 "$fx/axpy_rows.cu"
tap_check "without -I the missing header is named at the including line" \
    grep -qF "axpy_rows.cu:$(grep -n 'check_cuda.h' "$fx/axpy_rows.cu" | head -1 | cut -d: -f1):2: error: #error \"#include \\\"check_cuda.h\\\": no such file beside axpy_rows.cu" "$KL_TMP/out"
cat "$KL_TMP/out" | head -3 | sed 's/^/# /'

mkdir -p "$KL_TMP/hdr/inc"
printf '// a helper\n#pragma once\n__device__ float twice(float x)\n{\n    return x * not_declared_anywhere;\n}\n' >"$KL_TMP/hdr/inc/bad.cuh"
printf '#include "bad.cuh"\n__global__ void k(float *o) { o[threadIdx.x] = twice(1.0f); }\n' >"$KL_TMP/hdr/k.cu"
cc -I "$KL_TMP/hdr/inc" "$KL_TMP/hdr/k.cu"
tap_check "an error in an included header carries that header's file and line" \
    grep -q "inc/bad.cuh:5:[0-9]*: error: .not_declared_anywhere" "$KL_TMP/out"

if command -v clang-22 >/dev/null; then
    "$KLADDER" compile --backend hip --target gfx1250 "$fx/axpy-rows.json" >"$KL_TMP/gfx" 2>&1
    tap_check "gfx1250 (clang-22, no ROCm) compiles the suite with its include_dirs and defines" \
        grep -q "^ok hip gfx1250" "$KL_TMP/gfx"
else
    tap_skip "no clang-22 for the gfx1250 compile"
fi

# ---- what the compiler reads is confined -----------------------------------------------------
by=$KL_TMP/by
mkdir -p "$by"
body='__global__ void k(float *o) { o[threadIdx.x] = 1.0f; }'
printf 'int a;\r#include "/etc/passwd"\n%s\n' "$body" >"$by/cr.cu"
printf '#inc\\ \nlude "/etc/passwd"\n%s\n' "$body" >"$by/bsn.cu"
printf '#include \\ \n"/etc/passwd"\n%s\n' "$body" >"$by/bsn_name.cu"
printf '/* a comment\n   over two lines */ #include "/etc/passwd"\n%s\n' "$body" >"$by/comment.cu"
printf '#include "/etc/passwd"\n%s\n' "$body" >"$by/absolute.cu"
passwd=$(head -1 /etc/passwd)
never_printed() { ! grep -qF "$passwd" "$1"; }
for f in cr bsn bsn_name comment absolute; do
    cc "$by/$f.cu"
    rc=$?
    tap_check "$f.cu: refused (exit $rc), /etc/passwd's content never printed" \
        bash -c "[ $rc -ne 0 ] && ! grep -qF '$passwd' '$KL_TMP/out'"
    case $f in
    cr | bsn | comment)
        tap_check "$f.cu: the file reached and the including line are named" \
            grep -q "^$f.cu:[0-9]*: #include reaches /etc/passwd, which is outside" "$KL_TMP/out" ;;
    esac
    sed 's/^/# /' "$KL_TMP/out" | head -3
done
# a suite's run is guarded the same way
python3 - "$fx/axpy-rows.json" >"$by/comment.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
del j["include_dirs"], j["defines"]
j.update({"source": "comment.cu", "variants": {"fixed": "k", "buggy": "k"}, "reference": "k"})
print(json.dumps(j))
PY
"$KLADDER" --db "$KL_TMP/k.db" run --suite "$by/comment.json" --rung 1 --backend cpu \
    --no-progress --timeout 60 >"$KL_TMP/out" 2>&1
sed 's/^/# /' "$KL_TMP/out" | head -3
tap_check "a run of a suite whose source hides such an include: refused, nothing of /etc/passwd shown" \
    bash -c "grep -q 'reaches /etc/passwd' '$KL_TMP/out' && ! grep -qF '$passwd' '$KL_TMP/out'"

mkfifo "$by/fifo"
printf '/* x\n */ #include "%s"\n%s\n' "$by/fifo" "$body" >"$by/fifo.cu"
start=$(date +%s)
KLADDER_COMPILE_TIMEOUT=1 cc "$by/fifo.cu"
rc=$?
took=$(($(date +%s) - start))
tap_check "an include of a FIFO ends at the time limit (exit $rc after ${took}s) with a clear error" \
    bash -c "[ $rc -ne 0 ] && [ $took -lt 60 ] && grep -q 'did not finish within 1 s' '$KL_TMP/out'"
exec 3<>"$by/fifo" # nothing may still hold it open for a writer
exec 3>&-
