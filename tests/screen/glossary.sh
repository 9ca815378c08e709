# The help page has a glossary beside the keys: every gap and rung of the index by number and
# name, what each verdict glyph means, and the marks of the dashboard and Compare — in English
# and in Chinese.
. tests/screen/screen_lib

screen_run 100x60 '5
/
:type Glossary
Enter
:save-screen help-glossary
L
5
/
:type 术语表
Enter
:save-screen help-glossary-zh'
screen_check help-glossary
f=$SCREENS/help-glossary.screen
tap_check "a glossary section" grep -q '^ Glossary$' "$f"
tap_check "every gap of the index, by number and name" \
    sh -c "for n in 1 2 3 4 5 6 7; do grep -qE \"^ gap \$n +[A-Z]\" '$f' || exit 1; done"
tap_check "the fixture's own names (not built-in text)" grep -qE '^ gap 3 +Contracts between parts: ' "$f"
tap_check "every rung, R1 to R8" sh -c "for n in 1 2 3 4 5 6 7 8; do grep -qE \"^ R\$n +[A-Z]\" '$f' || exit 1; done"
tap_check "the verdict glyphs" \
    sh -c "grep -q '^ ✓ pass  *the check met its oracle' '$f' && grep -q '^ ⧗ hang  *the watchdog' '$f' && grep -q '^ ⊘ cancelled  *stopped by a person' '$f'"
tap_check "the compare marks" \
    sh -c "grep -q '^ ≠  *Compare: the two sides' '$f' && grep -q '^ !  *Compare: a real timing difference' '$f' && grep -q '^ ~  *Compare: within noise' '$f' && grep -q '^ ?  *Compare: not judged' '$f' && grep -q '^ -  *Compare: skipped' '$f' && grep -q '^ ○  *Compare: the check did not run' '$f'"
tap_check "the dashboard marks" grep -q '^ ●  *Dashboard: this rung closes this gap' "$f"
g=$SCREENS/help-glossary-zh.screen
tap_check "Chinese: the glossary" grep -q '^ 术语表$' "$g"
tap_check "Chinese: verdict words in Chinese" grep -q '^ ✓ 通过  *检查符合判定器的要求' "$g"
tap_check "the words of a run: inconclusive, interrupted, baseline, fixed, buggy, oracle, value class" \
    sh -c "for w in inconclusive interrupted baseline fixed buggy oracle 'value class'; do grep -qE \"^ \$w  +[a-z]\" '$f' || { echo \"# missing: \$w\"; exit 1; }; done"
tap_check "the dashboard's · n cells explained" grep -q '^ · 1  *Dashboard: a number where the rung does not close the gap' "$f"
tap_check "Chinese: the same words" sh -c "grep -q '^ 不确定  ' '$g' && grep -q '^ 判定器  ' '$g' && grep -q '^ 值类别  ' '$g'"
