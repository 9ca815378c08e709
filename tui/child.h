/* Child processes of the interactive interface: `kladder run … --events 3`, `kladder pull`,
 * `kladder devices --json`. The interface never runs GPU work or network transfers in its own
 * process (a hung kernel cannot be cancelled in-process); it spawns its own binary and watches.
 *
 * A child gets its argv exactly (posix_spawn, never a shell), /dev/null as stdin, its stdout and
 * stderr on one pipe, and, when asked, a second pipe as its descriptor 3 (the events stream).
 * It runs in a process group of its own, so a ^C in the terminal does not reach it behind the
 * interface's back. Reads are non-blocking: tui_child_pump takes what is there, cuts it into
 * lines and hands them over, and reaps the child once it has exited and both pipes are drained.
 *
 * Cancelling sends SIGTERM (kladder run then stops its worker and records the run as
 * cancelled); a child still alive TUI_CHILD_GRACE_MS later gets SIGKILL on its whole group from
 * the next pump. Ownership: the caller owns the struct tui_child; tui_child_free stops a child
 * that is still running (SIGKILL) and reaps it, so nothing outlives the interface as a zombie. */
#ifndef KL_TUI_CHILD_H
#define KL_TUI_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define TUI_CHILD_GRACE_MS 3000
#define TUI_CHILD_LINE_MAX 65536 /* a longer line is cut here (the rest is dropped) */
#define TUI_CHILD_EVENTS_FD 3     /* the events pipe's number in the child */

enum tui_child_stream { TUI_CHILD_OUT, TUI_CHILD_EVENTS };

struct tui_child;

/* Spawns argv[0] (a path) with argv. events: give the child the events pipe as descriptor 3.
 * Returns the child, or NULL with err (the reason, for a person). */
struct tui_child *tui_child_spawn(const char *const *argv, bool events, char *err, size_t errlen);

/* Reads whatever is ready without blocking; calls on_line(ctx, stream, line) for every complete
 * line (without its newline; a final unterminated line is delivered at end of file). Reaps the
 * child when it has exited, and sends SIGKILL once the grace after a cancel has passed.
 * Returns true when something happened (a line, an exit), so the caller redraws. */
bool tui_child_pump(struct tui_child *c,
                    void (*on_line)(void *ctx, enum tui_child_stream s, const char *line),
                    void *ctx);

/* Descriptors to poll for reading (-1 for a closed one): out[0] output, out[1] events. */
void tui_child_fds(const struct tui_child *c, int out[2]);

/* Asks the child to stop: SIGTERM now, SIGKILL after the grace. Does nothing once it ended. */
void tui_child_cancel(struct tui_child *c);
bool tui_child_cancelled(const struct tui_child *c);

/* True once the child has been reaped and both pipes are drained. */
bool tui_child_done(const struct tui_child *c);
/* The exit status once done: 0..255, or 128 + signal number when a signal ended it. */
int tui_child_status(const struct tui_child *c);
pid_t tui_child_pid(const struct tui_child *c);
/* The last lines of output (stdout and stderr), for an error message; never NULL. */
const char *tui_child_tail(const struct tui_child *c);
/* Milliseconds since the spawn (monotonic clock). */
long tui_child_elapsed_ms(const struct tui_child *c);

/* Stops (SIGKILL to the group) a child still running, reaps it, closes and frees. NULL is fine. */
void tui_child_free(struct tui_child *c);

/* Waits up to timeout_ms until fd (the keyboard; -1 for none), one of the n children or one of
 * the nextra other descriptors (a background read's pipe) has something to read. Returns 1 when
 * fd is readable, 0 otherwise (children, others or timeout). */
int tui_child_wait(int fd, struct tui_child *const *children, size_t n, const int *extra,
                   size_t nextra, int timeout_ms);

#endif
