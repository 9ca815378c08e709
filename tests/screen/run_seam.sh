# Rung 3 in the run view: a failing seam check shows its two sides side by side under its
# detail. Three local cpu runs of second examples written for the rung 3 tests: a wave32 build
# run where the suite pins wave 64 (the wave it assumes beside the wave it ran at), a test's
# bf16 reference that truncates (its rounding beside the exact one at the first halfway value),
# and a 64-lane ballot count (its value beside the reference's, and beside the check the
# passing wave 64 check). Run identities, hosts, times and timings are made fixed afterwards so
# the screens are the same on every machine.
. tests/screen/screen_lib
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "sqlite3 and python3 are needed to make the runs' identities fixed" sqlite3 python3
fx=tests/engine/fixtures/rung3
src=$KL_TMP/suites
mkdir -p "$src"
cp "$fx/assume32.kl" "$fx/bf16_oracle.kl" "$fx/ballot64.kl" "$fx/ballot64.json" \
    "$fx/bf16_oracle.json" "$src/"
# The wave32 build without its gfx942 code check, which needs clang-22.
python3 - "$fx/assume32.json" "$src/assume32.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
del m["rungs"]["3"]["targets"]
json.dump(m, open(sys.argv[2], "w"))
PY
db=$KL_TMP/seam.db
for s in assume32 bf16_oracle ballot64; do
    "$KLADDER" --db "$db" --data-dir tests/fixtures/tui run --rung 3 --suite "$src/$s.json" \
        --backend cpu --no-progress --timeout 120 >"$KL_TMP/$s.txt" 2>&1
    tap_check "$s: expectation met" test $? -eq 0
done
sqlite3 "$db" "
UPDATE runs SET uuid = printf('00000000-0000-4000-8000-%012d', id), host = 'seambox',
  started = printf('2026-12-01T10:0%d:00Z', id), finished = printf('2026-12-01T10:0%d:30Z', id),
  argv = 'kladder run --rung 3', owner_host = NULL, owner_boot = NULL, owner_pid = NULL,
  owner_start = NULL, owner_pid_ns = NULL;
UPDATE machines SET device = 'cpu emulation', host = 'seambox';
UPDATE checks SET time_median_us = 100, time_min_us = 90, time_max_us = 110, limit_s = 60;" ||
    tap_fail "runs made fixed"

SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 110x32 '3
G
Enter
j
j
j
j
j
:save-screen run-seam-wave
Esc
k
Enter
G
:save-screen run-seam-rounding
Esc
k
Enter
j
j
j
:save-screen run-seam-beside'
for s in run-seam-wave run-seam-rounding run-seam-beside; do
    screen_check $s
done
tap_check "wave: the wave the kernel assumes beside the one it ran at" \
    grep -qE '^ +kernel rowsum_buggy assumes +│ this run' "$SCREENS/run-seam-wave.screen"
tap_check "wave: the two numbers" grep -qE '^ +wave 32 +│ wave 64' "$SCREENS/run-seam-wave.screen"
tap_check "rounding: the test's reference beside the exact one" \
    grep -qE '^ +kernel [a-z0-9_]+ +│ reference [a-z0-9_]+' "$SCREENS/run-seam-rounding.screen"
tap_check "beside: the failing check and its passing neighbour" \
    grep -qE '^ Beside +wave32-default +│ wave64-default' "$SCREENS/run-seam-beside.screen"
