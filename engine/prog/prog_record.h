/* What becomes of a `kladder exec` run besides its report: a run in the results database, like
 * every `kladder run`, and on request a JUnit file (docs/exec.md, "What is recorded").
 *
 * An exec run is the ladder's rows with the program in them: a run (rung 0, suite the file's
 * name, variant "exec", the command line as argv, the cpu machine with the run's wave), check
 * seq 0 "program" with the program's verdict and everything about it in its exec facts
 * (casedb/check_facts.h: exec's own verdict word, the file, args, schedule, seed, wave, exit
 * status or signal, the output's tail), and one check per finding, "finding N: KIND", failing,
 * its report the detail. So export, pull, compare, `kladder results` and the TUI's Runs view
 * carry exec runs through the rows they already read. Every string from the program is
 * sanitised (common/text.h) before it is stored. */
#ifndef KL_ENGINE_PROG_RECORD_H
#define KL_ENGINE_PROG_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "casedb/results.h"
#include "engine/prog/prog.h"

struct cdb;

/* The run as a whole: when it ran and how it was asked for. */
struct eng_prog_run_info {
    char uuid[37];          /* filled by eng_prog_record_start */
    char started[21], finished[21];
    const char *argv_text;  /* "kladder exec /abs/FILE.cu -- ARGS", for reproducing */
};

/* The database's verdict of an exec verdict: pass, fail (a finding, the program's own failure,
 * a crash), hang, error. */
enum cdb_verdict eng_prog_cdb_verdict(enum eng_prog_verdict v);

/* Records the run as `kladder run` does, in two steps. Before the program runs: the machine
 * and the run (verdict running, this process its owner) in one transaction; fills run->uuid
 * (left "" on failure). A kladder killed while its program runs leaves the run to be reaped as
 * interrupted, as a `kladder run` killed is (casedb/runs_reap.h). 0, or -1 with err. */
int eng_prog_record_start(struct cdb *db, const struct eng_prog_opts *o,
                          struct eng_prog_run_info *run, char *err, size_t errlen);
/* After it: its checks, then its verdict and end time, in one transaction, all or nothing (the
 * run then stays running, to be reaped as interrupted). 0, or -1 with err. */
int eng_prog_record_end(struct cdb *db, const struct eng_prog_opts *o,
                        const struct eng_prog_result *r, const struct eng_prog_run_info *run,
                        char *err, size_t errlen);

/* Writes JUnit XML to path atomically: one testsuite "kladder exec", one testcase "program"
 * that fails unless the verdict is pass (an error is an <error>), and one failing testcase per
 * finding with its report; the program's output tail is the program testcase's system-out.
 * 0, or -1 with err. */
int eng_prog_junit(const char *path, const struct eng_prog_opts *o,
                   const struct eng_prog_result *r, const struct eng_prog_run_info *run,
                   char *err, size_t errlen);

/* The tail of the program's output as recorded: its last bytes (at most max after
 * sanitising, cut at a character), control characters replaced, newlines kept. *cut says
 * whether anything written was left out. malloc'd. */
char *eng_prog_output_tail(const struct eng_prog_result *r, size_t max, bool *cut);

#endif
