# Language and colour: in Chinese the verdict words are Chinese too (not "✓ pass"); a run's
# checks are summed up in words with counts ("1 failed, 1 hung, 4 passed"), not glyphs after a
# verdict ("✗ fail 4✓"); under NO_COLOR, t says that themes need colour and the theme's name
# stays as it is.
. tests/screen/screen_lib
. tests/screen/runs_lib

NO_COLOR=1 screen_run 100x30 't
:save-screen theme-no-color'
tap_check "NO_COLOR: t keeps the theme's name" grep -q '^ kladder .* English · default$' "$SCREENS/theme-no-color.screen"
tap_check "NO_COLOR: t says themes need colour" \
    grep -q '^Themes need colour, and colour is off (NO_COLOR, --color=never or the terminal); --color=always' \
    "$SCREENS/theme-no-color.screen"
screen_run 100x30 't
:save-screen theme-color'
tap_check "with colour, t moves to the next theme" grep -q '^ kladder .* English · light$' "$SCREENS/theme-color.screen"

kl_need "python3 is needed to write the fixture documents" python3
docs=$KL_TMP/docs
results_docs "$docs" || { tap_fail "fixture documents written"; exit 0; }
results_db "$KL_TMP/runs.db" "$docs" pull || { tap_fail "hosts pulled"; exit 0; }
# G: the oldest run, cpubox's, whose checks are 4 passed, 1 hung (its fixed variant) and 1 failed
# (its buggy variant: a bug caught).
SCREEN_DB=$KL_TMP/runs.db SCREEN_KEEP_DB=1 screen_run 100x30 '3
G
:save-screen counts-runs
Enter
:save-screen counts-run
L
:save-screen run-checks-zh
Esc
:save-screen runs-zh-words'
tap_check "Runs: a run's checks in words" grep -qE '^ 2026-11-01 00:00 +cpubox .* ✗ fail +1 hung, 1 bug caught, 4 passed$' \
    "$SCREENS/counts-runs.screen"
tap_check "no glyph counts are left" sh -c "! grep -qE '[0-9]+(✓|✗|⧗)' '$SCREENS/counts-runs.screen'"
tap_check "a run's header in words" grep -q ' · cpubox · 1 hung, 1 bug caught, 4 passed$' "$SCREENS/counts-run.screen"
screen_check run-checks-zh
tap_check "Chinese: the checks' verdicts are Chinese words" \
    sh -c "grep -qE '^ +0 +✓ 通过 ' '$SCREENS/run-checks-zh.screen' && grep -qE '^ +2 +⧗ 挂起 ' '$SCREENS/run-checks-zh.screen'"
tap_check "Chinese: no English verdict word is left" \
    sh -c "! grep -qE '(✓ pass|✗ fail|⧗ hang)' '$SCREENS/run-checks-zh.screen'"
tap_check "Chinese: the counts too" grep -q '1 项挂起，捕获 1 个缺陷，4 项通过' "$SCREENS/run-checks-zh.screen"
tap_check "Chinese: the Runs list's verdicts" grep -qE '✗ 失败 +捕获 1 个缺陷' "$SCREENS/runs-zh-words.screen"
tap_check "Chinese: a check's times say min and max in Chinese" \
    grep -qE '^ 时间 中位数 .* · 最小 .* · 最大 .* · 重复 ' "$SCREENS/run-checks-zh.screen"
# The launch panel in Chinese: the time limit reads in Chinese order, the measure first. On the
# built-in index (a fresh database), whose flydsl-1199 has a reproducer suite.
SCREEN_DB=$KL_TMP/builtin.db SCREEN_KEEP_DB=1 screen_run 100x30 'L
2
/
:type 1199
Enter
Enter
r
:save-screen launch-zh'
tap_check "Chinese: the launch panel's time limit reads 每项检查 60 秒" \
    grep -qE '^ 时限 +‹ 每项检查 60 秒 ›' "$SCREENS/launch-zh.screen"
tap_check "Chinese: the launch panel names the rung in Chinese (阶梯 1, not rung 1)" \
    grep -qE '^ 运行 +‹ flydsl-1199 · 阶梯 1 ›' "$SCREENS/launch-zh.screen"
# The theme's name stays in the header at 80 columns, however long: "English · high-contrast"
# gives way to "EN · high-contrast" rather than vanishing.
screen_run 80x24 't
t
:save-screen theme-hc-80
L
:save-screen theme-hc-80-zh'
tap_check "80 columns, high-contrast: the theme is named in the header" \
    grep -q '^ kladder .* EN · high-contrast$' "$SCREENS/theme-hc-80.screen"
tap_check "in Chinese too" grep -q '^ kladder .*high-contrast$' "$SCREENS/theme-hc-80-zh.screen"
