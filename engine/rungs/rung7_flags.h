/* Which compiler flags a suite may declare for rung 7 ("flags", "configs"). A suite is data: its
 * flags reach the compiler of whoever runs it, so they are held to options that change the code
 * the compiler makes and nothing else. Accepted: -O<level> (-O, -O0..-O3, -Os, -Oz, -Og,
 * -Ofast), -D<name>[=value] and -U<name> (name an identifier), -std=<standard>, and -f/-m
 * options that read or write no file. Refused: every other option (-include FILE, -I, -L, -o,
 * -M*, @FILE, -Xclang, -Wl,..., -mllvm, --...), -f/-m options that name a file, folder, list or
 * plugin or make the compiler write one (-fprofile-*, -fcoverage-*, -fplugin=, -fdump-*,
 * -fdebug-prefix-map=, -fsanitize-ignorelist=, -ftime-trace, -fmodules*, -fuse-ld=, ...), and
 * an -f/-m value that looks like a path (a '/', '\', '~', '@' or a leading '.'). */
#ifndef KL_ENGINE_RUNGS_RUNG7_FLAGS_H
#define KL_ENGINE_RUNGS_RUNG7_FLAGS_H

#include <stdbool.h>
#include <stddef.h>

/* True when flag (printable ASCII, checked before) may be passed; else false with why ("it
 * names or writes a file", ...), a phrase to follow the flag in an error. */
bool eng_rung7_flag_allowed(const char *flag, char *why, size_t whylen);

/* What eng_rung7_flag_allowed accepts, for error messages. */
#define ENG_RUNG7_FLAGS_ACCEPTED                                                                 \
    "-O<level>, -D<name>[=value], -U<name>, -std=<standard>, or an -f/-m option that reads or "  \
    "writes no file"

#endif
