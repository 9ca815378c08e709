/* Why a file did not compile, read from its first error: kladder's own message about an include,
 * or the first error line of g++ (cpu), clang (hip) or nvcc (cuda). Only the first error is
 * read: the ones after it are often its consequences. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "engine/compile/scan_unit.h"

static const char *const cause_names[ENG_SCAN_NCAUSES] = {
    [ENG_SCAN_OK] = "ok",
    [ENG_SCAN_MISSING_API] = "missing-api",
    [ENG_SCAN_UNSUPPORTED_API] = "unsupported-api",
    [ENG_SCAN_MISSING_HEADER] = "missing-header",
    [ENG_SCAN_COMPILE_ERROR] = "compile-error",
    [ENG_SCAN_TIME_LIMIT] = "time-limit",
    [ENG_SCAN_NO_KERNEL] = "no-kernel",
    [ENG_SCAN_NOT_LAUNCHABLE] = "not-launchable",
    [ENG_SCAN_UNREADABLE] = "unreadable",
};

const char *eng_scan_state_name(enum eng_scan_state s)
{
    static const char *const names[ENG_SCAN_NSTATES] = {
        [ENG_SCAN_LAUNCHABLE] = "launchable", [ENG_SCAN_NO_INSTANCE] = "no-instance",
        [ENG_SCAN_NOT_IN_OBJECT] = "not-in-object", [ENG_SCAN_INACTIVE] = "inactive"};
    return (unsigned)s < ENG_SCAN_NSTATES ? names[s] : "not-in-object";
}

const char *eng_scan_cause_name(enum eng_scan_cause c)
{
    return (unsigned)c < ENG_SCAN_NCAUSES ? cause_names[c] : "?";
}

int eng_scan_cause_parse(const char *name)
{
    for (int c = 0; c < ENG_SCAN_NCAUSES; c++)
        if (name && !strcmp(name, cause_names[c]))
            return c;
    return -1;
}

/* The quotes compilers put around names: ASCII ones, and g++'s ‘ ’ in a UTF-8 locale. */
static size_t open_quote(const char *s)
{
    if (*s == '\'' || *s == '"' || *s == '`')
        return 1;
    if (!strncmp(s, "\xe2\x80\x98", 3) || !strncmp(s, "\xe2\x80\x9c", 3))
        return 3;
    return 0;
}

static size_t close_quote(const char *s)
{
    if (*s == '\'' || *s == '"' || *s == '`')
        return 1;
    if (!strncmp(s, "\xe2\x80\x99", 3) || !strncmp(s, "\xe2\x80\x9d", 3))
        return 3;
    return 0;
}

/* The k-th (from 0) quoted text of msg, malloc'd, or NULL. */
static char *quoted(const char *msg, int k)
{
    for (const char *s = msg; *s;) {
        size_t q = open_quote(s);
        if (!q) {
            s++;
            continue;
        }
        const char *b = s + q, *e = b;
        while (*e && !close_quote(e))
            e++;
        if (!*e)
            return NULL;
        if (k-- == 0)
            return xasprintf("%.*s", (int)(e - b), b);
        s = e + close_quote(e);
    }
    return NULL;
}

/* A called function's name: "atomicAdd(__nv_bfloat162*, float)" -> "atomicAdd". */
static void cut_call(char *name)
{
    char *paren = name ? strchr(name, '(') : NULL;
    if (paren && paren != name)
        *paren = '\0';
}

/* The first line of log that reports an error, its length in *n; NULL when none does. */
static const char *error_line(const char *log, size_t *n)
{
    static const char *const marks[] = {": error:", ": fatal error:", ": catastrophic error:",
                                        "): error:", "error:", NULL};
    for (int m = 0; marks[m]; m++)
        for (const char *line = log; line && *line;) {
            const char *nl = strchr(line, '\n');
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            const char *hit = strstr(line, marks[m]);
            if (hit && hit < line + len) {
                *n = len;
                return line;
            }
            line = nl ? nl + 1 : NULL;
        }
    return NULL;
}

/* "file.cu:12:5: error: ..." -> "file.cu:12"; "file.cu(12): error: ..." -> "file.cu:12";
 * NULL when the line names no place. */
static char *error_place(const char *line, size_t n)
{
    const char *err = NULL;
    for (const char *s = line; s + 6 <= line + n; s++)
        if (!strncmp(s, "error", 5) && (s == line || s[-1] == ' ' || s[-1] == ':')) {
            err = s;
            break;
        }
    if (!err)
        return NULL;
    const char *e = err;
    while (e > line && (e[-1] == ' ' || e[-1] == ':'))
        e--;
    /* the words before "error" that are not the place: "fatal", "catastrophic" */
    while (e > line && isalpha((unsigned char)e[-1]))
        e--;
    while (e > line && (e[-1] == ' ' || e[-1] == ':'))
        e--;
    if (e == line)
        return NULL;
    char *place = xasprintf("%.*s", (int)(e - line), line);
    size_t len = strlen(place);
    if (place[len - 1] == ')') { /* nvcc: file(12) */
        char *open = strrchr(place, '(');
        if (open) {
            *open = ':';
            place[len - 1] = '\0';
        }
        return place;
    }
    /* file:line:column -> file:line */
    char *last = strrchr(place, ':');
    if (last && last[1] && strspn(last + 1, "0123456789") == strlen(last + 1)) {
        char *before = last;
        while (before > place && isdigit((unsigned char)before[-1]))
            before--;
        if (before > place && before[-1] == ':' && before < last)
            *last = '\0';
    }
    return place;
}

