#!/usr/bin/env bash
# Numbers that must not mislead: the run table cuts a long value with an ellipsis (never
# silently), a failure whose output holds NaN says that its max error is over the finite
# elements only and how many those are, and rung 5 counts differing words per repeat, never
# more than the output has.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures

# nan.json: a masked copy (every 8th element NaN in the reference and in both variants); the
# buggy copy writes NaN into the other elements of 3 of every 4 and is 0.25 off in the 4th. Of
# 1000 elements 125 are NaN in the reference, 625 NaN where it is finite, 250 finite in both.
# Also a parameter with a 7-digit value and a check name too long for their columns.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite $fx/nan.json --backend cpu --no-progress \
    --timeout 60 >"$KL_TMP/nan.txt" 2>&1
sed 's/^/# /' "$KL_TMP/nan.txt"
tap_check "the NaN-writing copy is caught" grep -qE '^fail +buggy +r1 n1000 ' "$KL_TMP/nan.txt"
tap_check "its max error is over the 250 elements finite in both, beside 625 NaN/Inf" \
    grep -qE '875 of 1000 elements differ from the reference(, max error 0.25 over the 250 finite elements| beyond the bound .*kernel error inf against the reference).*; 625 NaN/Inf where the reference is finite' "$KL_TMP/nan.txt"
tap_check "the fixed copy, NaN where the reference is, passes" grep -qE '^pass +fixed +r1 n1000 ' "$KL_TMP/nan.txt"
tap_check "the long check name is cut with an ellipsis" \
    grep -qE '^pass +fixed +r1 a_check_name_longer_than_its_thir… ' "$KL_TMP/nan.txt"
tap_check "the long shape is cut with an ellipsis" grep -qE ' n=1000,first_slot_of_the_window… ' "$KL_TMP/nan.txt"
tap_check "no shape is cut silently (first_slot_of_the_window=3 alone)" \
    bash -c "! grep -qE 'first_slot_of_the_window=[0-9]* ' '$KL_TMP/nan.txt'"

# Rung 5 on an atomic reduction whose order changes every launch: the byte-for-byte re-run says
# in how many repeats, and how many of the output's words differed in one repeat.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 5 --suite $fx/nondet.json --backend cpu --repeat 4 \
    --no-progress --timeout 60 >"$KL_TMP/r5.txt" 2>&1
sed 's/^/# /' "$KL_TMP/r5.txt"
line=$(grep -oE 'in [0-9]+ of [0-9]+ repeats, [0-9]+( to [0-9]+)? of [0-9]+ 8-byte words differed' "$KL_TMP/r5.txt" | head -1)
echo "# $line"
tap_check "rung 5 counts differing words per repeat" test -n "$line"
read -r a b w n <<<"$(echo "$line" | sed -E 's/in ([0-9]+) of ([0-9]+) repeats, ([0-9]+ to )?([0-9]+) of ([0-9]+) .*/\1 \2 \4 \5/')"
tap_check "no more repeats than were run ($a of $b)" test "$a" -le "$b" -a "$a" -ge 1
tap_check "no more words in one repeat than the output has ($w of $n)" test "$w" -le "$n" -a "$w" -ge 1
