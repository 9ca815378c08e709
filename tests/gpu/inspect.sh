#!/usr/bin/env bash
# kladder inspect reads what clang-22 built: every kernel in kernels/ compiled for gfx1250 says
# wave size 32 (and three of them 64 for gfx942), and each kernel's registers, LDS and scratch
# agree with an independent reader (llvm-readelf-22 --notes). Files that are not AMD code objects are errors
# naming the file, exit 1.
# kl-test: once (clang-22 compiles are the work here; the code-object reader is sanitised in test_amdgpu_co)
. tests/tap.sh
set -u
# the compiles go through the cache the test scripts share (compile_amd_clang.sh builds the same)
export XDG_CACHE_HOME=$KL_CACHE KLADDER_HIP_COMPILER=clang

# Without clang only the error paths can be tested.
have_clang=1
"$KLADDER" compile --backend hip --target gfx1250 --out "$KL_TMP/probe.co" kernels/util.kl \
    >"$KL_TMP/probe.txt" 2>&1 || have_clang=0

if [ $have_clang = 1 ]; then
    for target in gfx1250 gfx942; do
        want=32 ks=(kernels/*.kl)
        # at wave 64 the reader is the same: a few kernels, one of them rung 3's wave64 one
        [ $target = gfx942 ] && want=64 ks=(kernels/util.kl kernels/flydsl_1024.kl kernels/aiter_4812.kl)
        for k in "${ks[@]}"; do
            co=$KL_TMP/$(basename "$k" .kl).$target.co
            "$KLADDER" compile --backend hip --target $target --out "$co" "$k" >/dev/null 2>&1
            got=$("$KLADDER" inspect --json "$co" | python3 -c '
import json, sys
d = json.load(sys.stdin)[0]
print(d["processor"], " ".join(sorted({str(k["wavefront_size"]) for k in d["kernels"]})))')
            tap_check "inspect $target $(basename "$k"): '$got', want '$target $want'" \
                test "$got" = "$target $want"
        done
    done
    if command -v llvm-readelf-22 >/dev/null; then
        for k in flydsl_1199 aiter_4812 util; do
            co=$KL_TMP/$k.gfx1250.co
            ours=$("$KLADDER" inspect --json "$co" | python3 -c '
import json, sys
for k in sorted(json.load(sys.stdin)[0]["kernels"], key=lambda k: k["name"]):
    print(k["name"], k["sgpr_count"], k["vgpr_count"], k["group_segment_fixed_size"],
          k["private_segment_fixed_size"], k["kernarg_segment_size"])')
            theirs=$(llvm-readelf-22 --notes "$co" | python3 -c '
import re, sys
ks, cur = [], {}
for line in sys.stdin:
    m = re.match(r"\s+-?\s*\.(name|sgpr_count|vgpr_count|group_segment_fixed_size|private_segment_fixed_size|kernarg_segment_size):\s+(\S+)", line)
    if m:
        cur[m.group(1)] = m.group(2)
    if re.match(r"\s+\.wavefront_size:", line):
        ks.append(cur); cur = {}
for k in sorted(ks, key=lambda k: k["name"]):
    print(k["name"], k["sgpr_count"], k["vgpr_count"], k["group_segment_fixed_size"],
          k["private_segment_fixed_size"], k["kernarg_segment_size"])')
            tap_check "inspect agrees with llvm-readelf-22 on $k ($(wc -l <<<"$ours") kernels)" \
                test "$ours" = "$theirs"
            [ "$ours" = "$theirs" ] || diff <(echo "$ours") <(echo "$theirs") | sed 's/^/# /'
        done
    else
        tap_skip "llvm-readelf-22 absent: no independent reader to compare with"
    fi
else
    tap_skip "clang-22 absent: $(tr '\n' ' ' <"$KL_TMP/probe.txt")"
fi

# Not code objects: errors that name the file and what is wrong.
printf 'hello' >"$KL_TMP/short.bin"
out=$("$KLADDER" inspect "$KL_TMP/short.bin" 2>&1)
rc=$?
tap_check "a 5-byte file: exit 1 (got $rc)" test $rc -eq 1
tap_check "named, with the reason" grep -q "short.bin: not an ELF file (shorter than an ELF header)" <<<"$out"
out=$("$KLADDER" inspect "$KLADDER" 2>&1)
tap_check "a host executable: not EM_AMDGPU" grep -q "not EM_AMDGPU" <<<"$out"
head -c 3000 tests/fixtures/codeobj/flydsl_1199.gfx1250.co >"$KL_TMP/cut.co"
out=$("$KLADDER" inspect "$KL_TMP/cut.co" 2>&1)
rc=$?
tap_check "a truncated code object: exit 1 with a reason (got $rc: $out)" \
    bash -c '[ "$1" -eq 1 ] && grep -q "cut.co: " <<<"$2"' _ "$rc" "$out"
out=$("$KLADDER" inspect "$KL_TMP/nope.co" 2>&1)
tap_check "a missing file is named" grep -q "nope.co" <<<"$out"
out=$("$KLADDER" inspect 2>&1)
rc=$?
tap_check "no FILE: usage error, exit 2 (got $rc)" test $rc -eq 2
# Both fixtures in one call: text lists each kernel with its wave size.
out=$("$KLADDER" inspect tests/fixtures/codeobj/flydsl_1199.gfx1250.co tests/fixtures/codeobj/flydsl_1199.gfx942.co)
tap_check "text output: gfx1250 header line" grep -q "flydsl_1199.gfx1250.co: gfx1250 (ELF mach 0x49)" <<<"$out"
tap_check "text output: ktail_gemm_fixed at wave 32 and 64" \
    test "$(grep -E '^  ktail_gemm_fixed ' <<<"$out" | awk '{print $2}' | tr '\n' ' ')" = "32 64 "
