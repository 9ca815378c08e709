/* kladder exec FILE.cu|FILE.hip [-I DIR]... [-D X[=V]]... [--schedule S] [--seed N]
 *                                [--timeout S] [--json] [--junit FILE] [-- ARGS...]
 *
 * A CUDA or HIP program as it ships, its own main() run on the cpu emulator with every launch
 * under kladder's guards (engine/prog/prog.h). Prints what the program wrote, then the findings
 * as a sanitizer prints them and the verdict; --json writes one document instead. The run is
 * recorded in the results database as `kladder run` records its runs, and --junit writes it
 * as JUnit XML (engine/prog/prog_record.h). Exit 0 pass, 1 a finding or the program's own
 * failure (non-zero exit, a crash), 2 a usage or compile error (no main() included) or a run
 * that could not be recorded, 3 a hang (the time limit). */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>

#include <cJSON.h>

#include "casedb/cdb.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/api/faces.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

#define EXEC_EXIT_HANG 3
#define EXEC_SHOWN 10    /* findings printed whole; the rest are counted */
#define EXEC_TAIL 4096   /* bytes of the program's output in --json */

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"FILE.cu|FILE.hip %o [-- ARGS...]", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Compiles the whole file for the cpu backend, as `kladder scan` does, with its host\n"
           "code made to run, and runs its own main() with ARGS in a child process: device\n"
           "memory, copies, memsets, launches (<<<...>>> and hipLaunchKernelGGL), streams and\n"
           "events (synchronous), errors and device queries go through the emulator. Every\n"
           "launch runs on the cpu backend's block scheduler under the schedule (pct, the\n"
           "default, reports data races on shared and global memory and makes memory weakly\n"
           "ordered); device allocations have guard pages and sentinels: an access past one,\n"
           "a copy past one, a use after free are findings. The program's output comes first,\n"
           "then the findings and the verdict: pass, finding, failed (its own check), crash,\n"
           "hang, error. The run is recorded in the results database like every `kladder\n"
           "run` (`kladder results`, the Runs view, export, pull and compare show it).\n"
           "Exit 0 pass, 1 finding, failed or crash, 2 usage or compile error (no main()\n"
           "included) or a run not recorded, 3 hang.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

struct exec_opts {
    enum eng_schedule schedule;
};

static int take_schedule(const struct cli_opt *opt, const char *v, void *ctx)
{
    (void)ctx;
    struct exec_opts *o = opt->dest;
    /* the words the reports print (eng_schedule_name), read back; the parser took only them */
    for (size_t i = 0; cli_word_schedule(i); i++)
        if (!strcmp(v, cli_word_schedule(i)))
            o->schedule = (enum eng_schedule)i;
    return CLI_PARSED;
}

static void free_flags(char **flags)
{
    for (size_t i = 0; flags && flags[i]; i++)
        free(flags[i]);
    free(flags);
}

/* -I and -D as compiler flags (NULL-terminated), or NULL after a usage message. */
static char **build_flags(const struct cli_list *inc, const struct cli_list *def, int *status)
{
    char **flags = xcalloc(inc->n + def->n + 1, sizeof *flags);
    size_t k = 0;
    for (size_t i = 0; i < inc->n; i++) {
        char *abs = realpath(inc->v[i], NULL);
        if (!abs) {
            char *shown = text_escape(inc->v[i], 200);
            *status = cli_usage_error("exec", "-I %s: no such folder", shown);
            free(shown);
            free_flags(flags);
            return NULL;
        }
        flags[k++] = xasprintf("-I%s", abs);
        free(abs);
    }
    for (size_t i = 0; i < def->n; i++) {
        if (!cli_define_ok(def->v[i])) {
            char *shown = text_escape(def->v[i], 200);
            *status = cli_usage_error("exec", "-D %s: expected NAME or NAME=VALUE (NAME a C "
                                      "identifier)", shown);
            free(shown);
            free_flags(flags);
            return NULL;
        }
        flags[k++] = xasprintf("-D%s", def->v[i]);
    }
    return flags;
}

