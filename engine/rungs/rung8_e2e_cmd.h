/* Running a user's evaluation command for rung 8 (--e2e) and capturing what it prints.
 *
 * The command line is split into argv here, without a shell: words are separated by blanks,
 * '...' quotes literally, "..." quotes with \" \\ \$ \` escapes, a backslash outside quotes
 * escapes the next character; nothing is expanded. With shell, it runs as /bin/sh -c TEXT
 * instead. The command's stdin is /dev/null (the worker's stdin is its job pipe), stdout and
 * stderr go to one capture. It runs in the caller's process group, so the watchdog that kills
 * the worker's group stops it too: a command that hangs becomes the check's hang. */
#ifndef KL_ENGINE_RUNG8_E2E_CMD_H
#define KL_ENGINE_RUNG8_E2E_CMD_H

#include <stdbool.h>
#include <stddef.h>

/* Splits text into a NULL-terminated malloc'd argv (free with eng_e2e_argv_free), or NULL with
 * a message (an unclosed quote, an empty command). */
char **eng_e2e_split(const char *text, char *err, size_t errlen);
void eng_e2e_argv_free(char **argv);

/* What the command printed: the first and the last bytes when it printed more than the
 * capture keeps (the middle is dropped, and said so). */
struct eng_e2e_output {
    char *text;      /* NUL-terminated, malloc'd; raw bytes (escape them before showing) */
    size_t len;
    size_t dropped;  /* bytes left out of the middle */
};

/* Runs the command to its end. Returns its exit status, 128+signal when a signal ended it, or
 * -1 with the reason in err when it could not start. out is filled in every case but -1.
 * log (may be NULL) gets every line as it arrives, control characters escaped, flushed each
 * time, so that what a command printed before it hung survives the worker being killed. */
struct eng_e2e_log;
int eng_e2e_exec(const char *text, bool shell, struct eng_e2e_log *log,
                 struct eng_e2e_output *out, char *err, size_t errlen);

/* The streaming log: opened (created, truncated) with a header line naming the command, closed
 * with a line giving the exit status. NULL from open with the reason in err. */
struct eng_e2e_log *eng_e2e_log_open(const char *path, const char *header, char *err,
                                     size_t errlen);
void eng_e2e_log_close(struct eng_e2e_log *log, int status);

/* The last `lines` lines of a log file written by eng_e2e_log (already escaped), joined by sep;
 * malloc'd, or NULL when it cannot be read. */
char *eng_e2e_log_tail(const char *path, int lines, size_t max_bytes, const char *sep);
void eng_e2e_output_free(struct eng_e2e_output *o);

/* The last `lines` lines of o (at most max_bytes of it), control characters escaped (\x1b...),
 * the lines joined by sep ("\n" for a file, " | " for a one-line message): malloc'd. */
char *eng_e2e_tail(const struct eng_e2e_output *o, int lines, size_t max_bytes, const char *sep);

#endif
