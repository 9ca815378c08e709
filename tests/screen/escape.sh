# Control characters never reach the terminal. The importer refuses them, so this test plants
# them in the database directly (as a damaged or hand-edited database would hold them): a title
# with a clear-screen sequence, a summary with an OSC title change and BEL, a C1 CSI. The screen
# must show U+FFFD in their place, never the raw bytes and never curses' own ^[ rendering.
. tests/screen/screen_lib

export SCREEN_DB=$KL_TMP/escape.db
screen_run 80x24 ':save-screen escape-before'

python3 - "$SCREEN_DB" <<'PY' || tap_fail "could not plant control characters in the database"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n = db.execute("UPDATE cases SET title_en = ?, summary_en = ? WHERE id = 'aiter-100'",
               ("Evil \x1b[2J\x1b[31mred\x1b[0m title",
                "Summary \x1b]0;owned\x07 with OSC and a C1 \u009b31m CSI.")).rowcount
db.commit()
sys.exit(0 if n == 1 else 1)
PY

SCREEN_KEEP_DB=1 screen_run 80x24 'Tab
:save-screen escape-list
Enter
:save-screen escape-detail'
screen_check escape-list
screen_check escape-detail

for s in escape-list escape-detail; do
    f=$SCREENS/$s.screen
    tap_check "$s: no ESC, BEL or C1 byte on screen" \
        python3 -c 'import sys; t = open(sys.argv[1], encoding="utf-8").read(); sys.exit(any(c in t for c in "\x1b\x07\x9b"))' "$f"
    tap_check "$s: no ^[ either (sanitised before curses saw it)" sh -c "! grep -q '\^\[' '$f'"
done
tap_check "the title shows U+FFFD where ESC was" grep -q 'Evil �\[2J�\[31mred' "$SCREENS/escape-detail.screen"
tap_check "the OSC and the C1 CSI are replaced too" grep -q 'Summary �\]0;owned� with OSC and a C1 �31m CSI' "$SCREENS/escape-detail.screen"
