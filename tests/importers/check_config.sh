#!/usr/bin/env bash
# kladder check-config: tuned-config CSVs against a schema, as a dispatch table uses them.
# aiter-6360 (a pandas merge wrote the EP rows' integers as floats; no EP row was ever found)
# and a second example written here (a GEMM table whose splitk became a float and kept a
# duplicate); kladder's own merge round trip; hostile CSVs and schemas.
. tests/tap.sh
set -u
c=tests/fixtures/config
k() { "$KLADDER" check-config "$@" >"$KL_TMP/out.txt" 2>&1; echo $? >"$KL_TMP/rc"; }
rc() { cat "$KL_TMP/rc"; }
has() { grep -qF -- "$1" "$KL_TMP/out.txt"; }
a=$c/aiter-6360

k $a/dense.csv $a/ep.csv --schema $a/schema.json
tap_check "aiter-6360: the two source tables are clean (exit $(rc))" test "$(rc)" -eq 0
tap_check "aiter-6360: merged here, read back, every row found" has "ok: 2 files, 7 rows, merged and read back, every row found"

k $a/dense.csv $a/ep.csv --schema $a/schema.json --merged $a/merged_buggy.csv
sed 's/^/# /' "$KL_TMP/out.txt" | head -n 5
tap_check "aiter-6360: the pandas merge is caught (exit $(rc))" test "$(rc)" -eq 1
tap_check "aiter-6360: ep written as a float is named, with the line" \
    has "$a/merged_buggy.csv:6: column ep: expected an int, got \"8.0\" (an integer written as a float)"
tap_check "aiter-6360: the dense rows' empty ep is named" has "$a/merged_buggy.csv:2: column ep: empty cell (expected an int)"
tap_check "aiter-6360: the EP rows are not found by the lookup" \
    has "$a/ep.csv:2: the lookup finds no row (cu_num=80, M=1, N=7168, K=2048, ep=8) in $a/merged_buggy.csv"
tap_check "aiter-6360: nor the dense rows" \
    has "$a/dense.csv:5: the lookup finds no row (cu_num=80, M=1024, N=7168, K=2048, ep=0)"

k $a/dense.csv $a/ep.csv --schema $a/schema.json --merged $a/merged_fixed.csv
tap_check "aiter-6360: the fixed merge passes (exit $(rc))" test "$(rc)" -eq 0
tap_check "aiter-6360: every source row found in it" has "ok: 2 files, 7 rows, every row found in the merged file"

# kladder's own merge, kept with --out, is itself a merged file that passes.
k $a/dense.csv $a/ep.csv --schema $a/schema.json --out "$KL_TMP/merged.csv"
tap_check "--out writes the merge" test -s "$KL_TMP/merged.csv"
tap_check "the merge fills the default and keeps integers" grep -qx "80,1,7168,2048,0,moe_gemm_a8w4_t32x128,11.2" "$KL_TMP/merged.csv"
k $a/dense.csv $a/ep.csv --schema $a/schema.json --merged "$KL_TMP/merged.csv"
tap_check "kladder's merge passes as --merged (exit $(rc))" test "$(rc)" -eq 0

# ---- the second example ------------------------------------------------------------------
g=$c/gemm-splitk
k $g/gfx942.csv $g/gfx950.csv --schema $g/schema.json --merged $g/merged_buggy.csv
tap_check "splitk: caught (exit $(rc))" test "$(rc)" -eq 1
tap_check "splitk: the source's empty cell is named" has "$g/gfx950.csv:3: column splitk: empty cell (expected an int)"
tap_check "splitk: 4.0 is an integer written as a float" has "$g/merged_buggy.csv:3: column splitk: expected an int, got \"4.0\" (an integer written as a float)"
tap_check "splitk: the duplicate key is reported with both lines" \
    has "$g/merged_buggy.csv:5: duplicate key (gfx=gfx950, M=256, N=4096, K=4096), first on line 4"
