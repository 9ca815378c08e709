/* "Did you mean": the known names nearest a mistyped one, for messages that would otherwise
 * list every name there is. */
#ifndef KL_COMMON_SUGGEST_H
#define KL_COMMON_SUGGEST_H

#include <stddef.h>

/* Up to max names of names[0..n) close to word, nearest first (ties in their given order):
 * within an edit distance of a third of the longer word (at least 2), or holding word whole
 * (a typed part, "4812" for "aiter-4812", as near as the letters it leaves out). Returns how
 * many, in out (pointers into names). */
size_t suggest_nearest(const char *word, const char *const *names, size_t n, const char **out,
                       size_t max);

#endif
