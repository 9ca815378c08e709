/* A recorded run's command line made into text for a shell: the report's "Reproduce" and rerun
 * script, `kladder results RUN`, the TUI's `Y`.
 *
 * The text recorded with a run is the command's words joined by spaces. A run made here recorded
 * it itself; a pulled run's is whatever its document says, and a document can say
 * `--rung 1 ; touch X $(id > Y)`. So nothing recorded is ever given back as it is: every word is
 * quoted for a POSIX shell where it needs it (`';'`, `'$(id'`), control characters are replaced
 * (a newline cannot end a line early), and a pulled run's command is given only as a comment that
 * names the host it came from: pasted into a shell, it runs nothing. */
#ifndef KL_TUI_CMDLINE_H
#define KL_TUI_CMDLINE_H

/* One word quoted for a POSIX shell: as it is when it holds only characters no shell treats
 * specially, else in single quotes (a quote inside as '\''). malloc'd. */
char *tui_shell_quote(const char *word);

/* The command as this host gives it to be run again. origin NULL (a run made here): the quoted
 * command. A pulled run: "# pulled from ORIGIN, not verified here: " and the quoted command, one
 * line, a comment. "" when nothing was recorded. malloc'd. */
char *tui_cmdline_copy(const char *argv_text, const char *origin);

#endif
