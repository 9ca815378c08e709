#!/usr/bin/env bash
# kladder pin write|check: a pin records the machine's software and the build id of each
# library named; check names every drift. The libraries are built here, twice, so their build
# ids differ the way a rebuilt libfoo.so.1 does under an unchanged file name.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
CC=${CC:-cc}
lib=$KL_TMP/lib/libdownstream.so.1
mkdir -p "$KL_TMP/lib"
printf 'int ds_fast_path(int x) { return x + 1; }\n' >"$KL_TMP/v1.c"
printf 'int ds_fast_path(int x) { return x + 2; }\nint ds_moved(void) { return 0; }\n' >"$KL_TMP/v2.c"
"$CC" -shared -fPIC -Wl,--build-id -o "$KL_TMP/v1.so" "$KL_TMP/v1.c" &&
    "$CC" -shared -fPIC -Wl,--build-id -o "$KL_TMP/v2.so" "$KL_TMP/v2.c" &&
    "$CC" -shared -fPIC -Wl,--build-id=none -o "$KL_TMP/noid.so" "$KL_TMP/v1.c" ||
    { tap_fail "building the test libraries"; exit 0; }
id1=$(readelf -n "$KL_TMP/v1.so" 2>/dev/null | sed -n 's/.*Build ID: //p')
id2=$(readelf -n "$KL_TMP/v2.so" 2>/dev/null | sed -n 's/.*Build ID: //p')
cp "$KL_TMP/v1.so" "$lib"
pin=$KL_TMP/pin.json

out=$("$KLADDER" pin write "$pin" --backend cpu --lib "$lib" 2>&1)
tap_check "pin write: exit 0" test $? -eq 0
tap_check "pin write: the library's build id is recorded ($id1)" grep -qF "\"build_id\":	\"$id1\"" "$pin"
for f in backend device target driver runtime compiler kladder; do
    tap_check "pin write: records $f" grep -qE "\"$f\":[[:space:]]*\"" "$pin"
done
out=$("$KLADDER" pin check "$pin" 2>&1)
tap_check "pin check on the same machine: exit 0, ok" test $? -eq 0 -a -n "$(grep -F 'pin check: ok' <<<"$out")"

# The library is rebuilt under the same name: its build id drifts, named with both ids.
cp "$KL_TMP/v2.so" "$lib"
out=$("$KLADDER" pin check "$pin" 2>&1)
rc=$?
tap_check "a rebuilt library: exit 1" test $rc -eq 1
tap_check "a rebuilt library: its path and both build ids are named" \
    grep -qF "drift library $lib: pinned build id \"$id1\", here \"$id2\"" <<<"$out"
tap_check "a rebuilt library: nothing else drifted" test "$(grep -c '^drift' <<<"$out")" -eq 1
rm -f "$lib"
out=$("$KLADDER" pin check "$pin" 2>&1)
tap_check "a library that is gone drifts, with the reason" \
    grep -qF "drift library $lib: pinned build id \"$id1\", here none ($lib: No such file or directory)" <<<"$out"

# Fields the fingerprint knows: a pin written elsewhere (another compiler, another driver) names
# each drift. The pin is edited as another machine would have written it.
cp "$KL_TMP/v1.so" "$lib"
sed -e 's/"compiler":[^"]*"[^"]*",/"compiler":	"clang version 22.0.0 (llvm a1b2c3)",/' \
    -e 's/"driver":[^"]*"[^"]*",/"driver":	"ROCk 6.12.12",/' "$pin" >"$KL_TMP/other.json"
out=$("$KLADDER" pin check "$KL_TMP/other.json" 2>&1)
rc=$?
tap_check "another compiler and driver: exit 1" test $rc -eq 1
tap_check "the compiler drift is named with both values" \
    grep -qE '^drift compiler: pinned "clang version 22.0.0 \(llvm a1b2c3\)", here "' <<<"$out"
