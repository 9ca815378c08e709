/* kladder compile --backend B --target T [--flag OPT]... [--out FILE] FILE...
 *
 * Compiles kernel sources exactly as a run would (kernels/kl.h prepended, through the compile
 * cache) for a target that need not be present: hipRTC, clang and NVRTC need no GPU. It is how
 * CI proves every kernel builds for gfx90a (wave64), gfx1030 (wave32), gfx1250, gfx950, gfx942
 * (clang) and sm_90, and how a kernel author checks a new file. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/embed.h"
#include "common/fileio.h"
#include "common/xalloc.h"
#include "common/text.h"
#include "engine/api/faces.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"{--backend} {--target} %o FILE...", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Compiles each kernel source with kernels/kl.h prepended, as `kladder run` does, for\n"
           "TARGET (gfx90a, gfx1030, gfx1250, gfx950, gfx942, sm_90, cpu-wave32, ...); no GPU is\n"
           "needed. hip uses hipRTC, or clang-22 for a target hipRTC lacks (KLADDER_HIP_COMPILER=\n"
           "clang|hiprtc forces one). Results are cached like a run's compiles.\n"
           "A FILE that does not exist on disk is looked up among the embedded\n"
           "kernels (kernels/NAME.kl). A FILE ending in .json is a suite manifest: its source is\n"
           "compiled as a run compiles it (a plain .cu or .hip source prepared, its template\n"
           "instances instantiated) and, on a GPU backend, each entry point is named with the\n"
           "symbol it has in the code object. A plain .cu, .hip, .cuh or .cpp FILE is compiled\n"
           "whole as such a suite's source is (its host code too), with -I and -D as a build\n"
           "line gives them; every file its preprocessor reaches must be beside it, in an -I\n"
           "folder, kladder's or the compiler's system headers. Exit 0 when all compile, 1 when any fails, 2 on a\n"
           "setup error.\n\n"
           "options:\n");
    cli_print_help(stdout, p);
}

static char *read_kernel(const char *path, char *err, size_t errlen)
{
    char *text = file_read_all(path, NULL, err, errlen);
    if (text && !eng_plain_is(path)) {
        /* a dialect file's local includes, put in place from its own folder as a suite's are:
         * the compiler runs on a copy elsewhere and must not look one up there */
        char *dir = xstrdup(path), *slash = strrchr(dir, '/');
        const char *base = slash ? slash + 1 : path;
        if (slash)
            *slash = '\0';
        char *whole = eng_source_includes(slash ? dir : ".", base, text, err, errlen);
        free(dir);
        free(text);
        return whole;
    }
    if (text)
        return text;
    const struct embed_file *e = embed_find(path);
    if (!e) {
        char name[512];
        const char *base = strrchr(path, '/');
        snprintf(name, sizeof name, "kernels/%s", base ? base + 1 : path);
        e = embed_find(name);
    }
    return e ? xstrdup((const char *)e->data) : NULL;
}

static bool is_manifest(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && strcmp(path + n - 5, ".json") == 0;
}

/* The build line of the command: -I folders and -D macros, added to a suite's own. */
struct build_line {
    const struct cli_list *include_dirs, *defines;
};

static void add_build_line(struct eng_manifest *m, const struct build_line *bl)
{
    size_t ni = bl->include_dirs->n, nd = bl->defines->n;
    m->include_dirs = xrealloc(m->include_dirs, (m->ninclude_dirs + ni + 1) * sizeof(char *));
    m->include_roots = xrealloc(m->include_roots, (m->ninclude_dirs + ni + 1) * sizeof(char *));
    for (size_t i = 0; i < ni; i++) {
        char *d = xstrdup(bl->include_dirs->v[i]);
        size_t n = strlen(d);
        while (n > 1 && d[n - 1] == '/')
            d[--n] = '\0';
        m->include_dirs[m->ninclude_dirs] = d;
        m->include_roots[m->ninclude_dirs++] = xstrdup(d);
    }
    m->defines = xrealloc(m->defines, (m->ndefines + nd + 1) * sizeof(char *));
    for (size_t i = 0; i < nd; i++)
        m->defines[m->ndefines++] = xstrdup(bl->defines->v[i]);
}

/* A plain .cu/.hip/.cuh/.cpp file given alone: a suite of that one source with no entry point
 * named, prepared as a run prepares one (its includes read inside its folder). */
