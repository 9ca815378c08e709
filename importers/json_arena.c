/* Strict arena JSON parser (json_arena.h). */
#include "importers/json_arena.h"

#include <cJSON.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xalloc.h"

struct block {
    struct block *next;
    size_t used, cap;
    max_align_t data[];
};

struct imp_json {
    struct block *blocks;
    char *strings; /* decoded strings never exceed the input, so one buffer holds them all */
    size_t str_used;
};

struct parser {
    const char *p, *end, *start;
    struct imp_json *a;
    int depth, max_depth;
    const char *msg; /* first error */
    const char *at;
};

static void *arena_alloc(struct imp_json *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct block *b = a->blocks;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > ((size_t)1 << 20) ? n : (size_t)1 << 20;
        b = xmalloc(sizeof *b + cap);
        b->next = a->blocks, b->used = 0, b->cap = cap;
        a->blocks = b;
    }
    void *r = (char *)b->data + b->used;
    b->used += n;
    return r;
}

void imp_json_free(struct imp_json *a)
{
    if (!a)
        return;
    for (struct block *b = a->blocks, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(a->strings);
    free(a);
}

static bool error(struct parser *ps, const char *msg)
{
    if (!ps->msg) {
        ps->msg = msg;
        ps->at = ps->p;
    }
    return false;
}

static void skip_ws(struct parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t'))
        ps->p++;
}

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

/* At the opening quote. Decodes into the string buffer; UTF-8 validity of raw bytes is left to
 * the caller's text checks (text_is_clean), which refuse malformed sequences. */
static char *parse_string(struct parser *ps)
{
    const char *p = ps->p + 1;
    char *out = ps->a->strings + ps->a->str_used, *d = out;
    for (;;) {
        /* the common case: a run of plain bytes */
        const char *q = p;
        while (q < ps->end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
            q++;
        memcpy(d, p, (size_t)(q - p));
        d += q - p;
        p = q;
        if (p >= ps->end) {
            ps->p = p;
            error(ps, "the document ends inside a string (truncated?)");
            return NULL;
        }
        if (*p == '"')
            break;
        if ((unsigned char)*p < 0x20) {
            ps->p = p;
            error(ps, "a raw control character inside a string");
            return NULL;
        }
        /* backslash */
        if (p + 1 >= ps->end) {
            ps->p = p;
            error(ps, "the document ends inside an escape (truncated?)");
            return NULL;
        }
        char e = p[1];
        p += 2;
        switch (e) {
        case '"': *d++ = '"'; break;
        case '\\': *d++ = '\\'; break;
        case '/': *d++ = '/'; break;
        case 'b': *d++ = '\b'; break;
        case 'f': *d++ = '\f'; break;
        case 'n': *d++ = '\n'; break;
        case 'r': *d++ = '\r'; break;
        case 't': *d++ = '\t'; break;
        case 'u': {
            int u = ps->end - p >= 4 ? hex4(p) : -1;
            if (u < 0) {
                ps->p = p - 2;
                error(ps, "a bad \\u escape");
                return NULL;
            }
            p += 4;
            uint32_t cp = (uint32_t)u;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                int lo = ps->end - p >= 6 && p[0] == '\\' && p[1] == 'u' ? hex4(p + 2) : -1;
                if (lo < 0xDC00 || lo > 0xDFFF) {
                    ps->p = p - 6;
                    error(ps, "a lone UTF-16 surrogate in a \\u escape");
                    return NULL;
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                p += 6;
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                ps->p = p - 6;
                error(ps, "a lone UTF-16 surrogate in a \\u escape");
                return NULL;
            } else if (cp == 0) {
                ps->p = p - 6;
                error(ps, "an escaped NUL character (\\u0000)");
                return NULL;
            }
            char utf8[5]; /* cp is a whole code point here: surrogates were paired or refused */
            size_t len = text_encode(cp, utf8);
            memcpy(d, utf8, len);
            d += len;
            break;
        }
        default:
            ps->p = p - 2;
            error(ps, "an unknown escape");
            return NULL;
        }
    }
    *d++ = '\0';
    ps->a->str_used += (size_t)(d - out);
    ps->p = p + 1;
    return out;
}

static bool parse_number(struct parser *ps, cJSON *n)
{
    const char *p = ps->p, *s = p;
    if (p < ps->end && *p == '-')
        p++;
    if (p >= ps->end || !(*p >= '0' && *p <= '9'))
        return error(ps, "a malformed number");
    if (*p == '0') {
        p++;
    } else {
        while (p < ps->end && *p >= '0' && *p <= '9')
            p++;
    }
    bool integral = true;
    if (p < ps->end && *p == '.') {
        integral = false;
        p++;
        if (p >= ps->end || !(*p >= '0' && *p <= '9'))
            return error(ps, "a malformed number");
        while (p < ps->end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < ps->end && (*p == 'e' || *p == 'E')) {
        integral = false;
        p++;
        if (p < ps->end && (*p == '+' || *p == '-'))
            p++;
        if (p >= ps->end || !(*p >= '0' && *p <= '9'))
            return error(ps, "a malformed number");
        while (p < ps->end && *p >= '0' && *p <= '9')
            p++;
    }
    size_t len = (size_t)(p - s);
    if (len > 64)
        return error(ps, "a number with more than 64 characters");
    double v;
    if (integral && len <= 16) { /* exact, and no locale involved */
        long long x = 0;
        for (const char *q = *s == '-' ? s + 1 : s; q < p; q++)
            x = x * 10 + (*q - '0');
        v = (double)(*s == '-' ? -x : x);
    } else {
        char buf[72];
        memcpy(buf, s, len);
        buf[len] = '\0';
        v = strtod(buf, NULL); /* the caller runs us under the C locale */
    }
    n->type = cJSON_Number;
    n->valuedouble = v;
    n->valueint = v >= (double)INT32_MAX ? INT32_MAX : v <= (double)INT32_MIN ? INT32_MIN : (int)v;
    ps->p = p;
    return true;
}

static bool literal(struct parser *ps, const char *word, int type, cJSON *n)
{
    size_t len = strlen(word);
    if ((size_t)(ps->end - ps->p) < len || memcmp(ps->p, word, len) != 0)
        return error(ps, "an unexpected character");
    ps->p += len;
    n->type = type;
    return true;
}

static cJSON *parse_value(struct parser *ps);

static cJSON *new_node(struct parser *ps)
{
    cJSON *n = arena_alloc(ps->a, sizeof *n);
    memset(n, 0, sizeof *n);
    return n;
}

/* Links items as cJSON does: next forward, prev back, first->prev = last. */
static void append(cJSON *parent, cJSON **last, cJSON *item)
{
    if (!*last) {
        parent->child = item;
    } else {
        (*last)->next = item;
        item->prev = *last;
    }
    parent->child->prev = item;
    *last = item;
}

static cJSON *parse_container(struct parser *ps, bool object)
{
    if (++ps->depth > ps->max_depth) {
        error(ps, "nested too deeply");
        return NULL;
    }
    cJSON *c = new_node(ps), *last = NULL;
    c->type = object ? cJSON_Object : cJSON_Array;
    ps->p++;
    skip_ws(ps);
    char close = object ? '}' : ']';
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        ps->depth--;
        return c;
    }
    for (;;) {
        skip_ws(ps);
        char *key = NULL;
        if (object) {
            if (ps->p >= ps->end || *ps->p != '"') {
                error(ps, ps->p >= ps->end ? "the document ends early (truncated?)"
                                           : "expected a member name in quotes");
                return NULL;
            }
            if (!(key = parse_string(ps)))
                return NULL;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                error(ps, ps->p >= ps->end ? "the document ends early (truncated?)"
                                           : "expected ':' after a member name");
                return NULL;
            }
            ps->p++;
        }
        cJSON *item = parse_value(ps);
        if (!item)
            return NULL;
        item->string = key;
        append(c, &last, item);
        skip_ws(ps);
        if (ps->p >= ps->end) {
            error(ps, "the document ends early (truncated?)");
            return NULL;
        }
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == close) {
            ps->p++;
            ps->depth--;
            return c;
        }
        error(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
        return NULL;
    }
}

static cJSON *parse_value(struct parser *ps)
{
    skip_ws(ps);
    if (ps->p >= ps->end) {
        error(ps, "the document ends early (truncated?)");
        return NULL;
    }
    switch (*ps->p) {
    case '{':
        return parse_container(ps, true);
    case '[':
        return parse_container(ps, false);
    case '"': {
        cJSON *n = new_node(ps);
        n->type = cJSON_String;
        return (n->valuestring = parse_string(ps)) ? n : NULL;
    }
    case 't': {
        cJSON *n = new_node(ps);
        return literal(ps, "true", cJSON_True, n) ? n : NULL;
    }
    case 'f': {
        cJSON *n = new_node(ps);
        return literal(ps, "false", cJSON_False, n) ? n : NULL;
    }
    case 'n': {
        cJSON *n = new_node(ps);
        return literal(ps, "null", cJSON_NULL, n) ? n : NULL;
    }
    default: {
        cJSON *n = new_node(ps);
        if ((*ps->p >= '0' && *ps->p <= '9') || *ps->p == '-')
            return parse_number(ps, n) ? n : NULL;
        error(ps, "an unexpected character (NaN, Infinity and comments are not JSON)");
        return NULL;
    }
    }
}

const struct cJSON *imp_json_parse(const char *text, size_t len, int max_depth,
                                   struct imp_json **arena, char *err, size_t errlen)
{
    struct imp_json *a = xcalloc(1, sizeof *a);
    a->strings = xmalloc(len + 1);
    struct parser ps = {.p = text, .end = text + len, .start = text, .a = a, .max_depth = max_depth};
    locale_t c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
    cJSON *root = parse_value(&ps);
    if (c_loc) {
        uselocale(old);
        freelocale(c_loc);
    }
    if (root) {
        skip_ws(&ps);
        if (ps.p < ps.end) {
            error(&ps, "unexpected data after the document");
            root = NULL;
        }
    }
    if (!root) {
        snprintf(err, errlen, "not valid JSON: %s at byte %zu of %zu", ps.msg ? ps.msg : "error",
                 (size_t)(ps.at - text), len);
        imp_json_free(a);
        *arena = NULL;
        return NULL;
    }
    *arena = a;
    return root;
}
