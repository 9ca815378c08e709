#!/usr/bin/env bash
# The API coverage of the cpu backend (docs/kernels.md): every name of data/api/hip_api.tsv, the
# HIP device and host API as HIP's own headers declare it (scripts/api_inventory.py), is
# compiled as a probe use against kladder's headers as the cpu backend serves them (kl.h,
# kl_vendor.h, kl_host.h, -DKL_CPU, the host C++ compiler): implemented, declared unsupported
# (a call is refused with "`NAME` is not supported on the cpu backend" at the call's own line),
# host functions declared to answer "not supported", or missing. The table is printed; one
# missing name fails. The check can fail both ways: a name nobody declares is missing, and a
# name marked unsupported that kladder implements (so a call is not refused) is missing too.
set -u
. tests/tap.sh
: "${KL_TMP:=$(mktemp -d)}"
CXX=${CXX:-c++}
if ! command -v python3 >/dev/null || ! command -v "$CXX" >/dev/null; then
    tap_skip "python3 and a host C++ compiler are needed"
    echo "1..$_tap_n"
    exit 0
fi
inv=data/api/hip_api.tsv
python3 scripts/api_inventory.py --check "$inv" >"$KL_TMP/table" 2>"$KL_TMP/missing"
rc=$?
sed 's/^/# /' "$KL_TMP/table" "$KL_TMP/missing"
tap_check "every name of the inventory is implemented or declared: 0 missing (exit $rc)" test $rc -eq 0
tap_check "docs/kernels.md shows this table" bash -c "grep -Fxf '$KL_TMP/table' docs/kernels.md | diff -q - '$KL_TMP/table'"
tap_check "the table covers all $(grep -vc '^#' "$inv") names" \
    grep -qE "^\| all $(grep -vc '^#' "$inv") \| .* \| 0 \|$" "$KL_TMP/table"
for g in atomics warp cooperative_groups half_bf16 math math_intrinsics legacy_coordinates host_runtime; do
    tap_check "the group $g is in the inventory and the table" grep -q "^| $g | " "$KL_TMP/table"
done
tap_check "the fast-math intrinsics are listed (from HIP's headers)" \
    bash -c "for n in __expf __logf __sinf __cosf __powf __fdividef __saturatef; do grep -q \"^\$n	math_intrinsics	\" '$inv' || exit 1; done"
tap_check "atomics are listed per overload, atomicInc implemented" \
    grep -qP '^atomicInc\(unsigned int \*, unsigned int\)\tatomics\toverload\t.*\timplemented$' "$inv"
tap_check "the legacy coordinates are implemented" \
    test "$(grep -cP '^hip(ThreadIdx|BlockIdx|BlockDim|GridDim)_[xyz]\tlegacy_coordinates\t.*\timplemented$' "$inv")" -eq 12

# ---- the check fails where it must ----------------------------------------------------------
{ cat "$inv"; printf '__kl_nowhere_expf\tmath_intrinsics\tname\t-\timplemented\n'; } >"$KL_TMP/extra.tsv"
python3 scripts/api_inventory.py --check "$KL_TMP/extra.tsv" >"$KL_TMP/t2" 2>"$KL_TMP/m2"
rc=$?
tap_check "a name nobody declares fails the check (exit $rc)" test $rc -eq 1
tap_check "and is named as missing" grep -qx "missing: __kl_nowhere_expf" "$KL_TMP/m2"
sed 's/^\(__popc\t.*\t\)implemented$/\1unsupported/' "$inv" >"$KL_TMP/wrong.tsv"
python3 scripts/api_inventory.py --check "$KL_TMP/wrong.tsv" >"$KL_TMP/t3" 2>"$KL_TMP/m3"
rc=$?
tap_check "a name called unsupported that is not refused fails the check (exit $rc)" test $rc -eq 1
tap_check "and is named as missing" grep -qx "missing: __popc" "$KL_TMP/m3"
echo "1..$_tap_n"