static struct eng_manifest *plain_file_suite(const char *path)
{
    struct eng_manifest *m = xcalloc(1, sizeof *m);
    m->path = xstrdup(path);
    const char *slash = strrchr(path, '/');
    m->dir = slash ? xasprintf("%.*s", (int)(slash - path), path) : xstrdup(".");
    m->source = xstrdup(slash ? slash + 1 : path);
    m->name = xstrdup(m->source);
    return m;
}

/* A suite's source as a run compiles it, with the flags that instantiate its entries (*names,
 * NULL when none); NULL with the reason in err. */
static char *suite_source(const struct eng_backend *b, const char *path, const char *const *flags,
                          const struct build_line *bl, struct eng_manifest **m, char ***names,
                          char *err, size_t errlen)
{
    *names = NULL;
    if (eng_plain_is(path)) {
        if (access(path, F_OK) != 0) {
            snprintf(err, errlen, "%s: no such file", path);
            return NULL;
        }
        *m = plain_file_suite(path);
    } else if (!(*m = eng_manifest_load(path, NULL, err, errlen))) {
        return NULL;
    }
    add_build_line(*m, bl);
    char *src = eng_suite_source(*m, b->caps.emulated, err, errlen);
    if (src)
        *names = eng_plain_name_flags(*m, b->caps.emulated, flags);
    return src;
}

/* Each entry point of a plain source and its symbol in a GPU code object. */
static int print_entries(const struct eng_manifest *m, const void *code, size_t len)
{
    const char *entries[3] = {m->entry_fixed, m->entry_buggy, m->entry_reference};
    const char *roles[3] = {"fixed", "buggy", "reference"};
    int status = 0;
    for (int i = 0; i < 3; i++) {
        char sym[512], why[512];
        if (!entries[i])
            continue;
        if (eng_plain_mangled(code, len, entries[i], sym, sizeof sym, why, sizeof why) == 0) {
            printf("  %s %s = %s\n", roles[i], entries[i], sym);
        } else {
            printf("  %s %s: %s\n", roles[i], entries[i], why);
            status = 1;
        }
    }
    return status;
}

/* KL_ASSUME_WAVE checked where the wave size is known at compile time: in an AMD code object.
 * A note, not a failure: a reproducer's buggy variant contradicts its target on purpose. */
static void note_wave_assumptions(const void *code, size_t len)
{
    struct amdgpu_co co;
    char err[256];
    if (amdgpu_co_read(code, len, &co, err, sizeof err) != 0)
        return;
    for (size_t k = 0; k < co.nkernels; k++) {
        const struct amdgpu_kernel *kn = &co.kernels[k];
        if (kn->assumed_wave > 0 && kn->assumed_wave != kn->wavefront_size) {
            char *name = text_sanitize(kn->name, false);
            printf("  note: kernel %s assumes wave %d (KL_ASSUME_WAVE), the %s code object runs "
                   "wave %lld\n", name, kn->assumed_wave, co.processor,
                   (long long)kn->wavefront_size);
            free(name);
        }
    }
    amdgpu_co_free(&co);
}

/* Compiles every file for target with b; --out keeps the last one's code object. Returns the
 * exit status: 0 all compiled, 1 one failed, 2 a setup error. */
