# Small screens: a run's checks with long variants ("baseline-fixed") and long check names, at
# 80 and 120 columns. The columns are as wide as their content, give way in a declared order
# (the shape first, then the check shrinks; the variant stays whole) and are two cells apart, so a variant never runs into a
# check name, and at 120 columns nothing is cut that fits.
. tests/screen/screen_lib

kl_need "python3 is needed to write the fixture document" python3
doc=$KL_TMP/long.json
python3 tests/fixtures/remote/gen_results.py --host longbox --runs 1 --checks 8 \
    --out "$KL_TMP/long.tmp.json" || { tap_fail "fixture document written"; exit 0; }
python3 - "$KL_TMP/long.tmp.json" "$doc" <<'PY' || { tap_fail "fixture document rewritten"; exit 0; }
import json, sys
doc = json.load(open(sys.argv[1]))
variants = ["baseline-fixed", "baseline-buggy", "fixed", "buggy"]
for c in doc["checks"]:
    i = c["seq"]
    c["variant"] = variants[i % 4]
    k = 512 + 64 * i
    c["check"] = "unit-test-M128-N128-K%d-tile_k256" % k if i < 2 else "tail-K%d-tile_k64" % (65 + i)
    c["shape"] = "M=128,N=128,K=%d,tile_k=256" % k
json.dump(doc, open(sys.argv[2], "w"))
PY
db=$KL_TMP/long.db
"$KLADDER" --db "$db" --data-dir tests/fixtures/tui hosts add longbox "file://$doc" >/dev/null &&
    "$KLADDER" --db "$db" pull >/dev/null || { tap_fail "document pulled"; exit 0; }

SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 80x24 '3
Enter
:save-screen run-columns-80x24
:resize 120 40
:save-screen run-columns-120x40
:resize 60 16
:save-screen run-columns-60x16'
screen_check run-columns-80x24
screen_check run-columns-120x40
screen_check run-columns-60x16
for size in 80x24 120x40 60x16; do
    f=$SCREENS/run-columns-$size.screen
    tap_check "$size: no variant touches the check after it" \
        sh -c "! grep -qE '(baseline-fixed|baseline-buggy|fixed|buggy) ?(unit|tail)-' '$f'"
done
tap_check "80x24: baseline-fixed is whole" grep -qE '^ +0 +. pass +baseline-fixed  +unit-test-M128-N128-K512-tile_k256 ' \
    "$SCREENS/run-columns-80x24.screen"
tap_check "120x40: the shape is shown, nothing is cut" \
    sh -c "grep -qE 'baseline-buggy  +unit-test-M128-N128-K576-tile_k256  +M=128,N=128,K=576,tile_k=256 ' '$SCREENS/run-columns-120x40.screen' && ! grep -q 'baseline…' '$SCREENS/run-columns-120x40.screen'"
tap_check "60x16: the variant stays whole, apart from the check" \
    grep -qE 'baseline-fixed  +unit-test' "$SCREENS/run-columns-60x16.screen"