tap_check "splitk: a quoted cell with a comma is one cell" bash -c '! grep -q "fields, the header" "$1"' _ "$KL_TMP/out.txt"
# Merging the same table twice: every row is a duplicate across files.
k $g/gfx942.csv $g/gfx942.csv --schema $g/schema.json
tap_check "a row in two files is reported (exit $(rc))" \
    bash -c '[ "$1" -eq 1 ] && grep -qF "gfx942.csv:2: key (gfx=gfx942, M=256, N=4096, K=4096) is also in $2/gfx942.csv line 2" "$3"' _ "$(rc)" "$g" "$KL_TMP/out.txt"

# ---- hostile input -----------------------------------------------------------------------
s=$a/schema.json
printf 'cu_num,M,N,K,kernel,us\n80,1,7168,2048,"unterminated,1.0\n' >"$KL_TMP/q.csv"
k "$KL_TMP/q.csv" --schema $s
tap_check "an unterminated quote: exit 1, file and line named" \
    bash -c '[ "$1" -eq 1 ] && grep -q "q.csv:2: a quoted field is never closed" "$2"' _ "$(rc)" "$KL_TMP/out.txt"
printf 'cu_num,M,N,K,kernel,us\n80,1,7168\n' >"$KL_TMP/short.csv"
k "$KL_TMP/short.csv" --schema $s
tap_check "a short row: 3 fields, the header has 6" has "short.csv:2: 3 fields, the header has 6"
printf 'cu_num,M,N,K,kernel,us\r\n80,1,7168,2048,k\033[31m,1.5\r\n' >"$KL_TMP/esc.csv"
k "$KL_TMP/esc.csv" --schema $s
tap_check "CRLF files read; an escape sequence in a cell never reaches the terminal" \
    bash -c '[ "$1" -eq 0 ] && ! grep -q $'"'"'\033'"'"' "$2"' _ "$(rc)" "$KL_TMP/out.txt"
printf 'cu_num,M,N,K,kernel,us,extra\n80,1,7168,2048,k,1.5,x\n' >"$KL_TMP/extra.csv"
k "$KL_TMP/extra.csv" --schema $s
tap_check "a column the schema does not have" has 'extra.csv:1: column "extra" is not in the schema'
printf 'cu_num,M,N,kernel,us\n80,1,7168,k,1.5\n' >"$KL_TMP/nok.csv"
k "$KL_TMP/nok.csv" --schema $s
tap_check "a missing column without a default" has 'nok.csv:1: column "K" (int) is missing'
printf 'cu_num,M,N,K,kernel,us\n80,1,7168,2048,k,fast\n' >"$KL_TMP/f.csv"
k "$KL_TMP/f.csv" --schema $s
tap_check "a float column holding text" has 'f.csv:2: column us: expected a float, got "fast"'
printf 'a\0b\n' >"$KL_TMP/nul.csv"
k "$KL_TMP/nul.csv" --schema $s
tap_check "a NUL byte: not a text file" has "nul.csv: a NUL byte: not a text file"
printf '{"format": "kladder-config-schema", "version": 1, "columns": {"M": "integer"}, "key": ["M"]}' >"$KL_TMP/bad.json"
k $a/dense.csv --schema "$KL_TMP/bad.json"
tap_check "a schema with an unknown type: exit 2, field named" \
    bash -c '[ "$1" -eq 2 ] && grep -qF "bad.json: columns.M: expected \"int\", \"float\" or \"string\"" "$2"' _ "$(rc)" "$KL_TMP/out.txt"
printf '{"format": "kladder-config-schema", "version": 1, "columns": {"M": "int"}, "key": ["Q"]}' >"$KL_TMP/badkey.json"
k $a/dense.csv --schema "$KL_TMP/badkey.json"
tap_check "a key that is not a column: exit 2" has 'badkey.json: key[0]: expected a column named in "columns"'
k $a/dense.csv
tap_check "no --schema: usage error (exit $(rc))" test "$(rc)" -eq 2
