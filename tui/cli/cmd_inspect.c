/* kladder inspect FILE... [--json] [--target PROC] | --suite MANIFEST: what a GPU binary says
 * about itself. An AMD code object: its processor (ELF flags), and per kernel the wave size,
 * registers, LDS, scratch, kernel-argument bytes and largest workgroup from the
 * NT_AMDGPU_METADATA note, and the wave32 bit and float denormal modes of its kernel descriptor
 * (engine/codeobj/amdgpu_co.h). An offload bundle, a cubin or PTX: per kernel its wave size,
 * static shared memory, workgroup limit and parameters (engine/codeobj/gpu_binary.h). With
 * --suite, the manifest's "code_object" with each entry point found and checked against its
 * "args" and "launch" (engine/prebuilt.h), as a run checks it before launching. A hostile or
 * foreign file is an error naming the file and what is wrong; names from the file are printed
 * without control characters. */
#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/fileio.h"
#include "common/text.h"
#include "engine/api/faces.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

static void print_help(const struct cli_parser *p)
{
    static const char *const forms[] = {"FILE...|{--suite} %o", NULL};
    cli_print_usage(stdout, p, forms);
    printf("\n"
           "Reads GPU binaries without a GPU, ROCm or CUDA. An AMD code object (kladder compile\n"
           "--backend hip --out FILE, or clang's .hsaco): the processor, and per kernel\n"
           ".wavefront_size, .sgpr_count, .vgpr_count, .agpr_count, LDS\n"
           "(.group_segment_fixed_size), scratch (.private_segment_fixed_size),\n"
           ".kernarg_segment_size and .max_flat_workgroup_size from the metadata note, and the\n"
           "kernel descriptor's wave32 bit and float denormal modes. A clang offload bundle\n"
           "(its entry for --target, or its only one), a cubin or PTX: per kernel the wave size,\n"
           "static shared memory, workgroup limit and parameters (offset, size, kind).\n"
           "--suite: the manifest's \"code_object\", each entry point found by name and checked\n"
           "against \"args\" and \"launch\" as a run checks it. Exit 0 when every file reads\n"
           "(and with --suite every entry point checks), 1 when one does not, 2 on a usage error.\n"
           "\noptions:\n");
    cli_print_help(stdout, p);
}

static void add_int(cJSON *o, const char *k, int64_t v)
{
    if (v < 0)
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, (double)v);
}

static cJSON *co_json(const char *file, const struct amdgpu_co *co)
{
    cJSON *o = cJSON_CreateObject();
    char *clean = text_sanitize(file, false);
    cJSON_AddStringToObject(o, "file", clean);
    free(clean);
    cJSON_AddStringToObject(o, "processor", co->processor);
    cJSON_AddNumberToObject(o, "elf_mach", co->mach);
    clean = text_sanitize(co->metadata_target, false);
    cJSON_AddStringToObject(o, "metadata_target", clean);
    free(clean);
    cJSON *ks = cJSON_AddArrayToObject(o, "kernels");
    for (size_t i = 0; i < co->nkernels; i++) {
        const struct amdgpu_kernel *k = &co->kernels[i];
        cJSON *j = cJSON_CreateObject();
        clean = text_sanitize(k->name, false);
        cJSON_AddStringToObject(j, "name", clean);
        free(clean);
        add_int(j, "wavefront_size", k->wavefront_size);
        add_int(j, "sgpr_count", k->sgpr_count);
        add_int(j, "vgpr_count", k->vgpr_count);
        add_int(j, "agpr_count", k->agpr_count);
        add_int(j, "sgpr_spill_count", k->sgpr_spill_count);
        add_int(j, "vgpr_spill_count", k->vgpr_spill_count);
        add_int(j, "group_segment_fixed_size", k->group_segment_fixed_size);
        add_int(j, "private_segment_fixed_size", k->private_segment_fixed_size);
        add_int(j, "kernarg_segment_size", k->kernarg_segment_size);
        add_int(j, "max_flat_workgroup_size", k->max_flat_workgroup_size);
        add_int(j, "assumed_wave", k->assumed_wave);
        if (k->has_descriptor) {
            cJSON *kd = cJSON_AddObjectToObject(j, "descriptor");
            cJSON_AddBoolToObject(kd, "wave32", k->descriptor_wave32);
            cJSON_AddNumberToObject(kd, "float_denorm_mode_32", k->float_denorm_32);
            cJSON_AddNumberToObject(kd, "float_denorm_mode_16_64", k->float_denorm_16_64);
        } else {
            cJSON_AddNullToObject(j, "descriptor");
        }
        cJSON_AddItemToArray(ks, j);
    }
    return o;
}

static void na(char *out, size_t n, int64_t v)
{
    if (v < 0)
        snprintf(out, n, "n/a");
    else
        snprintf(out, n, "%lld", (long long)v);
}

