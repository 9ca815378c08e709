/* `kladder exec --junit FILE` (prog_record.h): the program and each finding as JUnit testcases,
 * so a CI system shows a finding as a failure even where the program printed PASS. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "engine/prog/prog_record.h"
#include "engine/report/report.h"

/* What the tests see of the program's output in its testcase. */
#define JUNIT_TAIL 4096

/* s from the program or the command line, sanitised (valid UTF-8, no control characters but
 * newlines) and escaped. */
static void put_clean(FILE *f, const char *s)
{
    char *t = text_sanitize(s ? s : "", true);
    eng_xml_escaped(f, t);
    free(t);
}

int eng_prog_junit(const char *path, const struct eng_prog_opts *o,
                   const struct eng_prog_result *r, const struct eng_prog_run_info *run,
                   char *err, size_t errlen)
{
    char *tmp = xasprintf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s", path);
        free(tmp);
        return -1;
    }
    const char *base = strrchr(o->path, '/') ? strrchr(o->path, '/') + 1 : o->path;
    bool error = r->verdict == ENG_PROG_ERROR, pass = r->verdict == ENG_PROG_PASS;
    size_t failures = r->nfindings + (!pass && !error);
    char host[256] = "unknown";
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "unknown");
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    fprintf(f, "  <testsuite name=\"kladder exec\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" "
               "skipped=\"0\" timestamp=\"", 1 + r->nfindings, failures, error);
    eng_xml_escaped(f, run->started);
    fprintf(f, "\" hostname=\"");
    eng_xml_escaped(f, host);
    fprintf(f, "\">\n    <testcase classname=\"exec.");
    put_clean(f, base);
    fprintf(f, "\" name=\"program\">\n");
    const char *verdict = eng_prog_verdict_name(r->verdict);
    if (error) {
        fprintf(f, "      <error message=\"error\">");
        put_clean(f, r->error);
        fprintf(f, "</error>\n");
    } else if (!pass) {
        fprintf(f, "      <failure type=\"%s\" message=\"%s: %zu finding%s\"/>\n", verdict,
                verdict, r->nfindings, r->nfindings == 1 ? "" : "s");
    }
    bool cut;
    char *tail = eng_prog_output_tail(r, JUNIT_TAIL, &cut);
    fprintf(f, "      <system-out>verdict: %s; run %s; ", verdict, run->uuid);
    put_clean(f, run->argv_text);
    fprintf(f, "%s\n", cut ? "\n(the output's last bytes)" : "");
    eng_xml_escaped(f, tail);
    fprintf(f, "</system-out>\n    </testcase>\n");
    free(tail);
    for (size_t i = 0; i < r->nfindings; i++) {
        fprintf(f, "    <testcase classname=\"exec.");
        put_clean(f, base);
        fprintf(f, "\" name=\"finding %zu: ", i + 1);
        put_clean(f, r->findings[i].kind);
        fprintf(f, "\">\n      <failure type=\"");
        put_clean(f, r->findings[i].kind);
        fprintf(f, "\" message=\"");
        /* the report's first line says what and where */
        const char *text = r->findings[i].text ? r->findings[i].text : "";
        size_t first = strcspn(text, "\n");
        char *line = xasprintf("%.*s", (int)first, text);
        put_clean(f, line);
        free(line);
        fprintf(f, "\">");
        put_clean(f, text);
        fprintf(f, "</failure>\n    </testcase>\n");
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s", path);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
