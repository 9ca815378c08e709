/* Code object targets (engine/codeobj/codeobj_target.h). The EF_AMDGPU_MACH values are LLVM's
 * (include/llvm/BinaryFormat/ELF.h). */
#include "engine/codeobj/codeobj_target.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EM_AMDGPU 224
#define EM_CUDA 190

static const struct {
    unsigned mach;
    const char *name;
} amd_mach[] = {
    {0x2c, "gfx900"},  {0x2f, "gfx906"},  {0x30, "gfx908"},  {0x3f, "gfx90a"},
    {0x40, "gfx940"},  {0x4b, "gfx941"},  {0x4c, "gfx942"},  {0x4f, "gfx950"},
    {0x36, "gfx1030"}, {0x41, "gfx1100"}, {0x46, "gfx1101"}, {0x47, "gfx1102"},
    {0x48, "gfx1200"}, {0x4e, "gfx1201"}, {0x49, "gfx1250"}, {0x5a, "gfx1251"},
};

static unsigned rd(const unsigned char *p, int n)
{
    unsigned v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

int eng_codeobj_target(const void *code, size_t len, char *out, size_t n)
{
    const unsigned char *d = code;
    if (n)
        out[0] = '\0';
    /* little-endian ELF64 only: every GPU code object is */
    if (!d || len < 64 || memcmp(d, "\x7f" "ELF", 4) != 0 || d[4] != 2 || d[5] != 1)
        return 1;
    unsigned machine = rd(d + 18, 2), flags = rd(d + 48, 4);
    if (machine == EM_AMDGPU) {
        for (size_t i = 0; i < sizeof amd_mach / sizeof *amd_mach; i++)
            if (amd_mach[i].mach == (flags & 0xffu)) {
                snprintf(out, n, "%s", amd_mach[i].name);
                return 0;
            }
        return 1;
    }
    if (machine == EM_CUDA) {
        unsigned sm = d[8] >= 8 ? (flags >> 8) & 0xffu : flags & 0xffu;
        if (sm < 10 || sm > 255)
            return 1;
        snprintf(out, n, "sm_%u", sm);
        return 0;
    }
    return 1;
}

bool eng_codeobj_runs_on(const char *built, const char *device)
{
    if (strncmp(built, "sm_", 3) == 0 && strncmp(device, "sm_", 3) == 0) {
        long b = strtol(built + 3, NULL, 10), v = strtol(device + 3, NULL, 10);
        return b / 10 == v / 10 && v % 10 >= b % 10;
    }
    return strcmp(built, device) == 0;
}
