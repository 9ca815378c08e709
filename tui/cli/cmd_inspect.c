/* kladder inspect FILE... [--json]: what an AMD code object says about itself — its processor
 * (ELF flags), and per kernel the wave size, registers, LDS, scratch, kernel-argument bytes and
 * largest workgroup from the NT_AMDGPU_METADATA note, and the wave32 bit and float denormal
 * modes of its kernel descriptor (engine/codeobj/amdgpu_co.h). A hostile or foreign file is an error
 * naming the file and what is wrong; names from the file are printed without control
 * characters. */
#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/fileio.h"
#include "common/text.h"
#include "engine/codeobj/amdgpu_co.h"
#include "tui/cli/cli.h"
#include "tui/cli/opts.h"

static void print_help(void)
{
    printf("usage: kladder inspect FILE... [--json]\n\n"
           "Reads AMD code objects (kladder compile --backend hip --out FILE) without a GPU or\n"
           "ROCm: the processor, and per kernel .wavefront_size, .sgpr_count, .vgpr_count,\n"
           ".agpr_count, LDS (.group_segment_fixed_size), scratch (.private_segment_fixed_size),\n"
           ".kernarg_segment_size and .max_flat_workgroup_size from the metadata note, and the\n"
           "kernel descriptor's wave32 bit and float denormal modes. Exit 0 when every file\n"
           "reads, 1 when one does not, 2 on a usage error.\n");
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

/* Reads every file and prints what it says, or why it cannot be read. Returns the exit status:
 * 0 every file read, 1 one did not. */
static int inspect_all(const char *const *files, size_t nfiles, bool json)
{
    int status = 0;
    cJSON *all = cJSON_CreateArray();
    for (size_t i = 0; i < nfiles; i++) {
        char err[512];
        size_t len;
        char *data = file_read_all(files[i], &len, err, sizeof err);
        struct amdgpu_co co;
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
    struct cli_list files;
    const struct cli_opt opts[] = {
        CLI_OPT_HELP("--help", print_help),
        CLI_OPT_HELP("-h", print_help),
        CLI_OPT_FLAG("--json", &json),
    };
    const struct cli_parser p = {.verb = "inspect", .opts = opts, .nopts = CLI_COUNT(opts),
                                 .args = CLI_OPT_LIST(NULL, &files), .stray = CLI_STRAY_OPTION};
    int status = cli_parse(&p, argc, argv, NULL);
    if (status == CLI_PARSED)
        status = files.n == 0 ? cli_usage_error("inspect", "needs at least one FILE")
                              : inspect_all(files.v, files.n, json);
    free(files.v);
    return status;
}
