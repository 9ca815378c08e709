/* The engine as kladder's own command-line verbs (tui/cli/) see it: every engine header a verb
 * may use, listed in one place. A verb includes this and nothing else of the engine
 * (tests/unitsh/architecture.sh fails on a tui/cli/ file that includes an engine header past
 * it), so what the faces ask of the engine is read here, and a verb that needs more adds the
 * header here, where the next reader sees it, instead of reaching into a room on its own.
 * Language bindings and outside callers use kladder.h beside it, the C API of libkladder. */
#ifndef KL_ENGINE_API_FACES_H
#define KL_ENGINE_API_FACES_H

/* Runs: planning, the worker, the watchdog, reporters, the rungs' table (run, exec, compare,
 * results, fleet). */
#include "engine/check.h"
#include "engine/exec/worker.h"
#include "engine/manifest.h"
#include "engine/prebuilt.h"
#include "engine/report/report.h"
#include "engine/rung.h"
#include "engine/runner.h"
#include "engine/watchdog/watchdog.h"

/* Devices, backends and the machine (devices, run, scan, compile, pin). */
#include "engine/backend/backend.h"
#include "engine/backend/devices.h"
#include "engine/machine/pin.h"

/* Compiling and reading code objects (compile, inspect, scan). */
#include "engine/cache/cache.h"
#include "engine/codeobj/amdgpu_co.h"
#include "engine/codeobj/gpu_binary.h"
#include "engine/codeobj/plain_entry.h"
#include "engine/codeobj/plain_name.h"
#include "engine/compile/plain_source.h"
#include "engine/compile/scan_unit.h"

/* Outside tools and programs (run --sanitizer, fleet, exec, run --e2e). */
#include "engine/rungs/rung8_e2e_check.h"
#include "engine/rungs/rung8_e2e_cmd.h"
#include "engine/prog/prog.h"
#include "engine/prog/prog_record.h"
#include "engine/toolchain/sanitizer_run.h"
#include "engine/toolchain/source_includes.h"
#include "engine/toolchain/tool_run.h"

#endif
