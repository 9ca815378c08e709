/* Background reads. A database read that can take longer than a keystroke (a comparison over
 * 100,000 checks) runs on a worker thread with a read-only connection of its own, so the
 * interface keeps answering keys and shows that the data is coming. The event loop watches
 * tui_bgread_fd(); once it is readable, tui_bgread_take() hands over the result.
 *
 * A read in flight can be abandoned at any time (tui_bgread_cancel): SQLite interrupts the
 * worker's statement, the thread is joined, and whatever it produced is freed. */
#ifndef KL_TUI_BGREAD_H
#define KL_TUI_BGREAD_H

#include <stddef.h>

struct cdb;
struct tui_bgread;

/* fn runs on the worker with its own connection and a copy of the arg_size bytes at arg; it
 * returns its result, or NULL with a message in err. free_result frees a result nobody takes.
 * Returns NULL (err set) when no worker can be started, e.g. for an in-memory database: the
 * caller then reads on its own connection. */
struct tui_bgread *tui_bgread_start(const char *db_path,
                                    void *(*fn)(struct cdb *db, void *arg, char *err,
                                                size_t errlen),
                                    const void *arg, size_t arg_size,
                                    void (*free_result)(void *result), char *err, size_t errlen);
/* Readable when the worker has finished. */
int tui_bgread_fd(const struct tui_bgread *r);
/* Joins the worker and returns its result (NULL: err has the worker's message); frees r. */
void *tui_bgread_take(struct tui_bgread *r, char *err, size_t errlen);
/* Stops the worker, frees its result and r. NULL is a no-op. */
void tui_bgread_cancel(struct tui_bgread *r);

#endif
