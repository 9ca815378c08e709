/* One program's life through a run-time compiler (engine/backend/gpu_rtc.h), against a fake compiler
 * that records its calls: options in order, the compiler's log then the failing call on an
 * error, an empty log said as nothing, a log buffer that is absent or small, and the program
 * destroyed exactly once on every path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend/gpu_rtc.h"

enum { RTC_FAIL = 6 };

static struct {
    char calls[512];
    const char *fail;    /* the entry that fails, or NULL */
    const char *log;     /* what the compiler says */
    int log_size_extra;  /* added to strlen(log): 1 counts the NUL, 0 leaves it out */
    size_t code_size;
    int programs;        /* created and not destroyed */
} R;

static char program[] = "P";

static void record(const char *what)
{
    size_t used = strlen(R.calls);
    snprintf(R.calls + used, sizeof R.calls - used, "%s%s", used ? ", " : "", what);
}

static int result_of(const char *entry)
{
    return R.fail && strcmp(R.fail, entry) == 0 ? RTC_FAIL : 0;
}

static int fake_create(void **prog, const char *source, const char *name, int nheaders,
                       const char *const *headers, const char *const *include_names)
{
    char line[128];
    snprintf(line, sizeof line, "create %s %s %d %s %s", source, name, nheaders,
             headers ? "set" : "null", include_names ? "set" : "null");
    record(line);
    if (result_of("create"))
        return RTC_FAIL;
    *prog = program;
    R.programs++;
    return 0;
}

static int fake_compile(void *prog, int nopts, const char *const *opts)
{
    char line[256];
    int used = snprintf(line, sizeof line, "compile %s", (const char *)prog);
    for (int i = 0; i < nopts; i++)
        used += snprintf(line + used, sizeof line - (size_t)used, " %s", opts[i]);
    record(line);
    return result_of("compile");
}

static int fake_log_size(void *prog, size_t *bytes)
{
    (void)prog;
    record("log_size");
    *bytes = strlen(R.log) + (size_t)R.log_size_extra;
    return result_of("log_size");
}

/* Writes the log and its NUL, as both compilers do, whatever size it announced. */
static int fake_log(void *prog, char *buf)
{
    (void)prog;
    record("log");
    memcpy(buf, R.log, strlen(R.log) + 1);
    return 0;
}

static int fake_code_size(void *prog, size_t *bytes)
{
    (void)prog;
    record("code_size");
    *bytes = R.code_size;
    return result_of("code_size");
}

static int fake_code(void *prog, char *buf)
{
    (void)prog;
    record("code");
    memset(buf, 'c', R.code_size);
    return result_of("code");
}

static int fake_destroy(void **prog)
{
    record("destroy");
    assert_ptr_equal(*prog, program);
    R.programs--;
    *prog = NULL;
    return 0;
}

static const char *fake_error_string(int result)
{
    return result == RTC_FAIL ? "FAKE_COMPILATION" : NULL;
}

static const struct gpu_rtc_api fake = {
    .result_type = "fakeResult",
    .code_kind = "blob",
    .create = fake_create,
    .compile = fake_compile,
    .log_size = fake_log_size,
    .log = fake_log,
    .code_size = fake_code_size,
    .code = fake_code,
    .destroy = fake_destroy,
    .error_string = fake_error_string,
    .call = {.create = "fakeCreate", .compile = "fakeCompile", .code_size = "fakeCodeSize",
             .code = "fakeCode"},
};

static int setup(void **state)
{
    (void)state;
    memset(&R, 0, sizeof R);
    R.log = "";
    R.log_size_extra = 1;
    R.code_size = 4;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    assert_int_equal(R.programs, 0);
    return 0;
}

static const char *const pre[] = {"--arch=gfx0", "-O3", NULL};

static void compiles_with_options_in_order(void **state)
{
    (void)state;
    const char *const flags[] = {"-DX=1", NULL};
    void *code = NULL;
    size_t len = 0;
    char log[64] = "stale";
    assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", "k.kl", pre, flags, &code, &len, log,
                                     sizeof log),
                     0);
    assert_int_equal(len, 4);
    assert_memory_equal(code, "cccc", 4);
    assert_string_equal(log, "");
    assert_string_equal(R.calls, "create SRC k.kl 0 null null, compile P --arch=gfx0 -O3 -DX=1, "
                                 "code_size, code, destroy");
    free(code);
}

