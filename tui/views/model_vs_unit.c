/* The unit test vs model run (tui/views/model_vs_unit.h). */
#include "tui/views/model_vs_unit.h"

#include <stdio.h>

#include "engine/rung.h"
#include "engine/rungs/rung8_model_check.h"
#include "tui/views/launcher.h"
#include "tui/views/view.h"

void tui_model_vs_unit(struct tui_app *app, const char *case_id)
{
    size_t n;
    const struct eng_rung *R = eng_rung_end_to_end(); /* the model's rung, from its entry */
    if (!eng_model_swaps(case_id, &n)) {
        char have[256];
        eng_model_cases(have, sizeof have);
        if (app->lang == TUI_LANG_ZH)
            tui_app_message(app, "第 %d 阶的内置模型不含 %s 的内核（含有 %s 的）",
                            R ? R->number : 0, case_id, have);
        else
            tui_app_message(app, "Rung %d's built-in model has no kernel of %s (it has those of %s)",
                            R ? R->number : 0, case_id, have);
        return;
    }
    /* the model of the small configuration takes seconds on the cpu backend; the time limit
     * is per check, after setup */
    static char rung[] = "--rung", opt[] = "--case";
    char id[96], number[16];
    snprintf(id, sizeof id, "%s", case_id);
    snprintf(number, sizeof number, "%d", R ? R->number : 0);
    char *const target[] = {rung, number, opt, id};
    struct tui_run_opts o = {.target = target, .n_target = 4, .variant = "both",
                             .timeout_s = 120};
    struct tui_argv cmd;
    tui_launcher_run_argv(app, &o, &cmd);
    tui_app_open(app, TUI_VIEW_LIVE, &(struct tui_open){.argv = cmd.v});
}
