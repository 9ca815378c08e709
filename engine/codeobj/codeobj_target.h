/* The target a GPU code object was built for, from its ELF header, so that one built for another
 * processor is refused with both names instead of launched (a gfx942 object on a gfx90a traps
 * at its first instruction; a stale cache entry or a build-arch variable pointing elsewhere gets
 * there silently).
 *
 * AMD HSA code objects: EM_AMDGPU, the processor in e_flags' EF_AMDGPU_MACH byte. CUDA cubins:
 * EM_CUDA, the SM in e_flags (bits 8-15 from ELF ABI version 8, as NVRTC 13 writes them; bits
 * 0-7 before). Anything else (PTX text, an offload bundle, a host shared object, a processor
 * this table does not know) has no target here and is not refused. */
#ifndef KL_ENGINE_CODEOBJ_TARGET_H
#define KL_ENGINE_CODEOBJ_TARGET_H

#include <stdbool.h>
#include <stddef.h>

/* 0 with "gfx942" or "sm_90" in out; 1 when the object names no target this reader knows. */
int eng_codeobj_target(const void *code, size_t len, char *out, size_t n);

/* Whether an object built for `built` runs on a device whose target is `device`: AMD processors
 * must be equal; a cubin runs on the same SM major with a minor at least its own (sm_80 on
 * sm_86, not sm_86 on sm_80, not sm_80 on sm_90). */
bool eng_codeobj_runs_on(const char *built, const char *device);

#endif
