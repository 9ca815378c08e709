/* Integer expressions of suite manifests: shapes, grids, pads ("ceil(N, 64)", "M*K + 1").
 * Grammar: integers, names (a parameter, or a dotted name such as "block.x"), + - * / % (integer division truncates; the operands of
 * / and % must be non-negative), parentheses, ceil(a, b) (= (a + b - 1) / b), min(a, b),
 * max(a, b), unary minus. All arithmetic is 64-bit and checked: overflow is an error. */
#ifndef KL_ENGINE_EXPR_H
#define KL_ENGINE_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Resolves a name to its value; returns false when the name is unknown. */
typedef bool (*eng_expr_lookup_fn)(const void *ctx, const char *name, size_t len, int64_t *value);

/* Evaluates text. Returns 0 and sets *out, or -1 with a message ("unknown name 'Q' at 3",
 * "division by zero", "overflow") in err. With lookup NULL every name is unknown. */
int eng_expr_eval(const char *text, eng_expr_lookup_fn lookup, const void *ctx, int64_t *out,
                  char *err, size_t errlen);

/* Calls fn for every name the expression mentions (for validation); returns -1 on a syntax
 * error with the message in err. fn returning false stops with "unknown name" in err. */
int eng_expr_check(const char *text, eng_expr_lookup_fn known, const void *ctx, char *err,
                   size_t errlen);

#endif