/* What the compiler's message says is missing, by its wording. */
static void classify_message(const char *msg, struct eng_scan_result *r)
{
    static const char *const api_words[] = {
        "was not declared in this scope", "has not been declared", "does not name a type",
        "use of undeclared identifier", "unknown type name", "is undefined",
        "no matching function for call to", "is not a namespace", "no template named",
        "not a class, namespace, or enumeration", "was not declared", NULL};
    if (strstr(msg, "not supported on the cpu backend") || strstr(msg, "is not supported on")) {
        r->cause = ENG_SCAN_UNSUPPORTED_API;
        r->what = quoted(msg, 0);
        cut_call(r->what);
        return;
    }
    /* the #error a plain source's include is turned into where neither kladder nor the host
     * compiler has the header, or a local one is not beside it (engine/compile/plain_source.h):
     * #error "#include <cub/cub.cuh>: neither kladder ..." or "#include \"x.h\": no such file
     * beside ..." */
    const char *inc = strstr(msg, "#include ");
    if (inc && (strstr(inc, "nor the host compiler has") || strstr(inc, "no such file beside"))) {
        const char *name = inc + strlen("#include ");
        bool angle = *name == '<';
        if (!angle && name[0] == '\\' && name[1] == '"')
            name++; /* the quote escaped inside the #error's own string */
        const char *end = angle ? strchr(name + 1, '>') : strchr(name + 1, '"');
        if (end && end > name + 1) {
            size_t len = (size_t)(end - name - 1);
            if (!angle && len && name[len] == '\\')
                len--; /* the closing quote's escape */
            r->cause = ENG_SCAN_MISSING_HEADER;
            r->what = xasprintf("%.*s", (int)len, name + 1);
            return;
        }
    }
    if (strstr(msg, "No such file or directory") || strstr(msg, "file not found") ||
        strstr(msg, "cannot open source file")) {
        char *name = quoted(msg, 0);
        if (!name) { /* "fatal error: helper_cuda.h: No such file or directory" */
            const char *b = strstr(msg, "error:");
            b = b ? b + 6 : msg;
            while (*b == ' ')
                b++;
            const char *e = strstr(b, ": No such file");
            if (e)
                name = xasprintf("%.*s", (int)(e - b), b);
        }
        if (name) {
            r->cause = ENG_SCAN_MISSING_HEADER;
            r->what = name;
            return;
        }
    }
    /* "'thread_group' is not a member of 'cg'", "no member named 'x' in namespace 'y'" */
    if (strstr(msg, "is not a member of")) {
        char *name = quoted(msg, 0), *scope = quoted(msg, 1);
        if (name) {
            r->cause = ENG_SCAN_MISSING_API;
            r->what = scope ? xasprintf("%s::%s", scope, name) : xstrdup(name);
        }
        free(name);
        free(scope);
        if (r->what)
            return;
    }
    if (strstr(msg, "no member named") || strstr(msg, "no type named")) {
        char *name = quoted(msg, 0), *scope = quoted(msg, 1);
        if (name && scope && (strstr(msg, "in namespace") || strstr(msg, "in the global"))) {
            r->cause = ENG_SCAN_MISSING_API;
            r->what = xasprintf("%s::%s", scope, name);
        }
        free(name);
        free(scope);
        if (r->what)
            return;
    }
    for (int i = 0; api_words[i]; i++) {
        if (!strstr(msg, api_words[i]))
            continue;
        char *name = quoted(msg, 0);
        if (!name)
            break;
        cut_call(name);
        r->cause = ENG_SCAN_MISSING_API;
        r->what = name;
        return;
    }
    r->cause = ENG_SCAN_COMPILE_ERROR;
}

/* kladder's own refusals of an include, "FILE:LINE: #include <X>: kladder supplies no such
 * header ..." and "FILE:LINE: #include \"X\": no such file beside ...": true when log is one. */
static bool own_include_refusal(const char *log, struct eng_scan_result *r)
{
    const char *inc = strstr(log, ": #include ");
    if (!inc || !(strstr(inc, "supplies no such header") || strstr(inc, "no such file beside")))
        return false;
    const char *name = inc + strlen(": #include ");
    char close = *name == '<' ? '>' : '"';
    const char *end = strchr(name + 1, close);
    if (!end)
        return false;
    r->cause = ENG_SCAN_MISSING_HEADER;
    r->what = xasprintf("%.*s", (int)(end - name - 1), name + 1);
    r->where = xasprintf("%.*s", (int)(inc - log), log);
    const char *nl = strchr(log, '\n');
    r->message = nl ? xasprintf("%.*s", (int)(nl - log), log) : xstrdup(log);
    return true;
}

void eng_scan_classify(const char *log, struct eng_scan_result *r)
{
    free(r->what);
    free(r->where);
    free(r->message);
    r->what = r->where = r->message = NULL;
    if (!log)
        log = "";
    if (own_include_refusal(log, r))
        return;
    size_t n = 0;
    const char *line = error_line(log, &n);
    if (!line) { /* no error line: the log's first non-empty line says what happened */
        const char *s = log;
        while (*s == '\n' || *s == ' ')
            s++;
        const char *nl = strchr(s, '\n');
        r->cause = ENG_SCAN_COMPILE_ERROR;
        r->message = nl ? xasprintf("%.*s", (int)(nl - s), s) : xstrdup(s);
        return;
    }
    r->message = xasprintf("%.*s", (int)n, line);
    r->where = error_place(line, n);
    const char *msg = strstr(r->message, "error");
    classify_message(msg ? msg : r->message, r);
}

void eng_scan_result_free(struct eng_scan_result *r)
{
    free(r->what);
    free(r->where);
    free(r->message);
    for (size_t i = 0; i < r->nentries; i++) {
        free(r->entries[i].kernel);
        free(r->entries[i].instance);
    }
    free(r->entries);
    memset(r, 0, sizeof *r);
}
