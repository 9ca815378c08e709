# Valgrind over a scripted run that visits every view, searches, follows a link, switches
# language and theme, and resizes: no invalid access, no use of uninitialised memory, no leak
# of ours. Only on the normal build (the sanitizer build has its own checks and cannot run
# under valgrind).
. tests/screen/screen_lib

if [ "${KL_SAN:-0}" = 1 ]; then
    tap_skip "valgrind runs on the normal build only"
    exit 0
fi
kl_need "valgrind is not installed (scripts/deps.sh --test installs it)" valgrind

steps='Tab
h
j
j
j
j
Enter
l
Enter
+
+
-
L
/
:type 挂
G
Enter
Esc
q
/
:type barrier
Enter
n
N
x
:click 5 10
:wheel down 40 10
t
t
t
t
?
/
:type theme
Enter
n
:resize 50 12
:resize 120 40
1
Enter
:click 3 0
:save-screen valgrind-last'

# First run imports the fixture (outside valgrind: the import is not what this test is about).
screen_run 80x24 ':save-screen warm'
script=$KL_TMP/valgrind-steps.txt
printf '%s\n' "$steps" | sed -E "s|^:save-screen (.*)$|:save-screen $SCREENS/\1.screen|" >"$script"
log=$KL_TMP/valgrind.log
KLADDER_SCRIPT=$script KLADDER_SIZE=80x24 valgrind --error-exitcode=1 --leak-check=full \
    --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
    --log-file="$log" \
    "$KLADDER" --db "$KL_TMP/screen.db" >/dev/null 2>"$KL_TMP/vg-stderr"
rc=$?
if [ $rc -eq 0 ]; then
    tap_ok "valgrind: no errors and no definite or indirect leaks"
else
    tap_fail "valgrind: exit status $rc"
    grep -E '^==[0-9]+== ' "$log" | head -n 60 | sed 's/^/# /'
fi
tap_check "the run reached its end" test -s "$SCREENS/valgrind-last.screen"
tap_check "valgrind ran the whole script (ERROR SUMMARY present)" grep -q 'ERROR SUMMARY: 0 errors' "$log"
