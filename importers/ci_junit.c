/* JUnit XML, streamed through expat (importers/ci_report.h states what is refused and why).
 *
 * Each <testcase> counts toward its innermost <testsuite>; every open suite also counts it, so
 * a suite's tests="N" can be checked against the testcases it holds, nested suites included.
 * A testcase counts as skipped when a <skipped> child appears, as failed on <failure> or
 * <error>. Counting is done at the end tag, when the children are known. */
#include <errno.h>
#include <expat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "importers/ci_report.h"

struct open_suite {
    char *name;
    long declared;        /* tests="N", or -1 when absent */
    long counted;
    unsigned long line;
};

struct junit {
    XML_Parser p;
    struct ci_report *r;
    int depth;
    struct open_suite suites[CI_XML_MAX_DEPTH];
    int nsuites;
    bool in_case, case_skipped, case_failed;
    char *err;
    size_t errlen;
    bool failed;          /* err holds the reason; the parser was stopped */
};

static void junit_fail(struct junit *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void junit_fail(struct junit *j, const char *fmt, ...)
{
    if (j->failed)
        return;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char *clean = text_sanitize(what, false);
    snprintf(j->err, j->errlen, "%s: line %lu: %s", j->r->path,
             (unsigned long)XML_GetCurrentLineNumber(j->p), clean);
    free(clean);
    j->failed = true;
    XML_StopParser(j->p, XML_FALSE);
}

static const char *attr(const XML_Char **atts, const char *name)
{
    for (size_t i = 0; atts[i]; i += 2)
        if (strcmp(atts[i], name) == 0)
            return atts[i + 1];
    return NULL;
}

/* A count attribute: absent (-1) or a whole number; anything else stops the parse. */
static long count_attr(struct junit *j, const char *elem, const XML_Char **atts, const char *name)
{
    const char *v = attr(atts, name);
    if (!v)
        return -1;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (end == v || *end || n < 0 || errno || v[0] == '+' || v[0] == ' ') {
        junit_fail(j, "<%s %s>: expected a whole number, got \"%.40s\"", elem, name, v);
        return -1;
    }
    return n;
}

static void on_start(void *ud, const XML_Char *el, const XML_Char **atts)
{
    struct junit *j = ud;
    if (j->failed)
        return;
    if (++j->depth > CI_XML_MAX_DEPTH) {
        junit_fail(j, "elements nested deeper than %d: expected a JUnit report", CI_XML_MAX_DEPTH);
        return;
    }
    if (j->depth == 1 && strcmp(el, "testsuites") && strcmp(el, "testsuite")) {
        junit_fail(j, "<%.40s>: expected <testsuites> or <testsuite> as the root element", el);
        return;
    }
    if (strcmp(el, "testsuite") == 0) {
        for (const char *k = "tests\0failures\0errors\0skipped\0disabled\0"; *k; k += strlen(k) + 1)
            count_attr(j, el, atts, k);
        struct open_suite *s = &j->suites[j->nsuites++];
        const char *name = attr(atts, "name");
        s->name = text_sanitize(name && *name ? name : "(unnamed suite)", false);
        s->declared = count_attr(j, el, atts, "tests");
        s->counted = 0;
        s->line = (unsigned long)XML_GetCurrentLineNumber(j->p);
        /* a suite with no testcase still shows in the report, with 0 */
        ci_report_add(j->r, s->name, 0, 0, 0);
    } else if (strcmp(el, "testsuites") == 0) {
        for (const char *k = "tests\0failures\0errors\0skipped\0disabled\0"; *k; k += strlen(k) + 1)
            count_attr(j, el, atts, k);
    } else if (strcmp(el, "testcase") == 0) {
        if (j->in_case) {
            junit_fail(j, "<testcase> inside a <testcase>: expected testcases only in suites");
            return;
        }
        j->in_case = true;
        j->case_skipped = j->case_failed = false;
    } else if (j->in_case && strcmp(el, "skipped") == 0) {
        j->case_skipped = true;
    } else if (j->in_case && (strcmp(el, "failure") == 0 || strcmp(el, "error") == 0)) {
        j->case_failed = true;
    }
}

static void on_end(void *ud, const XML_Char *el)
{
    struct junit *j = ud;
    if (j->failed)
        return;
    j->depth--;
    if (strcmp(el, "testcase") == 0 && j->in_case) {
        j->in_case = false;
        const char *leaf = j->nsuites ? j->suites[j->nsuites - 1].name : "(no suite)";
        ci_report_add(j->r, leaf, 1, j->case_skipped, j->case_failed && !j->case_skipped);
        for (int i = 0; i < j->nsuites; i++)
            j->suites[i].counted++;
    } else if (strcmp(el, "testsuite") == 0 && j->nsuites > 0) {
        struct open_suite *s = &j->suites[--j->nsuites];
        if (s->declared >= 0 && s->declared != s->counted) {
            junit_fail(j, "<testsuite name=\"%.80s\"> (line %lu): expected tests=\"%ld\", the "
                          "testcases it holds, got tests=\"%ld\"",
                       s->name, s->line, s->counted, s->declared);
        }
        free(s->name);
        s->name = NULL;
    }
}

/* Any DOCTYPE is refused: a test report needs none, and it is where entity bombs and external
 * entities live. */
static void on_doctype(void *ud, const XML_Char *name, const XML_Char *sysid,
                       const XML_Char *pubid, int has_internal_subset)
{
    (void)sysid, (void)pubid, (void)has_internal_subset;
    junit_fail(ud, "<!DOCTYPE %.40s>: expected no DOCTYPE (entity declarations are not accepted)",
               name);
}

static void on_entity(void *ud, const XML_Char *name, int is_param, const XML_Char *value,
                      int value_len, const XML_Char *base, const XML_Char *sysid,
                      const XML_Char *pubid, const XML_Char *notation)
{
    (void)is_param, (void)value, (void)value_len, (void)base, (void)sysid, (void)pubid,
        (void)notation;
    junit_fail(ud, "<!ENTITY %.40s>: expected no entity declarations", name);
}

int ci_junit_read(struct ci_report *r, FILE *f, char *err, size_t errlen)
{
    struct junit j = {.r = r, .err = err, .errlen = errlen};
    j.p = XML_ParserCreate("UTF-8");
    if (!j.p) {
        snprintf(err, errlen, "%s: out of memory", r->path);
        return -1;
    }
    XML_SetUserData(j.p, &j);
    XML_SetElementHandler(j.p, on_start, on_end);
    XML_SetStartDoctypeDeclHandler(j.p, on_doctype);
    XML_SetEntityDeclHandler(j.p, on_entity);
    XML_SetParamEntityParsing(j.p, XML_PARAM_ENTITY_PARSING_NEVER);
    size_t total = 0;
    char buf[65536];
    for (;;) {
        size_t n = fread(buf, 1, sizeof buf, f);
        total += n;
        if (total > CI_REPORT_MAX_BYTES) {
            snprintf(err, errlen, "%s: larger than %zu MiB: expected a test report", r->path,
                     CI_REPORT_MAX_BYTES >> 20);
            j.failed = true;
            break;
        }
        bool last = n < sizeof buf;
        if (last && ferror(f)) {
            snprintf(err, errlen, "%s: %s", r->path, strerror(errno));
            j.failed = true;
            break;
        }
        if (XML_Parse(j.p, buf, (int)n, last) == XML_STATUS_ERROR) {
            if (!j.failed)
                snprintf(err, errlen, "%s: line %lu: expected well-formed XML: %s", r->path,
                         (unsigned long)XML_GetCurrentLineNumber(j.p),
                         XML_ErrorString(XML_GetErrorCode(j.p)));
            j.failed = true;
            break;
        }
        if (last)
            break;
    }
    for (int i = 0; i < j.nsuites; i++)
        free(j.suites[i].name);
    XML_ParserFree(j.p);
    return j.failed ? -1 : 0;
}
