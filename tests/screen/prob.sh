# The probability helper of a timing case: chances for N = 1, 1e3, 1e6 and the adjustable N,
# and the N needed for 50% and 95%.
. tests/screen/screen_lib

screen_run 100x50 'Tab
/
:type sglang-600
Enter
Enter
:save-screen prob-default
+
+
+
:save-screen prob-more
-
-
-
-
-
-
-
-
-
-
:save-screen prob-min'
for s in prob-default prob-more prob-min; do
    screen_check "$s"
done
f=$SCREENS/prob-default.screen
tap_check "2 in 30: one call 6.7%" grep -qE 'N = 1 +6\.7%' "$f"
tap_check "2 in 30: 50% needs 11, 95% needs 44" grep -q '50% needs N = 11   95% needs N = 44' "$f"
tap_check "1 in 100,000: 50% needs 69,315" grep -q '50% needs N = 69,315 ' "$f"
tap_check "1 in 100,000: a million calls 99.995%" grep -qE 'N = 1,000,000 +99\.995%' "$f"
tap_check "+ three times: N = 1,000" grep -qE 'N = 1,000 \(\+/-\)' "$SCREENS/prob-more.screen"
tap_check "- stops at N = 1" grep -qE 'N = 1 \(\+/-\)' "$SCREENS/prob-min.screen"
