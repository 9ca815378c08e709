/* One source file as it ships, taken whole: compiled as a plain source (engine/compile/
 * plain_source.h) for a backend through the compile cache, exactly as a run compiles a suite's
 * plain source but with no entry named, then every __global__ function it defines checked to be
 * launchable: its symbol is in the compiled object (for a template, each instance the file
 * instantiates is). A file that does not go in gets one cause, read from the first error:
 * the API name or the header it lacks at the file's line, else the error line itself.
 * `kladder scan` (tui/cli/cmd_scan.c) runs this over a folder of sources. */
#ifndef KL_ENGINE_SCAN_UNIT_H
#define KL_ENGINE_SCAN_UNIT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/backend/backend.h"

enum eng_scan_cause {
    ENG_SCAN_OK,
    ENG_SCAN_MISSING_API,     /* what: the name the compiler does not know; where: file:line */
    ENG_SCAN_UNSUPPORTED_API, /* what: a name kladder declares "not supported" on the backend */
    ENG_SCAN_MISSING_HEADER,  /* what: the header neither kladder nor the compiler has */
    ENG_SCAN_COMPILE_ERROR,   /* message: the first error line */
    ENG_SCAN_TIME_LIMIT,      /* the compile ran past its limit (set by the caller) */
    ENG_SCAN_NO_KERNEL,       /* compiled, but defines no __global__ function */
    ENG_SCAN_NOT_LAUNCHABLE,  /* what: a kernel whose symbol the object lacks */
    ENG_SCAN_UNREADABLE,      /* message: why the file cannot be read */
    ENG_SCAN_NCAUSES
};

/* "ok", "missing-api", "unsupported-api", "missing-header", "compile-error", "time-limit",
 * "no-kernel", "not-launchable", "unreadable": the cause as the report and its JSON name it. */
const char *eng_scan_cause_name(enum eng_scan_cause c);
/* The cause of that name, or -1. */
int eng_scan_cause_parse(const char *name);

enum eng_scan_state {
    ENG_SCAN_LAUNCHABLE,    /* its symbol is in the object */
    ENG_SCAN_NO_INSTANCE,   /* a template the file never instantiates: nothing to launch */
    ENG_SCAN_NOT_IN_OBJECT, /* declared or defined, but the object has no such function */
    ENG_SCAN_INACTIVE,      /* defined under a preprocessor branch the build does not take
                             * (known where kladder's headers serve: the cpu backend) */
    ENG_SCAN_NSTATES
};

/* "launchable", "no-instance", "not-in-object", "inactive": the state as the report and its
 * JSON name it. */
const char *eng_scan_state_name(enum eng_scan_state s);

struct eng_scan_entry {
    char *kernel;   /* the name it is defined with */
    char *instance; /* a template's instance as the demangler spells it ("k<float,256>"); NULL
                     * for a kernel that is no template and for a template without instance */
    enum eng_scan_state state;
};

struct eng_scan_result {
    enum eng_scan_cause cause;
    char *what;    /* the API name, header or entry the cause is about; NULL when none */
    char *where;   /* "FILE:LINE" of the first error (the file as the compiler named it) */
    char *message; /* the first error line; NULL when it compiled */
    struct eng_scan_entry *entries;
    size_t nentries;
    bool cached;   /* the object came from the compile cache */
};

/* Compiles root/rel for target with b (b loaded, or able to compile offline) with the extra
 * compiler flags (-I, -D; NULL-terminated, may be NULL) and fills r (free with
 * eng_scan_result_free). Local includes are read inside root only. Returns 0 when the file was
 * judged (r->cause says how), -1 on a setup error (kladder's headers not built in) with r->message
 * set. */
int eng_scan_unit(const struct eng_backend *b, const char *target, const char *root,
                  const char *rel, const char *const *flags, struct eng_scan_result *r);

/* The cause of a compile that failed, from kladder's own message (a local include, a header it
 * does not supply) or the compiler's log (g++, clang or nvcc): fills cause, what, where and
 * message of r. */
void eng_scan_classify(const char *log, struct eng_scan_result *r);

void eng_scan_result_free(struct eng_scan_result *r);

#endif
