/* Local includes put in place, inside the suite's folder only (source_includes.h). */
#define _GNU_SOURCE /* realpath */
#include "engine/toolchain/source_includes.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_within.h"
#include "common/text.h"
#include "common/xalloc.h"

enum { MAX_DEPTH = 16 };

struct out {
    char *s;
    size_t len, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        o->cap = (o->len + n + 1) * 2;
        o->s = xrealloc(o->s, o->cap);
    }
    memcpy(o->s + o->len, s, n);
    o->len += n;
    o->s[o->len] = '\0';
}

struct walk {
    const char *root;
    char *real_root; /* root with every link followed */
    bool check_only; /* local includes checked, not put in place */
    char **seen; /* the real paths of the files put in place */
    size_t nseen;
    char *err;
    size_t errlen;
};

/* Skips spaces, tabs, comments and backslash-newlines from s; returns where a word starts. */
static const char *skip_blank(const char *s, const char *end)
{
    for (;;) {
        if (s < end && (*s == ' ' || *s == '\t' || *s == '\f' || *s == '\v' || *s == '\r'))
            s++;
        else if (s + 1 < end && s[0] == '\\' && s[1] == '\n')
            s += 2;
        else if (s + 1 < end && s[0] == '/' && s[1] == '*') {
            const char *c = s + 2;
            while (c + 1 < end && !(c[0] == '*' && c[1] == '/'))
                c++;
            s = c + 1 < end ? c + 2 : end;
        } else {
            return s;
        }
    }
}

/* The logical line from s (backslash-newlines joined): its end (the newline or the text's). */
static const char *line_end(const char *s, const char *end)
{
    while (s < end && *s != '\n')
        s += (s + 1 < end && s[0] == '\\' && s[1] == '\n') ? 2 : 1;
    return s;
}

/* The word at s, with backslash-newlines inside it left out, into w. */
static const char *read_word(const char *s, const char *end, char *w, size_t wn)
{
    size_t k = 0;
    for (;;) {
        if (s + 1 < end && s[0] == '\\' && s[1] == '\n') {
            s += 2;
            continue;
        }
        if (s < end && (*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                        (*s >= '0' && *s <= '9'))) {
            if (k + 1 < wn)
                w[k++] = *s;
            s++;
            continue;
        }
        break;
    }
    w[k] = '\0';
    return s;
}

static int fail(struct walk *w, const char *file, int line, const char *what, const char *name)
{
    char *f = text_escape(file, 200), *n = text_escape(name ? name : "", 120);
    snprintf(w->err, w->errlen, "%s:%d: %s%s%s", f, line, what, name ? ": " : "", n);
    free(f);
    free(n);
    return -1;
}

/* An angle-bracket name the compiler may look up in its own folders: not absolute, no "..". */
static bool angle_ok(const char *name)
{
    if (name[0] == '/')
        return false;
    for (const char *p = name; (p = strstr(p, "..")) != NULL; p += 2)
        if ((p == name || p[-1] == '/') && (p[2] == '/' || p[2] == '\0'))
            return false;
    return true;
}

/* The name between the delimiters at s (s at '"' or '<'), joined lines left out; NULL when
 * it does not close on its line. */
static char *delimited(const char *s, const char *end)
{
    char close = *s == '<' ? '>' : '"';
    struct out o = {0};
    put(&o, "", 0);
    for (s++; s < end && *s != close; s++) {
        if (s + 1 < end && s[0] == '\\' && s[1] == '\n') {
            s++;
            continue;
        }
        if (*s == '\n')
            break;
        put(&o, s, 1);
    }
    if (s >= end || *s != close) {
        free(o.s);
        return NULL;
    }
    return o.s;
}

/* __has_include in a directive line: a quoted name, or an angle name angle_ok refuses. */
static bool has_include_bad(const char *s, const char *end)
{
    for (const char *p = s; p < end; p++) {
        if (end - p < 13 || strncmp(p, "__has_include", 13) != 0) {
            if (end - p >= 11 && strncmp(p, "__has_embed", 11) == 0)
                return true;
            continue;
        }
        const char *q = p + 13;
        if (end - q >= 5 && !strncmp(q, "_next", 5))
            q += 5;
        q = skip_blank(q, end);
        if (q < end && *q == '(')
            q = skip_blank(q + 1, end);
        if (q >= end || *q == '"')
            return true;
        if (*q == '<') {
            char *n = delimited(q, end);
            bool bad = !n || !angle_ok(n);
            free(n);
            if (bad)
                return true;
        } else {
            return true; /* a computed name */
        }
    }
    return false;
}

static int walk_text(struct walk *w, struct out *o, const char *file, const char *text, int depth);

/* #include "name" in file at line: name read beside file inside the folder, put in place. */
static int include_local(struct walk *w, struct out *o, const char *file, int line,
                         const char *name, int depth)
{
    const char *slash = strrchr(file, '/');
    char *rel = slash ? xasprintf("%.*s/%s", (int)(slash - file), file, name) : xstrdup(name);
    char why[1024], *real = NULL, *body = NULL;
    if (file_within(w->root, rel, &real, why, sizeof why)) {
        for (size_t i = 0; i < w->nseen; i++)
            if (!strcmp(w->seen[i], real)) {
                free(real);
                free(rel);
                return 0; /* once, by where it really is: the usual include guard */
            }
        body = file_read_within(w->root, rel, NULL, why, sizeof why);
    }
    if (!body && w->check_only) { /* the plain source's own reader names it */
        free(real);
        free(rel);
        return 0;
    }
    if (!body) {
        int rc = fail(w, file, line, "#include", name);
        size_t n = strlen(w->err);
        snprintf(w->err + n, w->errlen - n, " (%s)", why);
        free(real);
        free(rel);
        return rc;
    }
    w->seen = xrealloc(w->seen, (w->nseen + 1) * sizeof *w->seen);
    w->seen[w->nseen++] = real;
    /* named by its place inside the folder, with no "..": the name the #line marks give the
     * compiler cannot lead it to a file beside its private copy of the text either */
    size_t n = w->real_root ? strlen(w->real_root) : 0;
    const char *clean = n && !strncmp(real, w->real_root, n) && real[n] == '/' ? real + n + 1
                                                                              : name;
    char *inner = xstrdup(clean), *shown = text_escape(inner, 200);
    char mark[512];
    snprintf(mark, sizeof mark, "#line 1 \"%s\"\n", shown);
    put(o, mark, strlen(mark));
    int rc = walk_text(w, o, inner, body, depth + 1);
    free(inner);
    free(body);
    char *back = text_escape(file, 200);
    snprintf(mark, sizeof mark, "\n#line %d \"%s\"", line + 1, back); /* its newline: the line's */
    put(o, mark, strlen(mark));
    free(shown);
    free(back);
    free(rel);
    return rc;
}