static int exit_of(const struct eng_prog_result *r)
{
    switch (r->verdict) {
    case ENG_PROG_PASS: return 0;
    case ENG_PROG_HANG: return EXEC_EXIT_HANG;
    case ENG_PROG_ERROR: return 2;
    default: return 1;
    }
}

static void print_text(const struct eng_prog_opts *o, const struct eng_prog_result *r,
                       const char *run_id)
{
    if (r->verdict == ENG_PROG_ERROR) {
        char *clean = text_sanitize(r->error ? r->error : "?", false);
        fprintf(stderr, "kladder exec: %s\n", clean);
        free(clean);
        return;
    }
    if (r->output_len) {
        char *clean = text_sanitize(r->output, true);
        fputs(clean, stdout);
        if (clean[0] && clean[strlen(clean) - 1] != '\n')
            putchar('\n');
        free(clean);
    }
    char *file = text_sanitize(o->path, false);
    printf("========= kladder exec %s (cpu, wave %d, schedule %s, seed %llu)\n", file, o->wave,
           eng_schedule_name(o->schedule), (unsigned long long)o->seed);
    free(file);
    for (size_t i = 0; i < r->nfindings && i < EXEC_SHOWN; i++) {
        char *clean = text_sanitize(r->findings[i].text, true);
        printf("========= %s: ", r->findings[i].kind);
        for (char *line = clean, *nl; line; line = nl ? nl + 1 : NULL) {
            nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            printf("%s%s\n", line == clean ? "" : "=========     ", line);
        }
        free(clean);
    }
    if (r->nfindings > EXEC_SHOWN)
        printf("========= ... and %zu more finding%s\n", r->nfindings - EXEC_SHOWN,
               r->nfindings - EXEC_SHOWN == 1 ? "" : "s");
    char program[160];
    if (r->verdict == ENG_PROG_HANG)
        snprintf(program, sizeof program, "killed after the %d s time limit", o->timeout_s);
    else if (r->stopped)
        snprintf(program, sizeof program, "stopped by kladder at the finding");
    else if (r->signal)
        snprintf(program, sizeof program, "killed by signal %d (%s)", r->signal,
                 sigabbrev_np(r->signal) ? sigabbrev_np(r->signal) : "?");
    else
        snprintf(program, sizeof program, "exit status %d", r->exit_status);
    const char *why = "";
    if (r->verdict == ENG_PROG_FAILED)
        why = " (the program's own check failed; kladder found nothing)";
    else if (r->verdict == ENG_PROG_CRASH)
        why = " (the program crashed; kladder found nothing)";
    printf("========= %s: %zu finding%s; the program: %s%s\n", eng_prog_verdict_name(r->verdict),
           r->nfindings, r->nfindings == 1 ? "" : "s", program, why);
    if (run_id)
        printf("========= recorded as run %s\n", run_id);
}

