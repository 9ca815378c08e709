#!/usr/bin/env bash
# `kladder exec`: what programs ask of the runtime before and around their launches answers as a
# plain GPU would (tests/engine/fixtures/exec): device_query.cu reads the attributes sample
# programs read (the compute mode first) and checks their values itself; an attribute number
# past the enumeration is the runtime's invalid value. Each program prints PASS only when every
# answer is the expected one. tile_scan.cu: cooperative_groups/scan.h's tile scans (a sum, an
# exclusive max, an associative op that does not commute) agree with a host fold and with a
# second implementation in the kernel. device_query.cu goes on with what programs call around
# their launches (the profiler's range, versions, occupancy, a kernel's attributes, limits, a
# stream waiting on an event, queries, memory information, a prefetch, a stream with a
# priority). omp_host.cu: OpenMP's runtime calls in host code resolve, and its common header
# is found through -I by exec's own source walk (without -I it is named, not found).
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/exec

for prog in device_query tile_scan omp_host; do
    flags=()
    [ "$prog" = omp_host ] && flags=(-I "$fx/inc")
    out=$("$KLADDER" exec "${flags[@]}" "$fx/$prog.cu" 2>&1)
    rc=$?
    sed 's/^/# /' <<<"$out" | head -n 3
    tap_check "$prog.cu: the program's own PASS under exec (exit $rc)" \
        sh -c "test $rc -eq 0 && printf '%s' \"\$1\" | grep -q ': PASS$'" _ "$out"
done

out=$("$KLADDER" exec "$fx/omp_host.cu" 2>&1)
rc=$?
tap_check "omp_host.cu without -I: its header named as not found (exit $rc)" \
    sh -c "test $rc -eq 2 && printf '%s' \"\$1\" | grep -q 'check_cuda.h.*no such file beside'" _ "$out"
