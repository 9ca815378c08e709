#!/usr/bin/env bash
# Rung 8, the user's own evaluation (--e2e): the score decides, never the exit status. Fixture
# outputs of lm-evaluation-harness and of sglang's few-shot GSM8K script pass and fail on their
# scores; a command that exits 0 with a low score fails; one that prints no score is an error
# showing its last lines; one that hangs is a hang; escape sequences it prints reach neither the
# report nor the kept log. Bad options are refused naming the option and what was expected.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/rung8
run8() { # args... -> output in $KL_TMP/out.txt, exit status in $rc
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 8 --backend cpu --no-progress "$@" \
        >"$KL_TMP/out.txt" 2>&1
    rc=$?
}
has() { grep -qE -- "$1" "$KL_TMP/out.txt"; }
show() { sed 's/^/# /' "$KL_TMP/out.txt"; }

# lm-evaluation-harness: the results JSON printed by the command.
run8 --e2e "cat $fx/lm_eval_results.json" --score lm-eval --baseline 0.76
tap_check "lm-eval: a score within tolerance passes (exit 0)" test "$rc" -eq 0
tap_check "lm-eval: the strict-match score, the threshold and the samples are reported" \
    has 'gsm8k exact_match,strict-match 0.7566, baseline 0.7600, threshold 0.6992 \(tolerance 0.08\), 1319 samples: at or above'
[ "$rc" -eq 0 ] || show
# recorded as columns: the score, the baseline and the samples (an evaluation has no step)
run_id=$(sed -n 's/^kladder run \([0-9a-f-]*\):.*/\1/p' "$KL_TMP/out.txt")
tap_check "lm-eval: the score, baseline and samples are recorded" \
    sh -c "'$KLADDER' --db '$KL_TMP/k.db' results '$run_id' --json | tr -d ' \t\n' | grep -q '\"score\":{\"value\":0.7566[0-9]*,\"baseline\":0.76,\"samples\":1319,\"diverge_step\":null}'"
# the collapsed model: the same command shape, exit 0, the score 0.01
run8 --e2e "cat $fx/lm_eval_collapsed.json" --score lm-eval:gsm8k --baseline 0.76
tap_check "lm-eval: exit 0 with a collapsed score fails the run (exit 1)" test "$rc" -eq 1
tap_check "lm-eval: ... named as a score below the threshold" \
    has '^fail +user +r8 score:lm-eval:gsm8k .*' 
tap_check "lm-eval: ... with the score and why" has 'strict-match 0.0106, .*below the threshold.*exit status 0'
# a --limit run that scored 250 of 1319 questions
run8 --e2e "cat $fx/lm_eval_partial.json" --score lm-eval --baseline 0.76
tap_check "lm-eval: a partial run fails although its score is high" has '250 of 1319 samples were scored'
tap_check "lm-eval: ... exit 1" test "$rc" -eq 1
# the results file the evaluator writes (--output_path), read after the command ends
mkdir -p "$KL_TMP/eval"
run8 --shell --e2e "echo evaluating; cp $fx/lm_eval_collapsed.json $KL_TMP/eval/results.json" \
    --results "$KL_TMP/eval/results.json" --score lm-eval --baseline 0.76
tap_check "lm-eval --results: the file the command wrote is read" has 'strict-match 0.0106, '
# a results file the command did not write (an earlier run's) is refused, not scored
cp $fx/lm_eval_results.json "$KL_TMP/eval/stale.json"
touch -d '2026-01-01 00:00:00' "$KL_TMP/eval/stale.json"
run8 --e2e "echo evaluation crashed" --results "$KL_TMP/eval/stale.json" --score lm-eval --baseline 0.76
tap_check "lm-eval --results: a stale results file is an error, not a pass" \
    has '^error +user +r8 .*'
tap_check "lm-eval --results: ... saying why" has 'stale.json was not written by this command'
# the baseline from an earlier good result
run8 --e2e "cat $fx/lm_eval_results.json" --score lm-eval --baseline $fx/lm_eval_results.json
tap_check "lm-eval: the baseline read from an earlier results file" has 'baseline 0.7566, '