static void print_json(const struct eng_prog_opts *o, const struct eng_prog_result *r,
                       const char *run_id)
{
    cJSON *doc = cJSON_CreateObject();
    if (run_id)
        cJSON_AddStringToObject(doc, "run_id", run_id);
    else
        cJSON_AddNullToObject(doc, "run_id");
    char *file = text_sanitize(o->path, false);
    cJSON_AddStringToObject(doc, "file", file);
    free(file);
    cJSON_AddStringToObject(doc, "verdict", eng_prog_verdict_name(r->verdict));
    const struct eng_backend *emulator = eng_backend_emulator();
    cJSON_AddStringToObject(doc, "backend", emulator ? emulator->name : "");
    cJSON_AddNumberToObject(doc, "wave", o->wave);
    cJSON_AddStringToObject(doc, "schedule", eng_schedule_name(o->schedule));
    cJSON_AddNumberToObject(doc, "seed", (double)o->seed);
    cJSON *args = cJSON_AddArrayToObject(doc, "args");
    for (int i = 1; i < o->argc; i++) {
        char *a = text_sanitize(o->argv[i], false);
        cJSON_AddItemToArray(args, cJSON_CreateString(a));
        free(a);
    }
    if (r->error) {
        char *e = text_sanitize(r->error, false);
        cJSON_AddStringToObject(doc, "error", e);
        free(e);
    }
    cJSON *fs = cJSON_AddArrayToObject(doc, "findings");
    for (size_t i = 0; i < r->nfindings; i++) {
        cJSON *f = cJSON_CreateObject();
        char *t = text_sanitize(r->findings[i].text, true);
        cJSON_AddStringToObject(f, "kind", r->findings[i].kind);
        cJSON_AddStringToObject(f, "report", t);
        free(t);
        cJSON_AddItemToArray(fs, f);
    }
    cJSON *prog = cJSON_AddObjectToObject(doc, "program");
    if (r->verdict != ENG_PROG_ERROR && r->verdict != ENG_PROG_HANG && !r->signal &&
        !r->stopped)
        cJSON_AddNumberToObject(prog, "exit_status", r->exit_status);
    else
        cJSON_AddNullToObject(prog, "exit_status");
    cJSON_AddNumberToObject(prog, "signal", r->signal);
    cJSON_AddBoolToObject(prog, "stopped_at_finding", r->stopped);
    cJSON_AddBoolToObject(prog, "timed_out", r->verdict == ENG_PROG_HANG);
    cJSON_AddNumberToObject(prog, "timeout_s", o->timeout_s);
    const char *tail = r->output ? r->output : "";
    size_t n = r->output_len;
    if (n > EXEC_TAIL)
        tail += n - EXEC_TAIL;
    char *t = text_sanitize(tail, true);
    cJSON_AddStringToObject(prog, "output_tail", t);
    free(t);
    cJSON_AddBoolToObject(prog, "output_cut", r->output_cut || n > EXEC_TAIL);
    char *s = cJSON_Print(doc);
    puts(s);
    free(s);
    cJSON_Delete(doc);
}

/* "kladder exec ARGV...", recorded with the run: the file by its absolute path, so the command
 * reruns from any folder. */
static char *command_line(int argc, char **argv, int file_at)
{
    char *abs = file_at > 0 ? realpath(argv[file_at], NULL) : NULL;
    size_t len = sizeof "kladder";
    for (int i = 0; i < argc; i++)
        len += strlen(i == file_at && abs ? abs : argv[i]) + 1;
    char *cmd = xmalloc(len);
    strcpy(cmd, "kladder");
    for (int i = 0; i < argc; i++) {
        strcat(cmd, " ");
        strcat(cmd, i == file_at && abs ? abs : argv[i]);
    }
    free(abs);
    return cmd;
}

/* Says why the run is not (wholly) recorded; returns 2, the exit status. */
static int not_recorded(const struct cdb *db, const char *what, const char *err)
{
    char *shown = text_sanitize(err, false);
    fprintf(stderr, "kladder exec: %s %s: %s\n", what, cdb_path(db), shown);
    free(shown);
    return 2;
}

/* Runs the program between the two steps of its record (engine/prog/prog_record.h), then
 * writes --junit. The database is closed while the program runs: the child it runs in never
 * holds kladder's connection, nor the mapping of its write-ahead log's index, where a stray
 * store of a program under test could land. Fills r and run->uuid ("" when the run is not
 * recorded); returns 0, or 2 after saying what was not recorded or written (the program runs
 * all the same), or -1 when the database does not open (it said why; nothing ran). */
static int run_recorded(const struct cli_global *g, const struct eng_prog_opts *o,
                        struct eng_prog_result *r, struct eng_prog_run_info *run,
                        const char *junit)
{
    char err[1024];
    int status = 0;
    struct cdb *db = cli_open_db_write(g, "exec");
    if (!db)
        return -1;
    cdb_now_iso(run->started);
    if (eng_prog_record_start(db, o, run, err, sizeof err) != 0)
        status = not_recorded(db, "the run is not recorded in", err);
    cdb_close(db);
    if (eng_prog_run(o, r) != 0 && r->verdict != ENG_PROG_ERROR)
        r->verdict = ENG_PROG_ERROR;
    cdb_now_iso(run->finished);
    if (run->uuid[0]) {
        if (!(db = cli_open_db_write(g, "exec"))) {
            status = 2;
        } else {
            if (eng_prog_record_end(db, o, r, run, err, sizeof err) != 0)
                status = not_recorded(db, "the end of the run (its checks and verdict) is not "
                                      "recorded in", err);
            cdb_close(db);
        }
        if (status)
            run->uuid[0] = '\0'; /* left running: it will read as interrupted */
    }
    if (junit && eng_prog_junit(junit, o, r, run, err, sizeof err) != 0) {
        char *shown = text_sanitize(err, false);
        fprintf(stderr, "kladder exec: %s\n", shown);
        free(shown);
        status = 2;
    }
    return status;
}

