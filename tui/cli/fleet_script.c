/* The sbatch scripts of a fleet (fleet_script.h). */
#include "tui/cli/fleet_script.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* A growing string. */
struct buf {
    char *s;
    size_t len, cap;
};

static void add(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct buf *b, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)k + 1 > b->cap) {
        b->cap = (b->len + (size_t)k + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap2);
    va_end(ap2);
    b->len += (size_t)k;
}

const char *fleet_script_unsafe(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p <= ' ' || *p == 0x7f)
            return "it holds a space or a control character";
        if (strchr("'\"\\%`$", *p))
            return "it holds a quote, a backslash, '%', '`' or '$'";
    }
    return *s ? NULL : "it is empty";
}

/* The #SBATCH lines every fleet job shares. */
static void header(struct buf *b, const struct fleet_script_in *in)
{
    for (const char *const *o = in->sbatch; o && *o; o++)
        add(b, "#SBATCH %s\n", *o);
}

char *fleet_script_array(const struct fleet_script_in *in)
{
    const struct imp_fleet *f = in->fleet;
    struct buf b = {0};
    add(&b, "#!/bin/bash\n"
            "# kladder fleet: one array task per target. Each runs the ladder into a private\n"
            "# database and exports it atomically to the fleet folder as LABEL.json; the collect\n"
            "# job pulls every export once the array is over (docs/fleet.md).\n");
    add(&b, "#SBATCH --job-name=kladder-fleet\n#SBATCH --array=0-%zu\n", f->n - 1);
    add(&b, "#SBATCH --output=%s/logs/task-%%a.log\n", in->dir);
    if (in->time_limit)
        add(&b, "#SBATCH --time=%s\n", in->time_limit);
    header(&b, in);
    add(&b, "\n# task -> label (the host name its runs are pulled under) and where it runs\n");
    for (size_t i = 0; i < f->n; i++)
        add(&b, "#   %d %s: %s %s\n", f->t[i].index, f->t[i].label,
            f->t[i].partition ? "partition" : "node", f->t[i].where);
    add(&b, "labels=(");
    for (size_t i = 0; i < f->n; i++)
        add(&b, "%s%s", i ? " " : "", f->t[i].label);
    add(&b, ")\nlabel=${labels[$SLURM_ARRAY_TASK_ID]}\n");
    add(&b, "kladder='%s'\nout='%s'\n\n", in->kladder, in->dir);
    add(&b, "# a private database: tasks sharing a node or a home folder never share one\n"
            "work=$(mktemp -d \"${TMPDIR:-/tmp}/kladder-fleet.XXXXXX\") || exit 2\n"
            "trap 'rm -rf \"$work\"' EXIT\n"
            "echo \"kladder fleet: task $SLURM_ARRAY_TASK_ID ($label) on $(hostname)\"\n"
            "\"$kladder\" --db \"$work/kladder.db\" run");
    for (const char *const *a = in->run_args; *a; a++)
        add(&b, " '%s'", *a);
    add(&b, "\nrc=$?\n"
            "# 0: every check passed, 1: a check failed or hung; both are results to land\n"
            "if [ \"$rc\" -gt 1 ]; then\n"
            "    echo \"kladder fleet: kladder run exited $rc; no export from $label\" >&2\n"
            "    exit \"$rc\"\n"
            "fi\n"
            "# export --out writes a temp file and renames it: collect never sees half of it\n"
            "\"$kladder\" --db \"$work/kladder.db\" export --out \"$out/$label.json\" || exit 2\n"
            "echo \"kladder fleet: wrote $out/$label.json\"\n");
    return b.s;
}

char *fleet_script_collect(const struct fleet_script_in *in)
{
    struct buf b = {0};
    add(&b, "#!/bin/bash\n"
            "# kladder fleet: pulls every task's export into the database below, each under\n"
            "# its label; it runs after the array whatever its tasks' states (afterany), and a\n"
            "# task without an export is reported with its state and the tail of its log.\n");
    add(&b, "#SBATCH --job-name=kladder-collect\n#SBATCH --output=%s/logs/collect.log\n",
        in->dir);
    header(&b, in);
    add(&b, "exec '%s' --db '%s' fleet collect '%s'\n", in->kladder, in->db, in->dir);
    return b.s;
}
