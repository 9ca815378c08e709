/* Rung 7's flags from a suite are data: the ones that change the generated code and touch no
 * file pass (-O, -D, -U, -std=, -f/-m options), every other option is refused, and so is an
 * -f/-m option that names a file, folder, list, map or plugin, writes a file, or passes words
 * on to another tool (engine/rungs/rung7_flags.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "engine/rungs/rung7_flags.h"

static void test_ordinary_flags_pass(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "-O", "-O0", "-O1", "-O2", "-O3", "-Os", "-Oz", "-Og", "-Ofast", "-DX", "-DKNOBS_TILE=16",
        "-D_X1=a,b:c", "-DNAME=\"quoted\"", "-UNDEBUG", "-std=c++17", "-std=gnu++20", "-std=c11",
        "-ffast-math", "-fno-fast-math", "-funroll-loops", "-ffp-contract=fast", "-fPIC",
        "-fno-strict-aliasing", "-fvisibility=hidden", "-fgpu-rdc", "-fno-gpu-rdc",
        "-fhip-new-launch-api", "-fcuda-flush-denormals-to-zero", "-ffunction-sections",
        "-fdenormal-fp-math=preserve-sign,preserve-sign", "-fsanitize=address",
        "-fopenmp", "-fno-exceptions", "-fwrapv", "-fno-builtin", "-mwavefrontsize64", "-mcumode",
        "-munsafe-fp-atomics", "-mcode-object-version=5", "-march=gfx90a:sramecc+:xnack-",
        "-mcpu=gfx942", "-mtune=generic", "-mavx2", "-msse4.2", "-mno-tgsplit", NULL};
    char why[160];
    for (size_t i = 0; ok[i]; i++) {
        bool allowed = eng_rung7_flag_allowed(ok[i], why, sizeof why);
        if (!allowed)
            fprintf(stderr, "refused %s: %s\n", ok[i], why);
        assert_true(allowed);
    }
}

static void test_options_outside_the_list_are_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "-include/etc/passwd", "-include", "-imacros/etc/passwd", "-isystem/usr", "-I/etc",
        "-I.", "-L/tmp", "-lm", "-o/tmp/x", "-MD", "-MMD", "-MF/tmp/deps", "-MF", "-MT", "-M",
        "@/etc/passwd", "@args", "-Xclang", "-Wl,-rpath,/tmp", "-Wa,-o,/tmp/x", "-Wp,-MD,/tmp/x",
        "--", "--include=/etc/passwd", "--output=/tmp/x", "-save-temps", "-save-temps=obj", "-c",
        "-E", "-S", "-x", "-v", "-g", "-w", "-Werror", "-B/tmp", "--sysroot=/tmp", "-nostdinc",
        "-specs=/tmp/x", "-D", "-D1X", "-D-X", "-DX-Y", "-U", "-UX=1", "-O4", "-Ox", "-O/tmp",
        "-std=", "-std=c++17/../x", "-", "-f", "-m", "-stdlib=libc++", NULL};
    char why[160];
    for (size_t i = 0; bad[i]; i++) {
        bool allowed = eng_rung7_flag_allowed(bad[i], why, sizeof why);
        if (allowed)
            fprintf(stderr, "accepted %s\n", bad[i]);
        assert_false(allowed);
        assert_true(why[0] != '\0');
    }
}

static void test_f_and_m_options_that_touch_files_are_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "-fprofile-generate", "-fprofile-generate=/tmp/p", "-fprofile-use", "-fprofile-use=x",
        "-fprofile-instr-generate", "-fprofile-instr-use=a.profdata", "-fprofile-arcs",
        "-fprofile-list=f.txt", "-fprofile-dir=x", "-fno-profile-generate", "-fcs-profile-generate",
        "-fauto-profile=x.afdo", "-ftest-coverage", "-fcoverage-mapping",
        "-fdebug-prefix-map=/a=/b", "-ffile-prefix-map=a=b", "-fmacro-prefix-map=a=b",
        "-fdebug-compilation-dir=x", "-fplugin=/tmp/p.so", "-fplugin=p.so", "-fplugin-arg-x-y=z",
        "-fpass-plugin=p.so", "-fsanitize-blacklist=x", "-fsanitize-ignorelist=x",
        "-fsanitize-coverage-allowlist=x", "-fsanitize-system-ignorelist=x",
        "-fsanitize-memory-ignorelist=x", "-fxray-attr-list=x", "-fxray-always-instrument=x",
        "-fdump-tree-all", "-fdump-rtl-expand", "-fsave-optimization-record",
        "-foptimization-record-file=x", "-ftime-trace", "-ftime-trace=x", "-fcrash-diagnostics-dir=x",
        "-fstack-usage", "-fcallgraph-info", "-fopt-info", "-fopt-info-all=x", "-fmodules",
        "-fmodules-cache-path=x", "-fmodule-file=x", "-fmodule-map-file=x", "-fimplicit-module-maps",
        "-fprebuilt-module-path=x", "-fbuild-session-file=x", "-fuse-ld=/tmp/ld", "-fuse-ld=lld",
        "-fapinotes", "-fcuda-include-gpubinary", "-fembed-offload-object=x", "-fthinlto-index=x",
        "-fbasic-block-sections=list=x", "-fdiagnostics-format=sarif-file",
        "-fdiagnostics-add-output=sarif:file=x", "-frewrite-map-file=x", "-fproc-stat-report",
        "-finstrument-functions", "-mllvm", "-mlink-builtin-bitcode", "-mlink-bitcode-file",
        "-fsanitize=./x", "-fvisibility=/etc/passwd", "-fexec-charset=~x", "-fx=@f", "-fa$b",
        "-fx=", "-march=native/../x", NULL};
    char why[160];
    for (size_t i = 0; bad[i]; i++) {
        bool allowed = eng_rung7_flag_allowed(bad[i], why, sizeof why);
        if (allowed)
            fprintf(stderr, "accepted %s\n", bad[i]);
        assert_false(allowed);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ordinary_flags_pass),
        cmocka_unit_test(test_options_outside_the_list_are_refused),
        cmocka_unit_test(test_f_and_m_options_that_touch_files_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
