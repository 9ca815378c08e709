/* `kladder exec`: a CUDA or HIP program as it ships, its own main() run on the cpu emulator.
 *
 * The whole file is compiled as a plain source for the cpu backend (engine/compile/
 * plain_source.h) with its host code made to run (eng_manifest.exec_host: kernels/
 * kl_exec_rt.h implements the host runtime over engine/prog/prog_rt.c), through the compile
 * cache. Then a child process loads it and calls its main() with the program's arguments, so
 * that whatever the program does — a crash, exit(), a hang — ends the child and never kladder.
 * Every launch runs on the cpu backend's block scheduler under the chosen schedule; device
 * allocations have guard pages and sentinels. What the child finds is reported back as records,
 * the program's output (stdout and stderr, interleaved as written) is kept. */
#ifndef KL_ENGINE_PROG_H
#define KL_ENGINE_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/backend/backend.h"

enum eng_prog_verdict {
    ENG_PROG_PASS,    /* exited 0, no finding */
    ENG_PROG_FINDING, /* kladder found a defect (whatever the program said) */
    ENG_PROG_FAILED,  /* no finding, but the program exited non-zero: its own check failed */
    ENG_PROG_CRASH,   /* no finding, the program died by a signal */
    ENG_PROG_HANG,    /* it ran past the time limit and was killed */
    ENG_PROG_ERROR,   /* it could not run: the file does not compile, has no main() */
};

/* "pass", "finding", "failed", "crash", "hang", "error" */
const char *eng_prog_verdict_name(enum eng_prog_verdict v);

struct eng_prog_opts {
    const char *path;          /* the .cu/.hip file */
    const char *const *flags;  /* extra compiler flags (-I, -D), NULL-terminated; may be NULL */
    enum eng_schedule schedule;
    uint64_t seed;
    int wave;                  /* 32 or 64 */
    int timeout_s;             /* the program's whole run */
    char **argv;               /* the program's argv, argv[0] its name; argc entries */
    int argc;
};

/* The kinds of finding, as a finding's kind and --json's "kind" spell them:
 *   race                a data race the pct schedule's race check saw (both accesses named)
 *   out-of-bounds       a kernel access past, or before, a device allocation (a guard page, or
 *                       the sentinels around the data)
 *   use-after-free      a kernel access, a copy or a memset inside a freed allocation
 *   copy-out-of-bounds  a copy or memset whose device side leaves its allocation (or a
 *                       __device__/__constant__ symbol's size), or is no allocation at all
 *   uninitialised-read  a kernel read of device bytes nothing ever wrote
 *   bad-free            a double free, or a free of no allocation's start
 *   launch              the scheduler's own error (a deadlock at a barrier, say) */
#define ENG_PROG_KIND_UNINIT "uninitialised-read"
#define ENG_PROG_FINDING_KINDS                                                                   \
    {"race", "out-of-bounds", "use-after-free", "copy-out-of-bounds", ENG_PROG_KIND_UNINIT,      \
     "bad-free", "launch"}

struct eng_prog_finding {
    char *kind; /* one of ENG_PROG_FINDING_KINDS */
    char *text; /* the report, lines separated by '\n'; from the program: sanitise to print */
};

struct eng_prog_result {
    enum eng_prog_verdict verdict;
    char *error;            /* ENG_PROG_ERROR: one line saying why */
    struct eng_prog_finding *findings;
    size_t nfindings;
    int exit_status;        /* the program's, when it exited (-1 otherwise) */
    int signal;             /* the signal that ended it, or 0 */
    bool stopped;           /* kladder ended it at a finding (a fault in a guard) */
    char *output;           /* what the program wrote (its last ENG_PROG_OUTPUT_MAX bytes) */
    size_t output_len;
    bool output_cut;        /* more was written than kept */
    bool cached;            /* the compiled object came from the compile cache */
};

#define ENG_PROG_OUTPUT_MAX ((size_t)1 << 20)

/* Compiles and runs o->path as above and fills r (free with eng_prog_result_free). Returns 0
 * when r says what happened (r->verdict), -1 on a setup error of kladder's own (r->error). */
int eng_prog_run(const struct eng_prog_opts *o, struct eng_prog_result *r);
void eng_prog_result_free(struct eng_prog_result *r);

/* The child's side (engine/prog/prog_rt.c): loads the compiled object on the cpu backend, fills
 * the module's host runtime table and calls its main(); never returns. Findings go to
 * findings_fd as records "KIND\tTEXT\x1e"; a setup failure is the record "error\t...". */
void eng_prog_child(const void *code, size_t len, const struct eng_prog_opts *o,
                    int findings_fd) __attribute__((noreturn));

/* The exit status of a child that could not start the program (its record says why). */
#define ENG_PROG_EXIT_SETUP 87

#endif
