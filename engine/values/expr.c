#include "engine/values/expr.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* A recursive-descent parser that evaluates as it goes; in check mode unknown names are
 * reported through the callback and every name evaluates to 1 (division then never fails). */
struct parser {
    const char *s, *p;
    eng_expr_lookup_fn lookup;
    const void *ctx;
    bool check;
    char *err;
    size_t errlen;
    bool failed;
};

static int64_t fail(struct parser *ps, const char *what)
{
    if (!ps->failed)
        snprintf(ps->err, ps->errlen, "%s at offset %d in \"%s\"", what, (int)(ps->p - ps->s),
                 ps->s);
    ps->failed = true;
    return 0;
}

static void skip_ws(struct parser *ps)
{
    while (*ps->p && isspace((unsigned char)*ps->p))
        ps->p++;
}

static bool accept(struct parser *ps, char c)
{
    skip_ws(ps);
    if (*ps->p == c) {
        ps->p++;
        return true;
    }
    return false;
}

static int64_t checked(struct parser *ps, int64_t a, int64_t b, char op)
{
    int64_t r = 0;
    bool ovf = false;
    switch (op) {
    case '+': ovf = __builtin_add_overflow(a, b, &r); break;
    case '-': ovf = __builtin_sub_overflow(a, b, &r); break;
    case '*': ovf = __builtin_mul_overflow(a, b, &r); break;
    default:
        if (b == 0)
            return fail(ps, "division by zero");
        if (a < 0 || b < 0)
            return fail(ps, "negative operand of / or %");
        r = op == '/' ? a / b : a % b;
    }
    if (ovf)
        return fail(ps, "64-bit overflow");
    return r;
}

static int64_t parse_sum(struct parser *ps);

static int64_t parse_atom(struct parser *ps)
{
    skip_ws(ps);
    if (ps->failed)
        return 0;
    if (accept(ps, '(')) {
        int64_t v = parse_sum(ps);
        if (!accept(ps, ')'))
            return fail(ps, "expected ')'");
        return v;
    }
    if (accept(ps, '-'))
        return checked(ps, 0, parse_atom(ps), '-');
    if (isdigit((unsigned char)*ps->p)) {
        int64_t v = 0;
        while (isdigit((unsigned char)*ps->p)) {
            v = checked(ps, v, 10, '*');
            v = checked(ps, v, *ps->p - '0', '+');
            ps->p++;
        }
        return v;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        const char *start = ps->p;
        /* a member of a launch dimension ("block.x") is one name */
        while (isalnum((unsigned char)*ps->p) || *ps->p == '_' ||
               (*ps->p == '.' && isalpha((unsigned char)ps->p[1])))
            ps->p++;
        size_t len = (size_t)(ps->p - start);
        skip_ws(ps);
        if (*ps->p == '(') {
            int kind = len == 4 && !memcmp(start, "ceil", 4)  ? 1
                       : len == 3 && !memcmp(start, "min", 3) ? 2
                       : len == 3 && !memcmp(start, "max", 3) ? 3
                                                              : 0;
            if (!kind)
                return fail(ps, "unknown function (ceil, min and max are known)");
            ps->p++;
            int64_t a = parse_sum(ps);
            if (!accept(ps, ','))
                return fail(ps, "expected ',' between two arguments");
            int64_t b = parse_sum(ps);
            if (!accept(ps, ')'))
                return fail(ps, "expected ')'");
            if (ps->failed)
                return 0;
            if (kind == 2)
                return a < b ? a : b;
            if (kind == 3)
                return a > b ? a : b;
            if (b <= 0 || a < 0)
                return ps->check ? 1 : fail(ps, "ceil(a, b) needs a >= 0 and b > 0");
            return checked(ps, checked(ps, a, b - 1, '+'), b, '/');
        }
        int64_t v = 0;
        if (!ps->lookup || !ps->lookup(ps->ctx, start, len, &v)) {
            ps->p = start;
            char what[96];
            snprintf(what, sizeof what, "unknown name '%.*s'", (int)(len > 40 ? 40 : len), start);
            return fail(ps, what);
        }
        return ps->check ? 1 : v;
    }
    return fail(ps, *ps->p ? "unexpected character" : "unexpected end");
}

static int64_t parse_product(struct parser *ps)
{
    int64_t v = parse_atom(ps);
    for (;;) {
        skip_ws(ps);
        char op = *ps->p;
        if (op != '*' && op != '/' && op != '%')
            return v;
        ps->p++;
        int64_t r = parse_atom(ps);
        if (ps->failed)
            return 0;
        v = (ps->check && op != '*') ? 1 : checked(ps, v, r, op);
    }
}

static int64_t parse_sum(struct parser *ps)
{
    int64_t v = parse_product(ps);
    for (;;) {
        skip_ws(ps);
        char op = *ps->p;
        if (op != '+' && op != '-')
            return v;
        ps->p++;
        int64_t r = parse_product(ps);
        if (ps->failed)
            return 0;
        v = ps->check ? 1 : checked(ps, v, r, op);
    }
}

static int run(const char *text, eng_expr_lookup_fn lookup, const void *ctx, bool check, int64_t *out,
               char *err, size_t errlen)
{
    struct parser ps = {text, text, lookup, ctx, check, err, errlen, false};
    int64_t v = parse_sum(&ps);
    skip_ws(&ps);
    if (!ps.failed && *ps.p)
        fail(&ps, "unexpected text after the expression");
    if (ps.failed)
        return -1;
    if (out)
        *out = v;
    return 0;
}

int eng_expr_eval(const char *text, eng_expr_lookup_fn lookup, const void *ctx, int64_t *out,
                  char *err, size_t errlen)
{
    return run(text, lookup, ctx, false, out, err, errlen);
}

int eng_expr_check(const char *text, eng_expr_lookup_fn known, const void *ctx, char *err,
                   size_t errlen)
{
    return run(text, known, ctx, true, NULL, err, errlen);
}