static void a_compile_error_gives_the_log_then_the_call(void **state)
{
    (void)state;
    R.fail = "compile";
    R.log = "k.kl:3: error: not_declared_anywhere";
    void *code = (void *)&R;
    size_t len = 9;
    char log[256];
    assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", NULL, pre, NULL, &code, &len, log,
                                     sizeof log),
                     -1);
    assert_null(code);
    assert_int_equal(len, 0);
    assert_string_equal(log, "k.kl:3: error: not_declared_anywhere\n"
                             "fakeCompile(gfx0) failed: FAKE_COMPILATION (6)");
    assert_string_equal(R.calls, "create SRC kernel.kl 0 null null, compile P --arch=gfx0 -O3, "
                                 "log_size, log, destroy");
}

static void an_empty_log_is_nothing(void **state)
{
    (void)state;
    R.fail = "compile";
    void *code;
    size_t len;
    char log[256];
    /* NVRTC counts the NUL (size 1), so does hipRTC; a size of 0 means the same. */
    for (int extra = 1; extra >= 0; extra--) {
        R.log_size_extra = extra;
        R.calls[0] = '\0';
        assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", NULL, pre, NULL, &code, &len, log,
                                         sizeof log),
                         -1);
        assert_string_equal(log, "fakeCompile(gfx0) failed: FAKE_COMPILATION (6)");
        assert_string_equal(R.calls, "create SRC kernel.kl 0 null null, compile P --arch=gfx0 -O3, "
                                     "log_size, destroy");
    }
}

static void a_log_size_without_its_nul_stays_in_bounds(void **state)
{
    (void)state;
    R.fail = "compile";
    R.log = "0123456789";
    R.log_size_extra = 0; /* the compiler then writes one byte past what it announced */
    void *code;
    size_t len;
    char log[256];
    assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", NULL, pre, NULL, &code, &len, log,
                                     sizeof log),
                     -1);
    assert_string_equal(log, "0123456789\nfakeCompile(gfx0) failed: FAKE_COMPILATION (6)");
}

static void no_log_buffer_or_a_small_one(void **state)
{
    (void)state;
    R.fail = "compile";
    R.log = "a long compiler log";
    void *code;
    size_t len;
    assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", NULL, pre, NULL, &code, &len, NULL, 0),
                     -1);
    R.fail = "compile";
    char log[8];
    assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", NULL, pre, NULL, &code, &len, log,
                                     sizeof log),
                     -1);
    assert_string_equal(log, "a long ");
    assert_int_equal(gpu_rtc_copy_log(&fake, program, NULL, 0), 0);
}

static void failing_steps_name_their_call(void **state)
{
    (void)state;
    void *code;
    size_t len;
    char log[256];
    R.fail = "create";
    assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", NULL, pre, NULL, &code, &len, log,
                                     sizeof log),
                     -1);
    assert_string_equal(log, "fakeCreate failed: FAKE_COMPILATION (fakeResult 6)");
    assert_string_equal(R.calls, "create SRC kernel.kl 0 null null");

    R.fail = "code_size";
    assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", NULL, pre, NULL, &code, &len, log,
                                     sizeof log),
                     -1);
    assert_string_equal(log, "fakeCodeSize failed: FAKE_COMPILATION (fakeResult 6)");

    R.fail = "code";
    assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", NULL, pre, NULL, &code, &len, log,
                                     sizeof log),
                     -1);
    assert_null(code);
    assert_string_equal(log, "fakeCode failed: FAKE_COMPILATION (fakeResult 6)");

    R.fail = NULL;
    R.code_size = 0;
    assert_int_equal(gpu_rtc_compile(&fake, "gfx0", "SRC", NULL, pre, NULL, &code, &len, log,
                                     sizeof log),
                     -1);
    assert_string_equal(log, "fakeCodeSize: empty blob for gfx0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(compiles_with_options_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(a_compile_error_gives_the_log_then_the_call, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(an_empty_log_is_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(a_log_size_without_its_nul_stays_in_bounds, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(no_log_buffer_or_a_small_one, setup, teardown),
        cmocka_unit_test_setup_teardown(failing_steps_name_their_call, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
