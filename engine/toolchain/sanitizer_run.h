/* The vendor's sanitizer beside a rung (`kladder run --sanitizer racecheck|synccheck|memcheck`):
 * finding NVIDIA's compute-sanitizer, the command line a worker is started under, and reading
 * the report it left into hazards. The runner (engine/runner.c) starts one worker per check
 * under the tool, each with a log of its own, so every hazard in a log belongs to the check
 * that worker ran (docs/engine.md, "The vendor sanitizer"). */
#ifndef KL_ENGINE_SANITIZER_RUN_H
#define KL_ENGINE_SANITIZER_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/toolchain/sanitizer_log.h"

/* Kernels run 10-100x slower under the tool: a check's limit (from ready) is multiplied by this
 * so that the watchdog does not call a slow kernel a hang. */
#define ENG_SAN_TIMEOUT_FACTOR 20.0

/* Hazards kept per check; the tool itself prints at most ENG_SAN_PRINT_LIMIT. */
#define ENG_SAN_PRINT_LIMIT 100

/* Whether tool is one of racecheck, synccheck, memcheck. */
bool eng_san_tool_known(const char *tool);

/* The compute-sanitizer to run: $KLADDER_COMPUTE_SANITIZER when set (it must be executable),
 * else compute-sanitizer on PATH, else under /usr/local/cuda*(/)bin. 0 with the path in out, or
 * -1 with a message naming the tool and everywhere it looked. */
int eng_san_find(char *out, size_t outlen, char *err, size_t errlen);

/* The words a worker is started under (NULL-terminated, malloc'd, free with eng_san_argv_free):
 * path --tool TOOL --log-file LOG --print-limit N; the worker's own argv follows them. */
char **eng_san_argv(const char *path, const char *tool, const char *log);
void eng_san_argv_free(char **argv);

/* Reads the report at log into hazards (malloc'd, *n of them; free *out). finished: the worker
 * ended by itself, so the tool must have written its summary line. -1 with a message naming the
 * log when it is missing, empty, not text, lacks the tool's banner or (finished) its summary,
 * or has a hazard without its location lines. */
int eng_san_read_log(const char *log, const char *tool, bool finished,
                     struct eng_san_hazard **out, size_t *n, char *err, size_t errlen);

#endif
