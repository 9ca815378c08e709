/* XDG base directories for kladder's files. Each function returns a malloc'd path (caller
 * frees); none creates anything. $HOME missing falls back to the current folder. */
#ifndef KL_COMMON_PATHS_H
#define KL_COMMON_PATHS_H

/* $XDG_DATA_HOME/kladder (default ~/.local/share/kladder): the database lives here. */
char *paths_data_dir(void);
/* $XDG_CACHE_HOME/kladder (default ~/.cache/kladder): compiled code objects. */
char *paths_cache_dir(void);
/* $XDG_CONFIG_HOME/kladder (default ~/.config/kladder): user theme files. */
char *paths_config_dir(void);
/* $XDG_STATE_HOME/kladder (default ~/.local/state/kladder): what the interface remembers
 * between sessions (recent suite files) and the reports it writes for a terminal that cannot
 * take them on its clipboard. */
char *paths_state_dir(void);
/* paths_data_dir()/kladder.db */
char *paths_default_db(void);

#endif