static int compile_all(const struct eng_backend *b, const char *target, const char *const *flags,
                       const struct build_line *bl, const char *const *files, size_t nfiles,
                       const char *out)
{
    char why[2048];
    /* A backend with an offline compiler (hip: clang) builds without its runtime. */
    if (b->load(why, sizeof why) != 0) {
        if (!(b->compiler_for && b->compiler_for(target))) {
            fprintf(stderr, "kladder compile: the %s backend cannot load: %s\n", b->name, why);
            return 2;
        }
        fprintf(stderr, "kladder compile: the %s runtime did not load (%s); compiling for %s "
                "offline\n", b->name, why, target);
    }
    const struct embed_file *header = embed_find("kernels/kl.h");
    if (!header) {
        fprintf(stderr, "kladder compile: kernels/kl.h is not embedded in this build\n");
        return 2;
    }
    int status = 0;
    size_t loglen = 1 << 16;
    char *log = malloc(loglen);
    for (size_t f = 0; f < nfiles && log; f++) {
        char err[512], **names = NULL;
        struct eng_manifest *m = NULL;
        char *body = is_manifest(files[f]) || eng_plain_is(files[f])
                         ? suite_source(b, files[f], flags, bl, &m, &names, err, sizeof err)
                         : read_kernel(files[f], err, sizeof err);
        if (!body) {
            fprintf(stderr, "kladder compile: %s\n", err);
            status = status ? status : 2;
            eng_manifest_free(m);
            continue;
        }
        /* Through the cache, joined exactly as a run joins it (the engine's own functions). */
        void *code = NULL;
        size_t len = 0;
        bool hit = false;
        int rc = eng_compile_cached(b, target, m ? m->source : files[f],
                                    (const char *)header->data, body,
                                    names ? (const char *const *)names : flags, &code, &len, &hit,
                                    log, loglen);
        free(body);
        for (size_t i = 0; names && names[i]; i++)
            free(names[i]);
        free(names);
        if (rc != 0) {
            printf("FAIL %s %s %s\n%s\n", b->name, target, files[f], log);
            status = 1;
        } else {
            const char *id = b->compiler_for ? b->compiler_for(target) : b->compiler_id();
            printf("ok %s %s %s (%zu bytes, %s%s)\n", b->name, target, files[f], len,
                   id ? id : "?", hit ? ", cached" : "");
            note_wave_assumptions(code, len);
            if (m && !b->caps.emulated && eng_plain_is(m->source) && print_entries(m, code, len))
                status = 1;
            if (out && f + 1 == nfiles && file_write_atomic(out, code, len, err, sizeof err)) {
                fprintf(stderr, "kladder compile: %s\n", err);
                status = 2;
            }
        }
        free(code);
        eng_manifest_free(m);
    }
    free(log);
    return status;
}

int cmd_compile(int argc, char **argv, const struct cli_global *g)
{
    (void)g;
    const char *backend = NULL, *target = NULL, *out = NULL;
    struct cli_list flags, files, incs, defs;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_STRING_CHOICE_DOC("--backend", &backend, CLI_WORD_FN(cli_word_backend),
                                  "the compiler to use"),
        CLI_OPT_STRING_DOC("--target", &target, "TARGET",
                           "gfx90a, gfx1030, gfx1250, gfx950, gfx942, sm_90, cpu-wave32, ..."),
        CLI_OPT_LIST_DOC("--flag", &flags, "OPTION", "one extra compiler option (repeatable)"),
        CLI_OPT_STRING_DOC("--out", &out, "FILE", "write the code object of the last FILE"),
        CLI_OPT_LIST_DOC("-I", &incs, "DIR", "look a plain source's includes up in DIR too, "
                         "as a build line's -I (repeatable)"),
        CLI_OPT_LIST_DOC("-D", &defs, "NAME[=VALUE]", "define a macro for a plain source, as "
                         "-D (repeatable)"),
    };
    const struct cli_parser p = {.verb = "compile", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_LIST(NULL, &files)};
    int status = cli_parse(&p, argc, argv, NULL);
    const struct build_line bl = {&incs, &defs};
    for (size_t i = 0; status == CLI_PARSED && i < defs.n; i++) {
        size_t k = 0;
        while (defs.v[i][k] == '_' || isalnum((unsigned char)defs.v[i][k]))
            k++;
        if (k == 0 || isdigit((unsigned char)defs.v[i][0]) ||
            (defs.v[i][k] && defs.v[i][k] != '=') || strchr(defs.v[i], '\n'))
            status = cli_usage_error("compile", "-D expects NAME or NAME=VALUE");
    }
    if (status == CLI_PARSED) {
        const struct eng_backend *b = backend ? eng_backend_find(backend) : NULL;
        if (!b) { /* not given: an unknown one the parser refused */
            const struct cli_opt named = {.choices = CLI_WORD_FN(cli_word_backend)};
            char words[128];
            cli_choice_list(&named, NULL, words, sizeof words);
            status = cli_usage_error("compile", "needs --backend (%s)", words);
        } else if (!target || files.n == 0) {
            status = cli_usage_error("compile", "needs --target and at least one FILE");
        } else {
            status = compile_all(b, target, flags.v, &bl, files.v, files.n, out);
        }
    }
    free(incs.v);
    free(defs.v);
    free(flags.v);
    free(files.v);
    return status;
}
