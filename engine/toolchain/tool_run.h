/* Running an outside tool (a compiler, a disassembler) by argv, never through a shell, and
 * collecting what it prints. */
#ifndef KL_ENGINE_TOOL_RUN_H
#define KL_ENGINE_TOOL_RUN_H

#include <stdbool.h>
#include <stddef.h>

/* Runs argv (argv[0] a path), stdout and stderr together into out (up to outlen-1 bytes,
 * always NUL-terminated when outlen > 0; out may be NULL). Returns the exit status, 128+signal
 * when it was killed, or -1 with the reason in out when it could not run. */
int eng_tool_run(char *const argv[], char *out, size_t outlen);

/* eng_tool_run with the child's environment envp (NULL-terminated) instead of this process's. */
int eng_tool_run_env(char *const argv[], char *const envp[], char *out, size_t outlen);

/* The status eng_tool_run_limit returns for a tool stopped at its time limit. */
#define ENG_TOOL_TIMED_OUT (-2)

/* eng_tool_run_env, stopped (it and every process it started killed) once it has run limit_s
 * seconds (none when limit_s <= 0): ENG_TOOL_TIMED_OUT then, with a sentence saying so in out.
 * The tool runs in the caller's process group, so a caller whose group is killed (a scan's
 * worker past its time limit, a run's worker) takes its compiler with it. */
int eng_tool_run_limit(char *const argv[], char *const envp[], double limit_s, char *out,
                       size_t outlen);

/* Finds name (or a path containing '/') as an executable on $PATH; the path in out. PATH and
 * TMPDIR are read through eng_compile_getenv: these helpers run compilers. */
bool eng_tool_find(const char *name, char *out, size_t outlen);

/* A fresh private folder under $TMPDIR (or /tmp) named prefix-XXXXXX, malloc'd; NULL with the
 * reason in err. */
char *eng_tool_tmpdir(const char *prefix, char *err, size_t errlen);

#endif
