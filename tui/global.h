/* The program's global options (kladder [--db FILE] [--data-dir DIR] [--color WHEN] ...), parsed
 * once by main and read by the verbs (tui/cli/), the interface and its views, and the theme. */
#ifndef KL_TUI_GLOBAL_H
#define KL_TUI_GLOBAL_H

enum cli_color { CLI_COLOR_AUTO, CLI_COLOR_NEVER, CLI_COLOR_ALWAYS };

struct cli_global {
    const char *argv0;     /* path of this binary, for spawning `kladder run` */
    const char *db_path;   /* --db, or NULL for the default database */
    const char *data_dir;  /* --data-dir: a folder with cases.json, gaps.json, rungs.json */
    enum cli_color color;  /* --color */
};

#endif
