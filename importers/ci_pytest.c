/* A pytest console log: its final summary line and the job's exit status line
 * (importers/ci_report.h). The summary is the last line of the form
 * "=+ N outcome, N outcome... in T =+" or "=+ no tests ran in T =+"; later lines win, so a log
 * that holds several runs counts its last. Outcomes that executed a test body are passed,
 * failed, error(s), xfailed and xpassed; skipped is counted apart; deselected and warnings are
 * not tests. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/text.h"
#include "common/xalloc.h"
#include "importers/ci_report.h"

struct summary {
    bool found;
    long run, skipped, failed;
};

/* Parses "N word" items separated by ", " up to " in ". False when the line is not a summary. */
static bool parse_summary(const char *s, const char *end, struct summary *out)
{
    if (s >= end || (*s != '=' && !isdigit((unsigned char)*s) && *s != 'n'))
        return false;
    while (s < end && *s == '=')
        s++;
    while (s < end && *s == ' ')
        s++;
    const char *stop = end;
    while (stop > s && (stop[-1] == '=' || stop[-1] == ' ' || stop[-1] == '\r'))
        stop--;
    if ((size_t)(stop - s) >= 12 && strncmp(s, "no tests ran", 12) == 0) {
        *out = (struct summary){.found = true};
        return true;
    }
    struct summary sm = {.found = true};
    bool any = false;
    while (s < stop) {
        if (!isdigit((unsigned char)*s))
            return false;
        char *after;
        long n = strtol(s, &after, 10);
        s = after;
        if (s >= stop || *s != ' ')
            return false;
        s++;
        const char *w = s;
        while (s < stop && isalpha((unsigned char)*s))
            s++;
        size_t wl = (size_t)(s - w);
#define IS(word) (wl == sizeof word - 1 && strncmp(w, word, wl) == 0)
        if (IS("passed") || IS("xfailed") || IS("xpassed"))
            sm.run += n;
        else if (IS("failed") || IS("error") || IS("errors"))
            sm.run += n, sm.failed += n;
        else if (IS("skipped"))
            sm.skipped += n;
        else if (!(IS("deselected") || IS("warning") || IS("warnings") || IS("rerun")))
            return false;
#undef IS
        any = true;
        if (s < stop && *s == ',') {
            s++;
            while (s < stop && *s == ' ')
                s++;
            continue;
        }
        if ((size_t)(stop - s) >= 4 && strncmp(s, " in ", 4) == 0)
            break;
        return false;
    }
    if (!any)
        return false;
    *out = sm;
    return true;
}

/* "exit status N", "exit code N" (any case, an optional ':' or '='), as CI runners and shell
 * wrappers print it; -1 when the line has none. */
static int parse_exit(const char *s, const char *end)
{
    for (const char *p = s; p + 9 <= end; p++) {
        if (strncasecmp(p, "exit ", 5) != 0)
            continue;
        const char *q = p + 5;
        if (end - q >= 6 && strncasecmp(q, "status", 6) == 0)
            q += 6;
        else if (end - q >= 4 && strncasecmp(q, "code", 4) == 0)
            q += 4;
        else
            continue;
        while (q < end && (*q == ' ' || *q == ':' || *q == '='))
            q++;
        if (q < end && isdigit((unsigned char)*q)) {
            long v = strtol(q, NULL, 10);
            return v > 255 ? 255 : (int)v;
        }
    }
    return -1;
}

int ci_pytest_parse(struct ci_report *r, const char *text, size_t len, char *err, size_t errlen)
{
    struct summary last = {0};
    const char *s = text, *end = text + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        /* CI runners prefix each line with a timestamp ("2026-08-31T09:12:41.2013001Z "):
         * the summary may start after the first word */
        const char *sp = memchr(s, ' ', (size_t)(le - s));
        struct summary sm;
        if (parse_summary(s, le, &sm) || (sp && parse_summary(sp + 1, le, &sm)))
            last = sm;
        int st = parse_exit(s, le);
        if (st >= 0)
            r->exit_status = st;
        s = nl ? nl + 1 : end;
    }
    if (!last.found && r->exit_status < 0) {
        snprintf(err, errlen,
                 "%s: expected a pytest summary line (\"=== 3 passed in 0.12s ===\") or an exit "
                 "status line (\"exit status 5\"), found neither",
                 r->path);
        return -1;
    }
    const char *base = strrchr(r->path, '/');
    char *name = text_sanitize(base ? base + 1 : r->path, false);
    ci_report_add(r, name, last.run + last.skipped, last.skipped, last.failed);
    free(name);
    return 0;
}
