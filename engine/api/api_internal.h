/* PRIVATE to engine/api/: what the handles of kladder.h hold, and the thread's last error. */
#ifndef KL_ENGINE_API_INTERNAL_H
#define KL_ENGINE_API_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/api/kladder.h"
#include "engine/exec.h"
#include "engine/manifest.h"
#include "engine/plan.h"

struct cJSON;

struct kl_op {
    char *name;              /* "py-softmax": the suite name its runs are recorded under */
    struct cJSON *doc;       /* the manifest being described */
    char *dir;               /* where the files its settings name are, or NULL: "." */
    struct eng_manifest *m;  /* parsed from doc by kl_op_plan */
    struct eng_planned *plan;
    size_t nplan;
    int open_runs;           /* runs begun and not freed: they hold the plan */
};

struct kl_call {
    const struct eng_exec *e;
    const struct eng_inst *in;
    const eng_dptr *ptrs;
    char message[900];
};

/* Sets this thread's last error (kl_error) and returns -1. */
int api_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void api_ok(void);

#endif
