/* What a compiler reads, decided by the compiler's own preprocessor.
 *
 * Before the compile proper, the same compiler runs with the same options as a preprocessor
 * only (-E, its output to a file of ours, -v for its search folders), under the compile's time
 * limit. Every file it enters (a line marker with flag 1 in its output: the files the
 * preprocessor really reached with the translation unit's own macros, never the text of an
 * inactive #if branch) must lie, links followed, under one of the given folders (the compile's
 * private folder, kladder's headers) or the compiler's own search folders (the system and
 * toolkit headers). Anything else is refused naming the file and the line that included it,
 * and nothing the preprocessor printed is shown: a file outside (/etc/passwd reached by a
 * directive some text scan did not see) never reaches a message. A preprocessor that does not
 * finish in time (an include of a FIFO) is stopped, and the compile refused. */
#ifndef KL_ENGINE_PREPROC_CONFINE_H
#define KL_ENGINE_PREPROC_CONFINE_H

#include <stddef.h>

/* Runs argv (a compiler, its options, "-E" and "-o" out_i already in it; "-v" is added) with
 * environment envp and time limit limit_s, then judges out_i (removed afterwards). roots: a
 * NULL-terminated list of folders besides the compiler's own. 0 when every file entered is
 * inside (a preprocessor that failed otherwise, a missing header, is left to the compile
 * proper, which fails the same way and says so), -1 with "FILE:LINE: ..." or the time limit in
 * err. */
int eng_preproc_confine(char *const argv[], char *const envp[], double limit_s, const char *out_i,
                        const char *const *roots, char *err, size_t errlen);

/* The same judgement over a preprocessor's output text (line markers) and a -v log naming its
 * search folders; for tests and for callers that ran the preprocessor themselves. */
int eng_preproc_judge(const char *pre, const char *vlog, const char *const *roots, char *err,
                      size_t errlen);

#endif