static void co_text(const char *file, const struct amdgpu_co *co)
{
    char *f = text_sanitize(file, false), *t = text_sanitize(co->metadata_target, false);
    printf("%s: %s (ELF mach 0x%02x), metadata target %s\n", f, co->processor, co->mach,
           t[0] ? t : "n/a");
    free(f);
    free(t);
    printf("  %-28s %4s %5s %5s %5s %7s %7s %7s %6s %6s %7s\n", "kernel", "wave", "sgpr", "vgpr",
           "agpr", "lds", "scratch", "kernarg", "max_wg", "kd_w32", "assumes");
    for (size_t i = 0; i < co->nkernels; i++) {
        const struct amdgpu_kernel *k = &co->kernels[i];
        char c[9][24];
        int64_t v[9] = {k->wavefront_size, k->sgpr_count, k->vgpr_count, k->agpr_count,
                        k->group_segment_fixed_size, k->private_segment_fixed_size,
                        k->kernarg_segment_size, k->max_flat_workgroup_size, k->assumed_wave};
        for (int j = 0; j < 9; j++)
            na(c[j], sizeof c[j], v[j]);
        char *name = text_sanitize(k->name, false);
        printf("  %-28s %4s %5s %5s %5s %7s %7s %7s %6s %6s %7s\n", name, c[0], c[1], c[2], c[3],
               c[4], c[5], c[6], c[7],
               k->has_descriptor ? (k->descriptor_wave32 ? "yes" : "no") : "n/a", c[8]);
        free(name);
    }
}

static const char *kind_word(const struct gpu_param *p)
{
    return p->kind == GPU_PARAM_POINTER ? "pointer" : p->kind == GPU_PARAM_VALUE ? "value" : "";
}

static cJSON *bin_json(const char *file, const struct gpu_binary *b)
{
    cJSON *o = cJSON_CreateObject();
    char *clean = text_sanitize(file, false);
    cJSON_AddStringToObject(o, "file", clean);
    free(clean);
    cJSON_AddStringToObject(o, "format", gpu_binary_format_name(b->format));
    clean = text_sanitize(b->target, false);
    cJSON_AddStringToObject(o, "processor", clean);
    free(clean);
    cJSON *ks = cJSON_AddArrayToObject(o, "kernels");
    for (size_t i = 0; i < b->nkernels; i++) {
        const struct gpu_kernel_info *k = &b->kernels[i];
        cJSON *j = cJSON_CreateObject();
        clean = text_sanitize(k->name, false);
        cJSON_AddStringToObject(j, "name", clean);
        free(clean);
        add_int(j, "wavefront_size", k->wave);
        add_int(j, "shared_bytes", k->shared_bytes);
        add_int(j, "max_threads", k->max_threads);
        if (k->nparams < 0) {
            cJSON_AddNullToObject(j, "params");
        } else {
            cJSON *ps = cJSON_AddArrayToObject(j, "params");
            for (int p = 0; p < k->nparams; p++) {
                cJSON *q = cJSON_CreateObject();
                cJSON_AddNumberToObject(q, "offset", (double)k->params[p].offset);
                cJSON_AddNumberToObject(q, "size", (double)k->params[p].size);
                cJSON_AddStringToObject(q, "kind", kind_word(&k->params[p]));
                cJSON_AddItemToArray(ps, q);
            }
        }
        cJSON_AddItemToArray(ks, j);
    }
    return o;
}

static void bin_text(const char *file, const struct gpu_binary *b)
{
    char *f = text_sanitize(file, false), *t = text_sanitize(b->target, false);
    printf("%s: %s, target %s\n", f, gpu_binary_format_name(b->format), t[0] ? t : "n/a");
    free(f);
    free(t);
    printf("  %-28s %4s %7s %6s  %s\n", "kernel", "wave", "shared", "max_wg",
           "params (offset:size kind)");
    for (size_t i = 0; i < b->nkernels; i++) {
        const struct gpu_kernel_info *k = &b->kernels[i];
        char c[3][24];
        na(c[0], sizeof c[0], k->wave);
        na(c[1], sizeof c[1], k->shared_bytes);
        na(c[2], sizeof c[2], k->max_threads);
        char *name = text_sanitize(k->name, false);
        printf("  %-28s %4s %7s %6s ", name, c[0], c[1], c[2]);
        free(name);
        if (k->nparams < 0)
            printf(" n/a");
        for (int p = 0; p < k->nparams; p++)
            printf(" %lld:%lld%s%s", (long long)k->params[p].offset, (long long)k->params[p].size,
                   k->params[p].kind ? " " : "", kind_word(&k->params[p]));
        printf("\n");
    }
}

static void say_error(const char *file, const char *err)
{
    char *e = text_sanitize(err, false);
    if (file) {
        char *f = text_sanitize(file, false);
        fprintf(stderr, "kladder inspect: %s: %s\n", f, e);
        free(f);
    } else {
        fprintf(stderr, "kladder inspect: %s\n", e);
    }
    free(e);
}

/* A binary other than a plain AMD code object (a bundle, a cubin, PTX), in the generic form. */
static int inspect_other(const char *file, const char *data, size_t len, const char *target,
                         bool json, cJSON *all)
{
    struct gpu_binary b;
    char err[512];
    if (gpu_binary_read(data, len, target, &b, err, sizeof err) != 0) {
        say_error(file, err);
        return 1;
    }
    if (json)
        cJSON_AddItemToArray(all, bin_json(file, &b));
    else
        bin_text(file, &b);
    gpu_binary_free(&b);
    return 0;
}

