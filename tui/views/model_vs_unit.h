/* "Unit test vs model" (the u key): for a case whose buggy kernel is in rung 8's built-in model
 * (engine/rungs/rung8_model_check.h), one run of `kladder run --rung 8 --case ID` in the live
 * view: the plain unit test on the buggy kernel beside the model with that kernel swapped in, so the unit
 * test's pass reads next to the model's score and its first wrong token. */
#ifndef KL_TUI_MODEL_VS_UNIT_H
#define KL_TUI_MODEL_VS_UNIT_H

struct tui_app;

/* Starts the run for case_id and opens the live view; a case the model has no kernel of gets
 * a message naming the cases it has, and nothing runs. */
void tui_model_vs_unit(struct tui_app *app, const char *case_id);

#endif
