/* What a worker keeps from one check to the next (DESIGN: Workers): device contexts, compiled
 * code and the loaded utility kernels, so that a run of many checks pays for driver start-up,
 * context creation and compiling once per worker instead of once per check.
 *
 * What is kept is machinery, never a check's own state: every check loads its suite's module
 * afresh (a module's globals start as the code object says), allocates its own buffers (an op on
 * the host's side may get one a check before it gave back, every byte written again), and on
 * a backend whose context carries per-check state (an emulated backend's schedule and its
 * random state) opens a context of its own, so that a verdict never depends on the checks that
 * ran before it in the same worker. One thread uses the session. */
#ifndef KL_ENGINE_SESSION_H
#define KL_ENGINE_SESSION_H

#include <stddef.h>

#include "engine/backend/backend.h"

/* A context on device for one check; give it back with eng_session_put. 0 or -1 with a
 * message. */
int eng_session_get(const struct eng_backend *B, int device, const struct eng_open_opts *o,
                    struct eng_ctx **ctx, char *err, size_t errlen);
void eng_session_put(const struct eng_backend *B, struct eng_ctx *ctx);

/* The code object of a kernel file for target with the compile flags (NULL-terminated, or
 * NULL for none), compiled through the compile cache (engine/cache/cache.h) once per worker and
 * flags. *code is owned by the session and valid until eng_session_end. 0, or -1 with the
 * compiler's log (or the reason) in log. */
int eng_session_code(const struct eng_backend *B, const char *target, const char *file,
                     const char *source, const char *const *flags, const void **code,
                     size_t *len, char *log, size_t loglen);

/* kernels/util.kl loaded in ctx (a context from eng_session_get), owned by the session:
 * unloaded when ctx is given back for good, except on an emulated backend, whose modules no
 * context owns: there it waits for the next context (never shared by two open ones) until
 * eng_session_end. 0 or -1 with a message. */
int eng_session_util(const struct eng_backend *B, struct eng_ctx *ctx, const char *target,
                     struct eng_module **mod, char *err, size_t errlen);

/* Kernel name (a string that outlives the session) of the utility module loaded in ctx by
 * eng_session_util, looked up once per context. 0 or -1 with a message. */
int eng_session_util_kernel(const struct eng_backend *B, struct eng_ctx *ctx, const char *name,
                            struct eng_kernel **k, char *err, size_t errlen);

/* Device buffers for the checks of an op on the host's side (engine/api): a buffer given back
 * with eng_session_buf_put is kept (up to a bound; none on an emulated backend) and handed out
 * again to the next request of the same context and exact size, instead of freeing and
 * allocating it again. The check repaints every byte (guards, data, padding) as it does a fresh
 * buffer. eng_session_buf_trim gives back those of ctx (NULL: all); a context given back for good
 * takes its own along. 0, or -1 with a message. */
int eng_session_buf_get(const struct eng_backend *B, struct eng_ctx *ctx, uint64_t bytes,
                        eng_dptr *p, char *err, size_t errlen);
void eng_session_buf_put(const struct eng_backend *B, struct eng_ctx *ctx, eng_dptr p,
                         uint64_t bytes);
void eng_session_buf_trim(const struct eng_ctx *ctx);

/* Host buffers of the same kind, for the inputs a check makes on the host: one given back is
 * handed out again for the same size (its old bytes still in it). eng_session_host_trim frees
 * those kept; the inputs being made ahead (engine/session/input_prefetch.h) hold theirs until
 * eng_prefetch_drop gives them back, so a run's end calls eng_prefetch_trim (both, in order). */
void *eng_session_host_get(size_t bytes);
void eng_session_host_put(void *p, size_t bytes);
void eng_session_host_trim(void);

/* The device's facts (B->device_info), asked of a GPU once per process: a GPU's do not change,
 * and asking costs a dozen driver calls and a read of the driver's version file. An emulated
 * backend is asked every time. */
int eng_session_device_info(const struct eng_backend *B, int device, struct eng_device_info *info,
                            char *err, size_t errlen);
void eng_session_devices_forget(void);

/* Unloads and closes everything (the worker's last act, so that leak checkers see a clean
 * exit). */
void eng_session_end(void);

#endif