# sglang's few-shot GSM8K script.
run8 --e2e "cat $fx/sglang_gsm8k.txt" --score sglang --baseline 0.90 --samples 200
tap_check "sglang: Accuracy 0.915 against 0.90 passes" test "$rc" -eq 0
tap_check "sglang: ... reported with the accuracy" has 'Accuracy 0.9150, baseline 0.9000'
[ "$rc" -eq 0 ] || show
run8 --e2e "cat $fx/sglang_garbage.txt" --score sglang --baseline 0.90 --invalid-max 0.9
tap_check "sglang: garbage answers (accuracy 0.015) fail" has 'Accuracy 0.0150, .*below the threshold'
run8 --e2e "cat $fx/sglang_garbage.txt" --score sglang --baseline 0.01
tap_check "sglang: invalid answers over the limit fail even above the score threshold" \
    has 'invalid answers 0.6450 above the limit 0.05'
run8 --e2e "cat $fx/sglang_gsm8k.txt" --score sglang --baseline 0.90 --samples 200 --wilson
tap_check "sglang --wilson: 0.915 over 200 questions is not clearly above 0.828... it is" \
    has 'Wilson lower bound 0.8[0-9]+ clears the threshold'
run8 --e2e "cat $fx/sglang_gsm8k.txt" --score sglang --baseline 0.98 --samples 200 --wilson
tap_check "sglang --wilson: against 0.98 the bound (not the score) decides" \
    has 'threshold 0.9016.*Wilson lower bound 0.8[0-9]+ is below the threshold'

# A command of our own that exits 0 and prints a low score through a regular expression.
run8 --shell --e2e 'echo "eval done: score=0.41 over 500"; exit 0' --score 'regex:score=([0-9.]+)' \
    --baseline 0.8
tap_check "regex: exit 0 with a low score fails (exit 1)" test "$rc" -eq 1
tap_check "regex: ... reporting the score" has 'regex 0.4100, baseline 0.8000, threshold 0.7360'
# and a passing score whose command exits 3: the score decides
run8 --shell --e2e 'echo score=0.79; exit 3' --score 'regex:score=([0-9.]+)' --baseline 0.8
tap_check "regex: a good score passes whatever the exit status" test "$rc" -eq 0
tap_check "regex: ... saying the status was ignored" has 'exit status 3 \(ignored: the score decides\)'

# No score: an error with the output's last lines.
run8 --shell --e2e 'echo loading model; echo "Traceback (most recent call last):"; echo "RuntimeError: HIP error: invalid device function"' \
    --score sglang --baseline 0.9
tap_check "no score: an error (exit 1)" test "$rc" -eq 1
tap_check "no score: the check is an error, not a fail" has '^error +user +r8 score:sglang '
tap_check "no score: says what was looked for and shows the last lines" \
    has 'no score: no line "Accuracy: NUMBER" in the output; the command exited with status 0; its last lines: loading model \| Traceback .* \| RuntimeError: HIP error: invalid device function'

# A command that hangs: the watchdog stops it, the check is a hang, the command is gone.
start=$(date +%s)
run8 --shell --e2e 'echo "loading weights"; printf "\033[1mserver up\033[0m\n"; sleep 123.5' --score sglang --baseline 0.9 --timeout 3
tap_check "hang: the verdict is hang (exit 1)" sh -c "[ $rc -eq 1 ] && grep -qE '^hang +user +r8 score:sglang ' '$KL_TMP/out.txt'"
tap_check "hang: ... naming the limit" has 'stopped by the watchdog after the 3 s limit: the evaluation command did not finish'
tap_check "hang: ... with what the command printed before it hung, escaped" \
    has 'did not finish; its last lines: # kladder rung 8: sh -c echo .* \| loading weights \| \\x1b\[1mserver up\\x1b\[0m; output kept in '
tap_check "hang: the run did not wait for the command" test $(($(date +%s) - start)) -lt 60
gone() { # the killed group may take a moment to be reaped
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        pgrep -f 'sleep 123[.]5' >/dev/null || return 0
        sleep 0.5
    done
    return 1
}
tap_check "hang: no process of the command is left" gone

