#!/usr/bin/env bash
# `kladder exec` on a program whose main() calls a host function another file of the program
# defines (tests/engine/fixtures/exec/other_file.cu): the dynamic loader ends the child at that
# call with status 127; that is an `error` naming the function (exit 2), never the program's
# own failed check. The other side: a program that exits 127 by itself stays `failed`.
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/exec

out=$("$KLADDER" exec --json "$fx/other_file.cu" 2>"$KL_TMP/err")
rc=$?
sed 's/^/# /' "$KL_TMP/err"
verdict() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["verdict"], d.get("error") or "")' "$1"; }
v=$(verdict "$out")
echo "# $v"
tap_check "a call nobody defines: error, exit 2 ($rc)" test "$rc" -eq 2
tap_check "the error names the function and says why" \
    sh -c 'case "$1" in "error the program calls check_on_host, which neither the file nor kladder defines"*) ;; *) exit 1;; esac' _ "$v"

mkdir -p "$KL_TMP/own"
cat >"$KL_TMP/own/exit127.cu" <<'CU'
#include <cstdio>
__global__ void k(int *x) { *x = 1; }
int main()
{
    int *d;
    cudaMalloc(&d, sizeof(int));
    k<<<1, 1>>>(d);
    printf("my own check: symbol lookup error is only words here\n");
    return 127;
}
CU
out=$("$KLADDER" exec --json "$KL_TMP/own/exit127.cu" 2>/dev/null)
rc=$?
tap_check "a program that exits 127 itself: failed, exit 1 ($(verdict "$out"))" \
    sh -c "test $rc -eq 1 && test \"\$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])[\"verdict\"])' \"\$1\")\" = failed" _ "$out"
