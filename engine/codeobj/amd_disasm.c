#include "engine/codeobj/amd_disasm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/xalloc.h"
#include "engine/toolchain/tool_run.h"

/* The disassembly of one kernel is a few thousand lines at most; a bigger one is cut here and
 * counted as far as it goes, which can only under-count a forbidden class. */
#define DISASM_MAX (8u << 20)

int amd_disasm_count(const void *code, size_t len, const char *kernel,
                     const char *const *prefixes, size_t n, size_t *counts, char *err,
                     size_t errlen)
{
    memset(counts, 0, n * sizeof *counts);
    const char *env = getenv("KLADDER_OBJDUMP");
    const char *name = env && *env ? env : "llvm-objdump-22";
    char tool[PATH_MAX];
    if (!eng_tool_find(name, tool, sizeof tool)) {
        snprintf(err, errlen, "%s not found (install llvm-22, or set KLADDER_OBJDUMP)", name);
        return -1;
    }
    char terr[256];
    char *dir = eng_tool_tmpdir("kladder-disasm", terr, sizeof terr);
    if (!dir) {
        snprintf(err, errlen, "%s", terr);
        return -1;
    }
    char *file = xasprintf("%s/code.co", dir);
    char *sym = xasprintf("--disassemble-symbols=%s", kernel);
    char *out = xmalloc(DISASM_MAX);
    int rc = -1;
    if (file_write_atomic(file, code, len, terr, sizeof terr) != 0) {
        snprintf(err, errlen, "%s", terr);
        goto done;
    }
    static char opt_d[] = "-d";
    char *argv[] = {tool, opt_d, sym, file, NULL};
    int st = eng_tool_run(argv, out, DISASM_MAX);
    if (st != 0) {
        snprintf(err, errlen, "%s exited with status %d: %.300s", tool, st, out);
        goto done;
    }
    /* Instruction lines start with a tab, then the mnemonic. */
    for (char *line = out; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (line[0] == '\t') {
            const char *m = line + 1;
            size_t mlen = strcspn(m, " \t");
            for (size_t i = 0; i < n; i++) {
                size_t pl = strlen(prefixes[i]);
                if (pl <= mlen && strncmp(m, prefixes[i], pl) == 0)
                    counts[i]++;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    rc = 0;
done:
    unlink(file);
    rmdir(dir);
    free(file);
    free(sym);
    free(out);
    free(dir);
    return rc;
}