# Escape sequences printed by the command are written as escapes, never sent to the terminal.
run8 --shell --e2e "printf '\\033]0;owned\\007\\033[2J progress\\r\\033[31mno score\\033[0m\\n'" --score sglang --baseline 0.9
tap_check "escapes: no ESC or BEL byte in the report" sh -c "! grep -q \$(printf '[\\033\\007]') '$KL_TMP/out.txt'"
tap_check "escapes: ... shown as escapes" has '\\x1b\]0;owned\\x07\\x1b\[2J progress\\x0d\\x1b\[31mno score'
log=$(sed -n 's/.*output kept in \([^ ;]*\.log\).*/\1/p' "$KL_TMP/out.txt" | head -1)
tap_check "escapes: the output is kept with the run, named by its id" test -f "$log"
tap_check "escapes: ... with no ESC or BEL byte in it" sh -c "! grep -q \$(printf '[\\033\\007]') '$log'"
run_id=$(sed -n 's/^kladder run \([0-9a-f-]*\):.*/\1/p' "$KL_TMP/out.txt")
tap_check "escapes: the log is named by the run id" test "$(basename "$log")" = "$run_id.log"
"$KLADDER" --db "$KL_TMP/k.db" results "$run_id" >"$KL_TMP/res.txt" 2>&1
tap_check "results: the recorded check shows the score's detail, escaped" \
    sh -c "grep -q 'score:sglang.*no score: no line' '$KL_TMP/res.txt' && ! grep -q \$(printf '[\\033\\007]') '$KL_TMP/res.txt'"
"$KLADDER" --db "$KL_TMP/k.db" results --rung 8 >"$KL_TMP/res.txt" 2>&1
tap_check "results: the runs are listed under rung 8, suite e2e" \
    test "$(grep -cE '^[0-9a-f]{8} .* 8 +e2e +user ' "$KL_TMP/res.txt")" -ge 10

# An escape sequence in the command line itself: the report, the log header and the recorded
# command show it escaped.
esc=$(printf '\033[31m')
run8 --e2e "echo ${esc}red" --score sglang --baseline 0.9
run_id=$(sed -n 's/^kladder run \([0-9a-f-]*\):.*/\1/p' "$KL_TMP/out.txt")
"$KLADDER" --db "$KL_TMP/k.db" results "$run_id" >"$KL_TMP/res.txt" 2>&1
tap_check "escapes in the command: none in the report, the results or the log" \
    sh -c "! grep -q \$(printf '\033') '$KL_TMP/out.txt' '$KL_TMP/res.txt' '$XDG_DATA_HOME/kladder/e2e/$run_id.log'"
tap_check "escapes in the command: the log's header shows it escaped" \
    grep -qF '# kladder rung 8: echo \x1b[31mred' "$XDG_DATA_HOME/kladder/e2e/$run_id.log"

# JSON report: the score check with its oracle.
"$KLADDER" --db "$KL_TMP/k.db" run --rung 8 --backend cpu --no-progress --json \
    --e2e "cat $fx/sglang_gsm8k.txt" --score sglang --baseline 0.90 >"$KL_TMP/r.json" 2>/dev/null
tap_check "JSON: the check is reported with the score oracle" grep -q '"oracle":[[:space:]]*"score"' "$KL_TMP/r.json"

# Usage errors: exit 2, the option and what it expects.
bad() { # expected-message args...
    local want=$1 out rc
    shift
    out=$("$KLADDER" --db "$KL_TMP/k.db" run --backend cpu --no-progress "$@" 2>&1)
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" <<<"$out"; then
        tap_ok "usage: $want"
    else
        tap_fail "usage: exit $rc, wanted '$want'"
        printf '%s\n' "$out" | sed 's/^/# /'
    fi
}
bad "--e2e runs rung 8's end-to-end score; give --rung 8" --e2e true --score sglang --baseline 1
bad "--e2e needs --score FORMAT and --baseline VALUE|FILE" --rung 8 --e2e true --baseline 1
bad "--score expects lm-eval[:TASK], sglang or regex:PATTERN, not 'gsm8k'" --rung 8 --e2e true --score gsm8k --baseline 1
bad "--tolerance expects a number from 0 to 0.99, not '8%'" --rung 8 --e2e true --score sglang --baseline 1 --tolerance 8%
bad "--baseline expects a number or a readable file: $fx/sglang_garbage.txt.missing: No such file" --rung 8 --e2e true --score sglang --baseline $fx/sglang_garbage.txt.missing
bad "--baseline tests/engine/rung8_e2e.sh: expected a number or a result the --score format reads: no line \"Accuracy: NUMBER\"" \
    --rung 8 --e2e true --score sglang --baseline tests/engine/rung8_e2e.sh
bad "--wilson belongs to rung 8's --e2e COMMAND" --rung 8 --wilson
bad "--e2e: the ' opened at byte 6 is never closed" --rung 8 --e2e "echo 'x" --score sglang --baseline 1
