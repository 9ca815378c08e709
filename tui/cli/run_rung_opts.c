/* The rungs' own options as entries of run's table (tui/cli/run_rung_opts.h). */
#include "tui/cli/run_rung_opts.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "tui/cli/cli.h"

struct run_rung_opt {
    struct run_rung_opts *all;
    const struct eng_rung *R;
};

static int take(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    const struct run_rung_opt *l = opt->dest;
    struct run_rung_opts *r = l->all;
    eng_rung_args_set(&r->args, l->R->number, opt->name, v);
    if (!(r->given & (1u << l->R->number)))
        r->first[l->R->number] = opt->name;
    r->given |= 1u << l->R->number;
    return CLI_PARSED;
}

void run_rung_opts_init(struct run_rung_opts *r)
{
    memset(r, 0, sizeof *r);
    size_t n = 0;
    for (size_t i = 0; i < eng_rung_count(); i++)
        for (const struct eng_rung_opt *x = eng_rung_nth(i)->opts; x && x->name; x++)
            n++;
    r->opts = xcalloc(n + 1, sizeof *r->opts);
    r->links = xcalloc(n + 1, sizeof *r->links);
    for (size_t i = 0; i < eng_rung_count(); i++) {
        const struct eng_rung *R = eng_rung_nth(i);
        for (const struct eng_rung_opt *x = R->opts; x && x->name; x++) {
            r->links[r->n] = (struct run_rung_opt){r, R};
            r->opts[r->n] = (struct cli_opt){.name = x->name, .kind = x->arg ? CLI_CALL : CLI_DO,
                                             .dest = &r->links[r->n], .call = take,
                                             .arg = x->choices ? NULL : x->arg,
                                             .about = x->about,
                                             .choices = {.words = x->choices}};
            r->n++;
        }
    }
}

void run_rung_opts_free(struct run_rung_opts *r)
{
    eng_rung_args_free(&r->args);
    free(r->opts);
    free(r->links);
    memset(r, 0, sizeof *r);
}

int run_rung_opts_check(const struct run_rung_opts *r, unsigned rungs)
{
    for (int n = 1; n < ENG_RUNG_SLOTS; n++)
        if ((r->given & (1u << n)) && !(rungs & (1u << n)))
            return cli_usage_error("run", "%s is rung %d's own option; give --rung %d (with "
                                          "the others to run)", r->first[n], n, n);
    return CLI_PARSED;
}
