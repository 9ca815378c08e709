/* Counting instruction classes in an AMD code object's disassembly, for rung 3's ISA checks
 * ("the FP8 tile must issue a WMMA", "no scratch_ instructions"). The disassembler is
 * $KLADDER_OBJDUMP, else llvm-objdump-22 on $PATH (Debian's llvm-22). */
#ifndef KL_ENGINE_AMD_DISASM_H
#define KL_ENGINE_AMD_DISASM_H

#include <stddef.h>

/* For kernel's code in the code object, counts[i] = how many instructions' mnemonics start with
 * prefixes[i]. 0, or -1 with the reason in err (no disassembler, or it failed). */
int amd_disasm_count(const void *code, size_t len, const char *kernel,
                     const char *const *prefixes, size_t n, size_t *counts, char *err,
                     size_t errlen);

#endif
