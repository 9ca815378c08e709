# Below 60x16 a clear message instead of a broken layout; growing the terminal brings the view
# back, and q still quits from the message.
. tests/screen/screen_lib

screen_run 50x12 ':save-screen too-small-50x12
:resize 59 24
:save-screen too-small-59x24
:resize 60 16
:save-screen smallest-60x16
Tab
:resize 30 5
:resize 80 24
:save-screen resized-back
:resize 40 10
q
:save-screen never-saved'
for s in too-small-50x12 too-small-59x24 smallest-60x16 resized-back; do
    screen_check "$s"
done
tap_check "the message names the size needed" grep -q "needs at least 60×16" "$SCREENS/too-small-59x24.screen"
tap_check "q quits from the too-small screen" test ! -e "$SCREENS/never-saved.screen"
