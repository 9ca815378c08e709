/* Allocation that cannot fail (it dies cleanly instead) and die() itself.
 * die() runs the cleanup hook first — the TUI registers one that restores the terminal — so a
 * fatal message is never printed into a curses screen. */
#ifndef KL_COMMON_XALLOC_H
#define KL_COMMON_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* NULL stays NULL. */
char *xstrdup_or_null(const char *s);
/* printf into a fresh malloc'd string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Registers the one function die() calls before it prints (NULL removes it). */
void die_set_cleanup(void (*fn)(void));

_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
