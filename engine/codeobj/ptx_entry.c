/* PTX kernels' parameter lists (engine/codeobj/ptx_entry.h): a small tokenizer over the text
 * with comments removed, and a walk of the top-level directives. */
#include "engine/codeobj/ptx_entry.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

enum { MAX_PTX_PARAMS = 4096 };

struct lexer {
    const char *p, *end;
    int line;
    char tok[256];   /* the current token; "" at the end */
    int tok_line;
    bool failed;
    char *err;
    size_t errlen;
};

static int ptx_fail(struct lexer *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ptx_fail(struct lexer *lx, const char *fmt, ...)
{
    if (lx->failed)
        return -1;
    lx->failed = true;
    int used = snprintf(lx->err, lx->errlen, "line %d: ", lx->tok_line);
    va_list ap;
    va_start(ap, fmt);
    if (used > 0 && (size_t)used < lx->errlen)
        vsnprintf(lx->err + used, lx->errlen - (size_t)used, fmt, ap);
    va_end(ap);
    return -1;
}

static void skip_space(struct lexer *lx)
{
    while (lx->p < lx->end) {
        if (*lx->p == '\n') {
            lx->line++;
            lx->p++;
        } else if (isspace((unsigned char)*lx->p)) {
            lx->p++;
        } else if (lx->end - lx->p >= 2 && lx->p[0] == '/' && lx->p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
        } else if (lx->end - lx->p >= 2 && lx->p[0] == '/' && lx->p[1] == '*') {
            lx->p += 2;
            while (lx->p < lx->end && !(lx->end - lx->p >= 2 && lx->p[0] == '*' && lx->p[1] == '/'))
                lx->line += *lx->p++ == '\n';
            lx->p = lx->p < lx->end ? lx->p + 2 : lx->end;
        } else {
            return;
        }
    }
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%' || c == '.';
}

/* The next token into lx->tok: a word (letters, digits, _ $ % .), a string, or one punctuation
 * character. */
static const char *next(struct lexer *lx)
{
    skip_space(lx);
    lx->tok_line = lx->line;
    size_t n = 0;
    if (lx->p < lx->end && word_char(*lx->p)) {
        while (lx->p < lx->end && word_char(*lx->p)) {
            if (n + 1 < sizeof lx->tok)
                lx->tok[n++] = *lx->p;
            lx->p++;
        }
    } else if (lx->p < lx->end && *lx->p == '"') {
        lx->p++;
        while (lx->p < lx->end && *lx->p != '"')
            lx->p++;
        lx->p = lx->p < lx->end ? lx->p + 1 : lx->end;
        lx->tok[n++] = '"';
    } else if (lx->p < lx->end) {
        lx->tok[n++] = *lx->p++;
    }
    lx->tok[n] = '\0';
    return lx->tok;
}

static bool is(const struct lexer *lx, const char *s)
{
    return strcmp(lx->tok, s) == 0;
}

/* Bytes of a fundamental type (".u32" -> 4), 0 for anything else. */
static int64_t type_bytes(const char *t)
{
    if (t[0] != '.' || !strchr("usbf", t[1]) || strchr(t + 2, '.'))
        return 0;
    long bits = strtol(t + 2, NULL, 10);
    return bits == 8 || bits == 16 || bits == 32 || bits == 64 ? bits / 8 : 0;
}

static int64_t number(struct lexer *lx)
{
    char *end;
    long long v = strtoll(lx->tok, &end, 0);
    if (*end || v < 0 || v > (1LL << 31)) {
        ptx_fail(lx, "expected a whole number, got \"%.40s\"", lx->tok);
        return -1;
    }
    return v;
}

/* A declaration's type, alignment and element count, up to (not past) the token that ends it:
 * ".param .align 8 .b8 name[16]", ".shared .align 4 .b8 s[256]". The name is left in name. */
static int declaration(struct lexer *lx, int64_t *bytes, int64_t *align, bool *pointer, char *name,
                       size_t namelen)
{
    int64_t elem = 0, count = 1;
    *align = 0;
    *pointer = false;
    name[0] = '\0';
    for (next(lx); lx->tok[0] == '.'; next(lx)) {
        if (is(lx, ".align")) {
            next(lx);
            if ((*align = number(lx)) < 0)
                return -1;
        } else if (is(lx, ".ptr")) {
            *pointer = true;
        } else if (type_bytes(lx->tok)) {
            elem = type_bytes(lx->tok);
        }
    }
    if (!elem)
        return ptx_fail(lx, "a declaration without a type (.u32, .b8, ...)");
    snprintf(name, namelen, "%s", lx->tok);
    if (!isalpha((unsigned char)name[0]) && name[0] != '_' && name[0] != '$' && name[0] != '%')
        return ptx_fail(lx, "expected a name, got \"%.40s\"", lx->tok);
    if (is(lx, name) && next(lx) && is(lx, "[")) {
        next(lx);
        if ((count = number(lx)) < 0)
            return -1;
        if (!is(lx, "]") && !(next(lx) && is(lx, "]")))
            return ptx_fail(lx, "expected ] after the array size of %s", name);
        next(lx);
    }
    *bytes = elem * count;
    if (!*align)
        *align = elem;
    return 0;
}

static int params(struct lexer *lx, struct ptx_kernel *k)
{
    int64_t at = 0;
    next(lx); /* past ( */
    while (!is(lx, ")")) {
        if (!is(lx, ".param"))
            return ptx_fail(lx, "kernel %s: expected .param or ), got \"%.40s\"", k->name, lx->tok);
        int64_t bytes, align;
        bool ptr;
        char name[256];
        if (declaration(lx, &bytes, &align, &ptr, name, sizeof name) != 0)
            return -1;
        if (k->nparams >= MAX_PTX_PARAMS)
            return ptx_fail(lx, "kernel %s: more than %d parameters", k->name, MAX_PTX_PARAMS);
        at = (at + align - 1) / align * align;
        k->params = xrealloc(k->params, ((size_t)k->nparams + 1) * sizeof *k->params);
        k->params[k->nparams++] = (struct ptx_param){at, bytes, ptr};
        at += bytes;
        if (is(lx, ","))
            next(lx);
        else if (!is(lx, ")"))
            return ptx_fail(lx, "kernel %s: expected , or ) after parameter %s", k->name, name);
    }
    next(lx);
    return 0;
}

/* .maxntid / .reqntid x[, y[, z]] */
static int launch_bound(struct lexer *lx, struct ptx_kernel *k)
{
    int64_t product = 1;
    do {
        next(lx);
        int64_t v = number(lx);
        if (v <= 0)
            return ptx_fail(lx, "kernel %s: a launch bound of %.40s", k->name, lx->tok);
        product *= v;
        next(lx);
    } while (is(lx, ",") && product < (1LL << 31));
    if (k->max_threads < 0 || product < k->max_threads)
        k->max_threads = product;
    return 0;
}

/* The body's .shared declarations, up to its closing brace (left as the current token). */
static int body(struct lexer *lx, struct ptx_kernel *k)
{
    int depth = 1;
    k->shared_bytes = 0;
    for (next(lx);; next(lx)) {
        if (!lx->tok[0])
            return ptx_fail(lx, "kernel %s: its body has no closing }", k->name);
        depth += is(lx, "{") - is(lx, "}");
        if (depth == 0)
            return 0;
        if (is(lx, ".shared")) {
            int64_t bytes, align;
            bool ptr;
            char name[256];
            if (declaration(lx, &bytes, &align, &ptr, name, sizeof name) != 0)
                return -1;
            k->shared_bytes = (k->shared_bytes + align - 1) / align * align + bytes;
        }
    }
}

static int entry(struct lexer *lx, struct ptx_module *pm)
{
    next(lx);
    if (!lx->tok[0] || lx->tok[0] == '(')
        return ptx_fail(lx, ".entry without a name");
    pm->kernels = xrealloc(pm->kernels, (pm->nkernels + 1) * sizeof *pm->kernels);
    struct ptx_kernel *k = &pm->kernels[pm->nkernels++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", lx->tok);
    k->max_threads = -1;
    k->shared_bytes = -1;
    next(lx);
    if (is(lx, "(") && params(lx, k) != 0)
        return -1;
    while (lx->tok[0] && !is(lx, "{") && !is(lx, ";")) {
        if (!is(lx, ".maxntid") && !is(lx, ".reqntid"))
            next(lx);
        else if (launch_bound(lx, k) != 0)
            return -1;
    }
    if (is(lx, "{"))
        return body(lx, k);
    return 0;
}

bool ptx_is(const void *data, size_t len)
{
    struct lexer lx = {.p = data, .end = (const char *)data + len, .line = 1};
    skip_space(&lx);
    return lx.end - lx.p >= 8 && memcmp(lx.p, ".version", 8) == 0;
}

int ptx_read(const void *data, size_t len, struct ptx_module *pm, char *err, size_t errlen)
{
    memset(pm, 0, sizeof *pm);
    struct lexer lx = {.p = data, .end = (const char *)data + len, .line = 1, .err = err,
                       .errlen = errlen};
    if (memchr(data, '\0', len) && (const char *)memchr(data, '\0', len) < lx.end - 1)
        return ptx_fail(&lx, "a NUL byte inside the text: not a PTX file");
    bool module_shared = false;
    int depth = 0;
    for (next(&lx); lx.tok[0] && !lx.failed;) {
        if (depth == 0 && is(&lx, ".target")) {
            next(&lx);
            snprintf(pm->target, sizeof pm->target, "%.15s", lx.tok);
            next(&lx);
        } else if (depth == 0 && is(&lx, ".entry")) {
            if (entry(&lx, pm) != 0)
                break;
            next(&lx);
        } else {
            module_shared |= depth == 0 && is(&lx, ".shared");
            depth += is(&lx, "{") - is(&lx, "}");
            next(&lx);
        }
    }
    if (!lx.failed && pm->nkernels == 0)
        ptx_fail(&lx, "no .entry: a PTX module without kernels");
    if (lx.failed) {
        ptx_module_free(pm);
        return -1;
    }
    for (size_t i = 0; module_shared && i < pm->nkernels; i++)
        pm->kernels[i].shared_bytes = -1;
    return 0;
}

void ptx_module_free(struct ptx_module *pm)
{
    for (size_t i = 0; i < pm->nkernels; i++)
        free(pm->kernels[i].params);
    free(pm->kernels);
    memset(pm, 0, sizeof *pm);
}