/* --suite: the manifest's code object, its entry points found and checked. */
static int inspect_suite(const char *manifest, const char *target, bool json)
{
    char err[1024];
    struct eng_manifest *m = eng_manifest_load(manifest, NULL, err, sizeof err);
    if (!m) {
        say_error(NULL, err);
        return 1;
    }
    if (!m->code_object) {
        snprintf(err, sizeof err, "%s: no \"code_object\" to inspect", manifest);
        say_error(NULL, err);
        eng_manifest_free(m);
        return 1;
    }
    struct eng_prebuilt p;
    if (eng_prebuilt_open(m, m->code_object, target, &p, err, sizeof err) != 0) {
        say_error(NULL, err);
        eng_manifest_free(m);
        return 1;
    }
    const char *fields[3] = {"variants.fixed", "variants.buggy", "reference"};
    const char *entries[3] = {m->entry_fixed, m->entry_buggy, m->entry_reference};
    /* Every entry point is checked before anything is printed: a wrong manifest is one error. */
    const struct gpu_kernel_info *found[3] = {NULL, NULL, NULL};
    int status = 0;
    for (int i = 0; i < 3 && status == 0; i++)
        if (entries[i] && !(found[i] = eng_prebuilt_entry(&p, m, fields[i], entries[i], 0, err,
                                                          sizeof err))) {
            say_error(NULL, err);
            status = 1;
        }
    cJSON *o = bin_json(m->code_object, &p.bin), *ej = cJSON_AddObjectToObject(o, "entries");
    if (!json && status == 0)
        bin_text(m->code_object, &p.bin);
    for (int i = 0; i < 3 && status == 0; i++) {
        if (!found[i])
            continue;
        char *name = text_sanitize(found[i]->name, false);
        cJSON_AddStringToObject(ej, fields[i], name);
        if (!json)
            printf("%s \"%s\": kernel %s, its %d parameters match \"args\"\n", fields[i],
                   entries[i], name, found[i]->nparams < 0 ? (int)m->nargs : found[i]->nparams);
        free(name);
    }
    if (json && status == 0) {
        char *t = cJSON_Print(o);
        printf("%s\n", t);
        cJSON_free(t);
    }
    cJSON_Delete(o);
    eng_prebuilt_close(&p);
    eng_manifest_free(m);
    return status;
}

/* Reads every file and prints what it says, or why it cannot be read. Returns the exit status:
 * 0 every file read, 1 one did not. */
static int inspect_all(const char *const *files, size_t nfiles, const char *target, bool json)
{
    int status = 0;
    cJSON *all = cJSON_CreateArray();
    for (size_t i = 0; i < nfiles; i++) {
        char err[512];
        size_t len;
        char *data = file_read_all(files[i], &len, err, sizeof err);
        struct amdgpu_co co;
        if (data && len >= 64 && data[18] != (char)224 && gpu_binary_is(data, len)) {
            status |= inspect_other(files[i], data, len, target, json, all);
            free(data);
            continue;
        }
        if (!data || amdgpu_co_read(data, len, &co, err, sizeof err) != 0) {
            char *f = text_sanitize(files[i], false), *e = text_sanitize(err, false);
            if (data)
                fprintf(stderr, "kladder inspect: %s: %s\n", f, e);
            else
                fprintf(stderr, "kladder inspect: %s\n", e);
            free(f);
            free(e);
            free(data);
            status = 1;
            continue;
        }
        if (json)
            cJSON_AddItemToArray(all, co_json(files[i], &co));
        else
            co_text(files[i], &co);
        amdgpu_co_free(&co);
        free(data);
    }
    if (json) {
        char *t = cJSON_Print(all);
        printf("%s\n", t);
        cJSON_free(t);
    }
    cJSON_Delete(all);
    return status;
}

int cmd_inspect(int argc, char **argv, const struct cli_global *g)
{
    (void)g;
    bool json = false;
    const char *target = NULL, *suite = NULL;
    struct cli_list files;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_FLAG_DOC("--json", &json, "print what was read as JSON"),
        CLI_OPT_STRING_DOC("--target", &target, "PROC",
                           "the entry of a clang offload bundle to read (default: its only one)"),
        CLI_OPT_STRING_DOC("--suite", &suite, "MANIFEST",
                           "check the manifest's \"code_object\" against its \"args\" and "
                           "\"launch\""),
    };
    const struct cli_parser p = {.verb = "inspect", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_LIST(NULL, &files)};
    int status = cli_parse(&p, argc, argv, NULL);
    if (status == CLI_PARSED)
        status = suite && files.n ? cli_usage_error("inspect", "--suite reads its manifest's "
                                                    "code_object: give no FILE beside it")
                 : suite       ? inspect_suite(suite, target, json)
                 : files.n == 0 ? cli_usage_error("inspect", "needs at least one FILE")
                                : inspect_all(files.v, files.n, target, json);
    free(files.v);
    return status;
}
