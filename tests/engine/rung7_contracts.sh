#!/usr/bin/env bash
# sglang-33142's reproducer: a downstream caller needs buffer_load/buffer_store from a library
# that moved them in its next version (FlyDSL 0.3 moved buffer_ops out of flydsl.expr: one
# caller silently took its slow path, another raised). Two versions of a small shared library
# are built here; a suite declares the caller's contract against each installed version, and
# rung 7 fails the version that no longer exports what the caller needs, naming the symbols.
# A second example: a symbol present but hidden, and one the library only imports.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
CC=${CC:-cc}
d=$KL_TMP/suite
mkdir -p "$d/v02" "$d/v03"
cat >"$KL_TMP/v02.c" <<'C'
int buffer_load(int x) { return x; }
int buffer_store(int x) { return x + 1; }
int gemm_fast_path(int x) { return buffer_load(x) * 2; }
C
cat >"$KL_TMP/v03.c" <<'C'
int expr_buffer_load(int x) { return x; }
int expr_buffer_store(int x) { return x + 1; }
__attribute__((visibility("hidden"))) int buffer_load(int x) { return x; }
extern int buffer_store(int x); /* imported, not defined */
int gemm_fast_path(int x) { return expr_buffer_load(x) * 2 + buffer_store(0); }
C
"$CC" -shared -fPIC -Wl,--build-id -o "$d/v02/libflyexpr.so.1" "$KL_TMP/v02.c" &&
    "$CC" -shared -fPIC -Wl,--build-id -o "$d/v03/libflyexpr.so.1" "$KL_TMP/v03.c" ||
    { tap_fail "building the two library versions"; exit 0; }
id3=$(readelf -n "$d/v03/libflyexpr.so.1" | sed -n 's/.*Build ID: //p')
cp tests/engine/fixtures/rung7/knobs.kl "$d/"
sed -e 's/"name": "test-rung7-knobs", "case": "flydsl-1153"/"name": "test-rung7-contracts", "case": "sglang-33142"/' \
    -e '/"rungs": {/,$d' tests/engine/fixtures/rung7/knobs.json >"$d/suite.json"
cat >>"$d/suite.json" <<'J'
  "rungs": {
    "7": {"contracts": {
      "fixed": [{"library": "v02/libflyexpr.so.1", "symbols": ["buffer_load", "buffer_store", "gemm_fast_path"]}],
      "buggy": [{"library": "v03/libflyexpr.so.1", "symbols": ["buffer_load", "buffer_store", "gemm_fast_path"]}]
    }}
  }
}
J
"$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$d/suite.json" --backend cpu --no-progress \
    >"$KL_TMP/out.txt" 2>&1
rc=$?
tap_check "the contract run: exit 0 (the moved version caught, the old one passes)" test $rc -eq 0
tap_check "the old version exports what the caller needs" \
    grep -qE '^pass +fixed +r7 contract:libflyexpr.so.1 ' "$KL_TMP/out.txt"
tap_check "the new version fails" grep -qE '^fail +buggy +r7 contract:libflyexpr.so.1 ' "$KL_TMP/out.txt"
tap_check "... naming the library, its build id and both symbols (hidden and imported)" \
    grep -qF "$d/v03/libflyexpr.so.1 (build id $id3) does not export buffer_load, buffer_store:" "$KL_TMP/out.txt"
tap_check "... and not the symbol it still exports" test -z "$(grep -F 'export buffer_load, buffer_store, gemm' "$KL_TMP/out.txt")"
[ $rc -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"

# A library that is not there, or is not a shared library, fails the contract with the reason.
sed 's|"v03/libflyexpr.so.1"|"v04/libflyexpr.so.1"|' "$d/suite.json" >"$d/gone.json"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$d/gone.json" --backend cpu --no-progress \
    --variant buggy >"$KL_TMP/out.txt" 2>&1
tap_check "a missing library version fails the contract, named" \
    grep -qF "$d/v04/libflyexpr.so.1: No such file or directory" "$KL_TMP/out.txt"
cp "$KL_TMP/v02.c" "$d/v03/notelf.so"
sed 's|"v03/libflyexpr.so.1"|"v03/notelf.so"|' "$d/suite.json" >"$d/notelf.json"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$d/notelf.json" --backend cpu --no-progress \
    --variant buggy >"$KL_TMP/out.txt" 2>&1
tap_check "a file that is not a library fails with what was expected" \
    grep -qF "$d/v03/notelf.so: expected a 64-bit little-endian ELF shared library" "$KL_TMP/out.txt"
# Settings errors name the field.
sed 's/"symbols": \["buffer_load", "buffer_store", "gemm_fast_path"\]}\],$/"symbols": []}],/' "$d/suite.json" >"$d/empty.json"
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$d/empty.json" --backend cpu --no-progress 2>&1)
tap_check "an empty symbol list is refused, naming the field" \
    grep -qF "$d/empty.json: rungs.7.contracts.fixed[0].symbols: expected a non-empty array of symbol names" <<<"$out"
sed 's/"library": "v02/"lib": "v02/' "$d/suite.json" >"$d/key.json"
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 7 --suite "$d/key.json" --backend cpu --no-progress 2>&1)
tap_check "a misspelt contract key is refused, naming it" \
    grep -qF 'rungs.7.contracts.fixed[0]: expected only the keys "library" or "symbols", got unknown key "lib"' <<<"$out"