/* The index in argv of the FILE argument (before `--`), or -1. */
static int file_index(int ours, char **argv, const char *file)
{
    for (int i = ours - 1; i >= 1; i--)
        if (argv[i] == file)
            return i;
    return -1;
}

int cmd_exec(int argc, char **argv, const struct cli_global *g)
{
    /* everything after `--` belongs to the program */
    int ours = argc, rest = argc;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--")) {
            ours = i;
            rest = i + 1;
            break;
        }
    struct exec_opts eo = {.schedule = ENG_SCHED_PCT};
    bool json = false;
    const char *junit = NULL;
    int timeout_s = 60;
    long seed = 1;
    struct cli_list files, inc, def;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_LIST_DOC("-I", &inc, "DIR", "a folder the compiler searches for includes "
                                            "(repeatable)"),
        CLI_OPT_LIST_DOC("-D", &def, "NAME[=VALUE]", "a macro defined for the file "
                                                     "(repeatable)"),
        CLI_OPT_CALL_CHOICE_DOC("--schedule", &eo, take_schedule, CLI_WORD_FN(cli_word_schedule),
                         "the emulator's schedule for every launch (pct: races reported)"),
        CLI_OPT_LONG_DOC("--seed", &seed, 0, 2147483647, "N", "seed of the schedule (1)"),
        CLI_OPT_INT_DOC("--timeout", &timeout_s, 1, 86400, "S", "seconds the program may run, "
                                                                "compile excluded (60)"),
        CLI_OPT_FLAG_DOC("--json", &json, "write the verdict, findings and output as JSON"),
        CLI_OPT_STRING_DOC("--junit", &junit, "FILE", "also write JUnit XML"),
    };
    const struct cli_parser p = {.verb = "exec", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = {.kind = CLI_LIST, .dest = &files, .hi = 1}};
    int status = cli_parse(&p, ours, argv, NULL);
    if (status == CLI_PARSED) {
        char **flags = NULL;
        if (files.n != 1) {
            status = cli_usage_error("exec", "needs one FILE (a .cu or .hip program with its "
                                     "main())");
        } else if ((flags = build_flags(&inc, &def, &status)) != NULL) {
            const char *path = files.v[0], *dot = strrchr(path, '.');
            char **pargv = xcalloc((size_t)(argc - rest) + 2, sizeof *pargv);
            char *name = xstrdup(path);
            pargv[0] = name;
            for (int i = rest; i < argc; i++)
                pargv[1 + i - rest] = argv[i];
            struct eng_prog_opts o = {
                .path = path, .flags = (const char *const *)flags, .schedule = eo.schedule,
                .seed = (uint64_t)seed, .wave = dot && !strcmp(dot, ".hip") ? 64 : 32,
                .timeout_s = timeout_s, .argv = pargv, .argc = 1 + argc - rest};
            struct eng_prog_result r;
            char *cmd = command_line(argc, argv, file_index(ours, argv, path));
            struct eng_prog_run_info run = {.argv_text = cmd};
            int recorded = run_recorded(g, &o, &r, &run, junit);
            if (recorded < 0) {
                status = 2;
            } else {
                if (json)
                    print_json(&o, &r, run.uuid[0] ? run.uuid : NULL);
                else
                    print_text(&o, &r, run.uuid[0] ? run.uuid : NULL);
                status = recorded ? recorded : exit_of(&r);
                eng_prog_result_free(&r);
            }
            free(cmd);
            free(pargv);
            free(name);
        }
        free_flags(flags);
    }
    free(files.v);
    free(inc.v);
    free(def.v);
    return status;
}