/* One logical line [s, e) that starts a directive at h (after '#' or "%:"): checked, and
 * either kept (written by the caller) or replaced. 1: replaced, 0: keep, -1: refused. */
static int directive(struct walk *w, struct out *o, const char *file, int line, const char *h,
                     const char *e, int depth)
{
    char word[32];
    const char *p = skip_blank(read_word(skip_blank(h, e), e, word, sizeof word), e);
    bool inc = !strcmp(word, "include") || !strcmp(word, "import");
    if (!strcmp(word, "embed"))
        return fail(w, file, line, "#embed: kladder does not hand a compiler files to embed; put "
                    "the data in a buffer", NULL);
    /* any directive: a #define can carry __has_include into a later #if */
    if (has_include_bad(p, e))
        return fail(w, file, line, "__has_include: only of <name>, a header of the compiler's "
                    "or of kladder's (a name beside the source is read by kladder, not looked "
                    "up)", NULL);
    /* a #line naming a file (or a macro that may name one) makes the compiler quote that
     * file's lines in its errors: only "#line NUMBER" is taken; a GNU line marker
     * ("# 1 \"file\"") never */
    const char *num = p;
    while (num < e && *num >= '0' && *num <= '9')
        num++;
    if ((!strcmp(word, "line") && (num == p || skip_blank(num, e) != e)) ||
        (word[0] >= '0' && word[0] <= '9'))
        return fail(w, file, line, "#line with a file name: the compiler would quote that "
                    "file's lines in its messages; kladder marks the lines of every file it "
                    "puts in place itself", NULL);
    if (!inc && strcmp(word, "include_next") != 0)
        return 0;
    if (p >= e || (*p != '"' && *p != '<'))
        return fail(w, file, line, "#include: expected <name> or \"name\"; a computed include "
                    "could reach outside the suite's folder", NULL);
    char *name = delimited(p, e);
    if (!name || !name[0]) {
        free(name);
        return fail(w, file, line, "#include: expected <name> or \"name\"", NULL);
    }
    int rc = 0;
    if (*p == '<') {
        if (!angle_ok(name))
            rc = fail(w, file, line, "#include <...>: expected a header of the compiler's or of "
                      "kladder's, not an absolute or climbing name", name);
    } else if (!inc) {
        rc = fail(w, file, line, "#include_next \"...\": expected <name>", name);
    } else if (depth >= MAX_DEPTH) {
        rc = fail(w, file, line, "#include: more than 16 levels deep", name);
    } else {
        /* checked only: the file is walked for what it holds and the line kept for a reader
         * of its own (a plain source's, engine/compile/plain_source.c) */
        struct out scratch = {0};
        rc = include_local(w, w->check_only ? &scratch : o, file, line, name, depth);
        free(scratch.s);
        rc = rc < 0 ? -1 : w->check_only ? 0 : 1;
    }
    free(name);
    return rc;
}

static int walk_text(struct walk *w, struct out *o, const char *file, const char *text, int depth)
{
    const char *s = text, *end = text + strlen(text);
    int line = 1;
    while (s < end) {
        const char *e = line_end(s, end);
        const char *h = skip_blank(s, e);
        int rc = 0;
        if (h < e && *h == '#')
            rc = directive(w, o, file, line, h + 1, e, depth);
        else if (h + 1 < e && h[0] == '%' && h[1] == ':')
            rc = directive(w, o, file, line, h + 2, e, depth);
        if (rc < 0)
            return -1;
        if (rc == 0)
            put(o, s, (size_t)(e - s));
        for (const char *c = s; c < e; c++)
            line += *c == '\n';
        if (e < end) {
            put(o, "\n", 1);
            line++;
        }
        s = e < end ? e + 1 : end;
    }
    return 0;
}

static char *walk_all(const char *root, const char *file, const char *text, bool check_only,
                      char *err, size_t errlen)
{
    struct walk w = {.root = root, .real_root = realpath(root, NULL), .check_only = check_only,
                     .err = err, .errlen = errlen};
    struct out o = {0};
    put(&o, "", 0);
    int rc = walk_text(&w, &o, file, text, 0);
    for (size_t i = 0; i < w.nseen; i++)
        free(w.seen[i]);
    free(w.seen);
    free(w.real_root);
    if (rc != 0) {
        free(o.s);
        return NULL;
    }
    return o.s;
}

char *eng_source_includes(const char *root, const char *file, const char *text, char *err,
                          size_t errlen)
{
    return walk_all(root, file, text, false, err, errlen);
}

int eng_source_check(const char *root, const char *file, const char *text, char *err,
                     size_t errlen)
{
    char *out = walk_all(root, file, text, true, err, errlen);
    free(out);
    return out ? 0 : -1;
}