tap_check "the driver drift is named" grep -qF 'drift driver: pinned "ROCk 6.12.12", here "' <<<"$out"
tap_check "two drifts counted" grep -qF 'pin check: FAIL (2 drifts)' <<<"$out"
sed 's/"backend":[^"]*"[^"]*",/"backend":	"hip",/' "$pin" >"$KL_TMP/hip.json"
out=$("$KLADDER" pin check "$KL_TMP/hip.json" 2>&1)
tap_check "a pinned backend that is absent here is a drift (exit 1)" test $? -eq 1 -a -n "$(grep -F 'drift backend: the hip backend is not available here' <<<"$out")"
# Control characters in a pin never reach the terminal.
sed 's/"device":[^"]*"[^"]*",/"device":	"gpu\\u001b[2Jx",/' "$pin" >"$KL_TMP/ctl.json"
out=$("$KLADDER" pin check "$KL_TMP/ctl.json" 2>&1)
tap_check "a control character in a pinned value is replaced" grep -qF 'drift device: pinned "gpu�[2Jx"' <<<"$out"
tap_check "no escape byte is written" test -z "$(printf '%s' "$out" | tr -d -c '\033')"

# A library without a build id cannot be pinned: the pin would never see it change.
out=$("$KLADDER" pin write "$KL_TMP/noid.json" --backend cpu --lib "$KL_TMP/noid.so" 2>&1)
rc=$?
tap_check "a library without a build id: exit 2, named" test $rc -eq 2 -a -n "$(grep -F "$KL_TMP/noid.so: no GNU build id note" <<<"$out")"
tap_check "... and no pin file is written" test ! -e "$KL_TMP/noid.json"
head -c 200 "$KL_TMP/v1.so" >"$KL_TMP/trunc.so"
out=$("$KLADDER" pin write "$KL_TMP/t.json" --backend cpu --lib "$KL_TMP/trunc.so" 2>&1)
tap_check "a truncated ELF file is refused (exit 2), not read past its end" test $? -eq 2
out=$("$KLADDER" pin write "$KL_TMP/t.json" --backend cpu --lib "$KL_TMP/v1.c" 2>&1)
tap_check "a file that is not ELF is refused with what was expected" grep -qF "$KL_TMP/v1.c: expected an ELF file" <<<"$out"

# Bad pin files: the file, the field and what was expected; exit 2.
bad() { # name expected-text sed-expression
    sed "$3" "$pin" >"$KL_TMP/$1.json"
    local o
    o=$("$KLADDER" pin check "$KL_TMP/$1.json" 2>&1)
    if [ $? -eq 2 ] && grep -qF -- "$KL_TMP/$1.json: $2" <<<"$o"; then
        tap_ok "bad pin $1: $2"
    else
        tap_fail "bad pin $1: wanted '$2'"
        printf '%s\n' "$o" | sed 's/^/# /'
    fi
}
bad misspelt 'compilr: unknown field' 's/"compiler":/"compilr":/'
bad wrongtype 'driver: expected a string or null, got a number' 's/"driver":[^"]*"[^"]*",/"driver": 6,/'
bad format 'format: expected "kladder-pin"' 's/"kladder-pin"/"kladder-suite"/'
bad libkey 'libraries[0].buildid: unknown field' 's/"build_id":/"buildid":/'
bad device 'device_index: expected a whole number from 0 to 1024' 's/"device_index":[^,]*,/"device_index": -1,/'
printf 'not json' >"$KL_TMP/nj.json"
out=$("$KLADDER" pin check "$KL_TMP/nj.json" 2>&1)
tap_check "a pin that is not JSON: exit 2" test $? -eq 2 -a -n "$(grep -F "$KL_TMP/nj.json: expected a JSON object" <<<"$out")"
"$KLADDER" pin frob x >/dev/null 2>&1
tap_check "pin with an unknown action: exit 2" test $? -eq 2
