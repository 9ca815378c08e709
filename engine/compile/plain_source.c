/* Plain sources made ready for the compiler: local includes inlined, vendor includes removed
 * where kladder's headers serve, extern shared arrays rewritten, entry points appended. */
#include "engine/compile/plain_source.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/embed.h"
#include "common/file_within.h"
#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "engine/backend/gpu_rtc.h"
#include "engine/codeobj/plain_name.h"
#include "engine/compile/host_headers.h"

/* Headers kladder's kernels/kl_vendor.h stands in for. The runtime and the C/C++ library ones
 * are removed on every backend (hipRTC and NVRTC declare the device runtime API themselves, and
 * kl_vendor.h gives them what the library headers would); the others only where kladder's
 * headers serve. */
static const char *const runtime_headers[] = {
    "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "hip/hip_runtime.h", "hip/hip_runtime_api.h",
    "device_launch_parameters.h", "cstdint", "stdint.h", "cmath", "math.h", "cstdio", "stdio.h",
    "cassert", "assert.h", "cfloat", "float.h", "climits", "limits.h", "cstddef", "stddef.h",
    "cstdlib", "stdlib.h", "cstring", "string.h", "type_traits", NULL};
static const char *const vendor_headers[] = {
    "cuda_fp16.h", "cuda_bf16.h", "cooperative_groups.h", "cooperative_groups/reduce.h",
    "cooperative_groups/scan.h",
    "hip/hip_fp16.h", "hip/hip_bf16.h", "hip/hip_bfloat16.h", "hip/hip_cooperative_groups.h",
    "hip/amd_detail/amd_warp_functions.h", "vector_types.h", "cuComplex.h", "hip/hip_complex.h",
    NULL};

static bool in_list(const char *const *list, const char *s, size_t n)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == n && strncmp(list[i], s, n) == 0)
            return true;
    return false;
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* ---- a growing text --------------------------------------------------------------------- */
struct text {
    char *s;
    size_t len, cap;
};

static void put(struct text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = xrealloc(t->s, t->cap);
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

#define putf(t, ...)                                                                           \
    do {                                                                                       \
        char *putf_s = xasprintf(__VA_ARGS__);                                                 \
        put((t), putf_s, strlen(putf_s));                                                      \
        free(putf_s);                                                                          \
    } while (0)

/* ---- the source walk -------------------------------------------------------------------- */
struct walk {
    const struct eng_manifest *m;
    bool own_headers;
    char **seen; /* local includes already inlined */
    size_t nseen;
    char *err;
    size_t errlen;
    /* Where the walk is in the code, for the static shared arrays it may rewrite (those in a
     * function): the braces open (a bit per level, set for a namespace's or an extern "C"
     * block's), the text since the last brace or semicolon, and a block comment left open. */
    unsigned long long ns_bits;
    int depth, code_depth;
    char head[256];
    size_t head_len;
    bool in_comment;
    /* Host code on the cpu backend: inside a launch configuration `<<<...>>>` (dropped), and
     * the standard headers the source includes, hoisted in front of kladder's headers. */
    bool in_launch;
    struct text hoisted;
    /* the CUDA math libraries' headers it includes (eng_host_lib_headers' bits): kladder's
     * headers of those libraries go in front after kl_host.h, the others' not at all */
    unsigned libs;
    /* `kladder exec`: the launch configuration is kept, as kl_exec_launcher's arguments */
    bool exec_host;
    /* A kernel defined at namespace level that the manifest names (not a template): once its
     * body closes, a pointer to it is written after it (kl_cpu_kernel_ref_NAME), so that the
     * entry point is the kernel even where host code overloads its name with a launcher. */
    bool kernel_pending, kernel_template, emit_ref;
    char kernel_name[128];
    /* Its parameter list as the source spells it, default arguments left out: the pointer is
     * typed with it, so that a launcher declared earlier under the same name (an overload) is
     * not taken for it. params_depth counts the open parentheses while it is read (0 after);
     * params_ok is false when it did not fit or held a brace (the pointer is then `auto`). */
    char kernel_params[1024];
    size_t params_len;
    int params_depth;
    bool params_ok, in_default;
    char **refs; /* the kernels given such a pointer */
    size_t nrefs;
    /* The names of the __global__ functions defined or declared (templates too), and whether a
     * macro defines kernels (then the names a manifest gives are not checked against them). */
    bool kernel_named, macro_kernels;
    bool head_recorded; /* this head's kernel is the last of kernels[] (a prototype drops it) */
    bool emit_seen;     /* where kladder's headers serve: a kernel's body just ended */
    size_t head_index;  /* the index in kernels[] of the head's kernel */
    char **kernels;
    size_t nkernels;
    /* Beside each of kernels: for a template, an example of its template arguments for the
     * message that asks for an instance ("256", "float, 256"); NULL for a plain function. */
    char **kernel_targs;
    char kernel_example[128]; /* the pending kernel's, when it is a template */
};

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* A bracketed attribute or alignment after __shared__: its length, or 0. */
static size_t attr_len(const char *s)
{
    static const char *const words[] = {"__align__", "alignas", "__attribute__", NULL};
    for (size_t i = 0; words[i]; i++) {
        size_t w = strlen(words[i]);
        if (strncmp(s, words[i], w) != 0 || ident_char(s[w]))
            continue;
        const char *p = skip_ws(s + w);
        if (*p != '(')
            return 0;
        int depth = 0;
        for (; *p; p++) {
            if (*p == '(')
                depth++;
            else if (*p == ')' && --depth == 0)
                return (size_t)(p + 1 - s);
        }
        return 0;
    }
    return 0;
}

/* The word w (a keyword) at s, not part of a longer name. */
static bool word_at(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s, w, n) == 0 && !ident_char(s[n]);
}

/* An extern shared array at s (s points at "extern" or "__shared__"), its specifiers in any
 * order as compilers take them: `extern __shared__ ATTRS TYPE NAME[];`, nvcc's `extern TYPE
 * __shared__ NAME[];`, `__shared__ extern ...`. Writes the hook (the local one in a function,
 * kernels/kl_vendor.h) and returns the length consumed, or 0 when the text is not of that
 * form. Attributes (`__align__(16)`) are left out: dynamic shared memory is aligned for any
 * type on every backend. */
static size_t extern_shared(struct text *t, const char *s, bool in_function)
{
    if (!word_at(s, "extern") && !word_at(s, "__shared__"))
        return 0;
    const char *p = s;
    const char *semi = strchr(p, ';'), *nl = strchr(p, '\n');
    if (!semi || (nl && nl < semi))
        return 0;
    /* NAME [ ] ; backwards from the semicolon, attributes after the type skipped too */
    const char *q = semi;
    while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
        q--;
    if (q <= p || q[-1] != ']')
        return 0;
    q--;
    while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
        q--;
    if (q <= p || q[-1] != '[')
        return 0;
    q--;
    while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
        q--;
    const char *name_end = q;
    while (q > p && ident_char(q[-1]))
        q--;
    const char *name = q;
    if (name == name_end || name == p)
        return 0;
    bool is_extern = false, is_shared = false;
    struct text type = {0};
    for (const char *r = p; r < name;) {
        size_t a = attr_len(r);
        bool word = r == p || !ident_char(r[-1]);
        if (word && (a || word_at(r, "extern") || word_at(r, "__shared__"))) {
            is_extern = is_extern || word_at(r, "extern");
            is_shared = is_shared || word_at(r, "__shared__");
            r += a ? a : word_at(r, "extern") ? 6 : 10;
            continue;
        }
        if (*r == '(' || *r == '=' || *r == '{' || *r == '"') { /* no plain declaration */
            free(type.s);
            return 0;
        }
        if (type.len || (*r != ' ' && *r != '\t'))
            put(&type, r, 1);
        r++;
    }
    while (type.len && (type.s[type.len - 1] == ' ' || type.s[type.len - 1] == '\t'))
        type.s[--type.len] = '\0';
    if (!is_extern || !is_shared || !type.len) {
        free(type.s);
        return 0;
    }
    putf(t, "%s(%.*s, %s);", in_function ? "KL_EXTERN_SHARED_LOCAL" : "KL_EXTERN_SHARED",
         (int)(name_end - name), name, type.s);
    free(type.s);
    return (size_t)(semi + 1 - s);
}

/* `__shared__ ATTRS TYPE NAME[D]...;` at s (s points at "__shared__"), one array of one line:
 * writes the hook (kernels/kl_vendor.h's KL_STATIC_SHARED) and returns the length consumed, or
 * 0 when the text is not of that form (a scalar, several names, an initializer). A `static`
 * just written before it is taken back (the hook declares a reference). */
static size_t static_shared(struct text *t, const char *s)
{
    if (strncmp(s, "__shared__", 10) != 0 || ident_char(s[10]))
        return 0;
    const char *p = skip_ws(s + 10);
    for (size_t a; (a = attr_len(p)) > 0;)
        p = skip_ws(p + a);
    const char *semi = strchr(p, ';');
    if (!semi)
        return 0;
    const char *q = semi;
    while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
        q--;
    const char *dims_end = q;
    /* the dimensions, each a balanced [...], backwards */
    while (q > p && q[-1] == ']') {
        int depth = 0;
        const char *r = q - 1;
        for (; r >= p; r--) {
            if (*r == ']')
                depth++;
            else if (*r == '[' && --depth == 0)
                break;
        }
        if (r < p || r + 2 == q) /* unbalanced, or `[]` */
            return 0;
        q = r;
        while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
            q--;
    }
    if (q == dims_end)
        return 0;
    const char *dims = q;
    while (dims < dims_end && *dims != '[')
        dims++;
    const char *name_end = q;
    while (q > p && ident_char(q[-1]))
        q--;
    const char *name = q;
    if (name == name_end || name == p || isdigit((unsigned char)*name))
        return 0;
    struct text type = {0};
    int angle = 0;
    for (const char *r = p; r < name;) {
        size_t a = attr_len(r);
        if (a) {
            r += a;
            continue;
        }
        angle += *r == '<';
        angle -= *r == '>';
        if ((*r == ',' && angle == 0) || *r == '=' || *r == '[' || *r == '(' || *r == '{' ||
            *r == '}') {
            free(type.s);
            return 0;
        }
        put(&type, r, 1);
        r++;
    }
    for (const char *r = dims; r < dims_end; r++)
        if (*r == '=' || *r == '{') {
            free(type.s);
            return 0;
        }
    while (type.len && (type.s[type.len - 1] == ' ' || type.s[type.len - 1] == '\t'))
        type.s[--type.len] = '\0';
    if (!type.len) {
        free(type.s);
        return 0;
    }
    size_t k = t->len;
    while (k && (t->s[k - 1] == ' ' || t->s[k - 1] == '\t'))
        k--;
    if (k >= 6 && !strncmp(t->s + k - 6, "static", 6) && (k == 6 || !ident_char(t->s[k - 7]))) {
        t->len = k - 6;
        t->s[t->len] = '\0';
    }
    putf(t, "KL_STATIC_SHARED(%.*s, (%.*s), %s);", (int)(name_end - name), name,
         (int)(dims_end - dims), dims, type.s);
    free(type.s);
    return (size_t)(semi + 1 - s);
}

/* The brace at the end of w->head opens a namespace (or an extern "C" block) rather than code. */
static bool namespace_brace(const struct walk *w)
{
    const char *h = w->head;
    for (const char *c = h; (c = strstr(c, "namespace")) != NULL; c += 9)
        if ((c == h || !ident_char(c[-1])) && !ident_char(c[9]))
            return true;
    return strstr(h, "extern") && strstr(h, "\"C\"") && !strchr(h, '(');
}

/* The identifier that ends w->head (before a '('), or "" */
static void head_name(const struct walk *w, char *out, size_t n)
{
    size_t e = w->head_len;
    while (e && (w->head[e - 1] == ' ' || w->head[e - 1] == '\t'))
        e--;
    size_t b = e;
    while (b && ident_char(w->head[b - 1]))
        b--;
    snprintf(out, n, "%.*s", (int)(e - b), w->head + b);
}

/* Example template arguments for the template head in head (`template <int BLOCK, typename
 * T = half>` gives "256, float"... a default stays as written): what an entry point that names
 * the template without them is shown. "" when head holds no template parameter list. */
static void template_example(const char *head, char *out, size_t n)
{
    out[0] = '\0';
    const char *t = NULL;
    for (const char *c = head; (c = strstr(c, "template")) != NULL; c += 8)
        if ((c == head || !ident_char(c[-1])) && !ident_char(c[8]))
            t = c;
    if (!t || *(t = skip_ws(t + 8)) != '<')
        return;
    struct text ex = {0};
    const char *param = ++t;
    int depth = 0;
    for (const char *c = t; *c; c++) {
        bool last = depth == 0 && *c == '>';
        if (!last && !(depth == 0 && *c == ',')) {
            depth += *c == '<' || *c == '(';
            depth -= *c == '>' || *c == ')';
            continue;
        }
        /* one parameter, [param, c): its default, else a value of its kind */
        const char *eq = memchr(param, '=', (size_t)(c - param));
        const char *p = skip_ws(param);
        if (ex.len)
            put(&ex, ", ", 2);
        if (eq) {
            const char *v = skip_ws(eq + 1), *e = c;
            while (e > v && isspace((unsigned char)e[-1]))
                e--;
            put(&ex, v, (size_t)(e - v));
        } else if (!strncmp(p, "typename", 8) || !strncmp(p, "class", 5)) {
            put(&ex, "float", 5);
        } else if (!strncmp(p, "bool", 4) && !ident_char(p[4])) {
            put(&ex, "true", 4);
        } else {
            put(&ex, "256", 3);
        }
        if (last)
            break;
        param = c + 1;
    }
    snprintf(out, n, "%s", ex.s ? ex.s : "");
    free(ex.s);
}

/* Follows a __global__ function's head to its name, and its body to its end. */
static void track_kernel(struct walk *w, char c)
{
    static const char *const not_names[] = {"__launch_bounds__", "__attribute__", "__align__",
                                            "alignas", "__declspec", NULL};
    if (w->params_depth > 0) { /* in the parameter list */
        w->params_depth += c == '(';
        w->params_depth -= c == ')';
        if (w->params_depth == 0)
            return;
        if (w->params_depth == 1 && c == ',')
            w->in_default = false;
        else if (w->params_depth == 1 && c == '=')
            w->in_default = true;
        if (w->in_default)
            return;
        if (w->params_len + 2 >= sizeof w->kernel_params)
            w->params_ok = false;
        else
            w->kernel_params[w->params_len++] = c == '\n' || c == '\t' ? ' ' : c;
        w->kernel_params[w->params_len] = '\0';
        return;
    }
    if (c == '(' && !w->kernel_name[0]) {
        char name[128];
        head_name(w, name, sizeof name);
        for (size_t i = 0; not_names[i]; i++)
            if (!strcmp(name, not_names[i]))
                return;
        snprintf(w->kernel_name, sizeof w->kernel_name, "%s", name);
        w->kernel_named = true;
        w->params_depth = 1;
        w->params_len = 0;
        w->kernel_params[0] = '\0';
        w->params_ok = true;
        w->in_default = false;
    } else if (c == ';' && w->code_depth == 0) {
        w->kernel_pending = false; /* a declaration only: no entry of this file (a prototype of
                                    * a kernel another file defines) */
        if (w->head_recorded && w->nkernels > 0) {
            w->nkernels--;
            free(w->kernels[w->nkernels]);
            free(w->kernel_targs[w->nkernels]);
        }
        w->head_recorded = false;
    } else if (c == '}' && w->code_depth == 0) {
        w->kernel_pending = false;
        w->emit_seen = w->own_headers && w->head_recorded && !w->kernel_template;
        w->head_recorded = false;
        w->emit_ref = w->kernel_name[0] && !w->kernel_template;
    }
}

/* Follows the code's braces, one character of code (comments and literals are not). */
static void track(struct walk *w, char c)
{
    if (w->kernel_pending && c != '{' && c != '}')
        track_kernel(w, c);
    if (c == '{') {
        w->head[w->head_len] = '\0';
        bool ns = namespace_brace(w);
        if (w->depth < 64 && ns)
            w->ns_bits |= 1ull << w->depth;
        else if (w->depth < 64)
            w->ns_bits &= ~(1ull << w->depth);
        w->code_depth += !ns;
        w->depth++;
        w->head_len = 0;
    } else if (c == '}') {
        if (w->depth > 0) {
            w->depth--;
            bool ns = w->depth < 64 && (w->ns_bits >> w->depth & 1);
            w->code_depth -= !ns && w->code_depth > 0;
        }
        if (w->kernel_pending)
            track_kernel(w, c);
        w->head_len = 0;
    } else if (c == ';') {
        w->head_len = 0;
    } else if (w->head_len + 1 < sizeof w->head) {
        w->head[w->head_len++] = c;
    }
}

/* The end of a launch configuration's closing `>>>` in [s, end), or NULL when the line has none. */
static const char *launch_close(const char *s, const char *end)
{
    for (; end - s >= 3; s++)
        if (!strncmp(s, ">>>", 3))
            return s + 3;
    return NULL;
}

static const char *template_only(const struct walk *w, const char *entry);

/* `kladder exec`: the kernel expression just written before a `<<<` (`k`, `ns::k<T, 4>`,
 * `(f)`) is wrapped as `kl_exec_launcher(k, "k", __FILE__, __LINE__, ` so that the launch
 * configuration and `>>>`'s `)` complete the call (kernels/kl_exec_rt.h). A name with no
 * template arguments that names only template kernels is an overload set that no function
 * pointer deduces from: it is wrapped as `kl_exec_launcher_deduced([](auto... a) { k(a...); },
 * "k", ...`, whose call deduces the instance from the arguments as the launch would. False
 * (nothing written) when no kernel expression ends the text. */
static bool exec_launch_open(const struct walk *w, struct text *t)
{
    size_t e = t->len;
    while (e > 0 && (t->s[e - 1] == ' ' || t->s[e - 1] == '\t'))
        e--;
    size_t b = e;
    for (;;) {
        if (b > 0 && (t->s[b - 1] == '>' || t->s[b - 1] == ')')) {
            char close = t->s[b - 1], open = close == '>' ? '<' : '(';
            int depth = 0;
            size_t i = b;
            while (i > 0) {
                char c = t->s[--i];
                if (c == '\n')
                    return false;
                depth += c == close ? 1 : c == open ? -1 : 0;
                if (depth == 0)
                    break;
            }
            if (depth != 0)
                return false;
            b = i;
            if (open == '(')
                break; /* a parenthesised expression is the whole kernel */
            continue;
        }
        size_t i = b;
        while (i > 0 && (ident_char(t->s[i - 1]) || t->s[i - 1] == ':'))
            i--;
        if (i == b)
            break;
        b = i;
        break;
    }
    if (b == e)
        return false;
    struct text name = {0};
    for (size_t i = b; i < e; i++)
        if (t->s[i] != '"' && t->s[i] != '\\' && (unsigned char)t->s[i] >= 0x20)
            put(&name, &t->s[i], 1);
    char *kernel = xasprintf("%.*s", (int)(e - b), t->s + b);
    t->len = b;
    if (template_only(w, kernel))
        putf(t, "kl_exec_launcher_deduced([](auto... kl_a) { %s(kl_a...); }, \"%s\", __FILE__, "
             "__LINE__, ", kernel, name.s ? name.s : "");
    else
        putf(t, "kl_exec_launcher(%s, \"%s\", __FILE__, __LINE__, ", kernel,
             name.s ? name.s : "");
    free(kernel);
    free(name.s);
    return true;
}

/* The manifest names an entry point whose last name is name, with no template arguments. */
static bool names_entry(const struct eng_manifest *m, const char *name)
{
    const char *entries[3] = {m->entry_fixed, m->entry_buggy, m->entry_reference};
    for (int i = 0; i < 3; i++) {
        if (!entries[i] || strchr(entries[i], '<'))
            continue;
        const char *base = strrchr(entries[i], ':');
        base = base ? base + 1 : entries[i];
        if (!strcmp(base, name))
            return true;
    }
    return false;
}

/* What track() found at the character just put: a kernel's name (kept, with an example of
 * its template arguments), and the end of its head, after which the cpu backend's pointer to a
 * named entry goes (a launcher the emulator calls it through). */
static void after_kernel_head(struct walk *w, struct text *t)
{
    if (w->kernel_named) {
        w->kernel_named = false;
        w->kernels = xrealloc(w->kernels, (w->nkernels + 1) * sizeof *w->kernels);
        w->kernel_targs = xrealloc(w->kernel_targs, (w->nkernels + 1) * sizeof *w->kernel_targs);
        w->kernel_targs[w->nkernels] = w->kernel_template ? xstrdup(w->kernel_example) : NULL;
        w->head_index = w->nkernels;
        w->kernels[w->nkernels++] = xstrdup(w->kernel_name);
        w->head_recorded = true;
    }
    /* After a kernel's body, a function of no use but its name: it is in the object exactly
     * when the kernel is, so that a kernel missing from it is told apart as one under a
     * preprocessor branch not taken (ENG_PLAIN_SEEN_PREFIX, scan_unit.c). Same line: no line
     * number moves. */
    if (w->emit_seen) {
        w->emit_seen = false;
        bool plain = w->kernel_name[0] != '\0';
        for (const char *c = w->kernel_name; *c; c++)
            plain = plain && ident_char(*c);
        if (plain) /* the name and a number: two definitions of one name are two functions */
            putf(t, " __attribute__((used)) static void " ENG_PLAIN_SEEN_PREFIX "%s_%zu(void) {}",
                 w->kernel_name, w->head_index);
    }
    if (!w->emit_ref)
        return;
    w->emit_ref = false;
    /* `kladder exec`: each kernel's parameter types, known by its address, for a launch that
     * passes the kernel as a void pointer (cudaLaunchKernel((void *)k, ...), kl_exec_rt.h).
     * The pointer's declared type picks the kernel among overloads of its name. */
    if (w->exec_host && w->params_ok && w->params_depth == 0) {
        bool plain = w->kernel_name[0] != '\0';
        for (const char *c = w->kernel_name; *c; c++)
            plain = plain && ident_char(*c);
        if (plain)
            putf(t, " static void (*const kl_exec_kp_%s_%zu)(%s) = &%s; static const int "
                 "kl_exec_kreg_%s_%zu = kl_exec_register(kl_exec_kp_%s_%zu, \"%s\");",
                 w->kernel_name, w->head_index, w->kernel_params, w->kernel_name,
                 w->kernel_name, w->head_index, w->kernel_name, w->head_index, w->kernel_name);
    }
    if (w->own_headers && names_entry(w->m, w->kernel_name)) {
        if (w->params_ok && w->params_depth == 0)
            putf(t, " static void (*const kl_cpu_kernel_ref_%s)(%s) = &%s;", w->kernel_name,
                 w->kernel_params, w->kernel_name);
        else
            putf(t, " static auto *const kl_cpu_kernel_ref_%s = &%s;", w->kernel_name,
                 w->kernel_name);
        w->refs = xrealloc(w->refs, (w->nrefs + 1) * sizeof *w->refs);
        w->refs[w->nrefs++] = xstrdup(w->kernel_name);
    }
}

/* One line without its include handling: extern shared arrays rewritten, and (where kladder's
 * headers serve) static shared arrays in a function. Comments and literals are copied as they
 * are. */
static void put_code_line(struct walk *w, struct text *t, const char *line, size_t n)
{
    const char *end = line + n;
    for (const char *s = line; s < end;) {
        if (w->in_launch && w->exec_host) {
            const char *close = launch_close(s, end);
            put(t, s, (size_t)((close ? close - 3 : end) - s));
            if (!close)
                break;
            put(t, ")", 1);
            s = close;
            w->in_launch = false;
            continue;
        }
        if (w->in_launch) {
            const char *close = launch_close(s, end);
            if (!close)
                break;
            s = close;
            w->in_launch = false;
            continue;
        }
        if (w->in_comment) {
            if (s + 1 < end && s[0] == '*' && s[1] == '/') {
                put(t, s, 2);
                s += 2;
                w->in_comment = false;
                continue;
            }
            put(t, s, 1);
            s++;
            continue;
        }
        if (s + 1 < end && s[0] == '/' && s[1] == '/') {
            put(t, s, (size_t)(end - s));
            break;
        }
        if (s + 1 < end && s[0] == '/' && s[1] == '*') {
            put(t, s, 2);
            s += 2;
            w->in_comment = true;
            continue;
        }
        if (*s == '"' || *s == '\'') {
            const char *r = s + 1;
            for (; r < end && *r != *s; r++)
                if (*r == '\\' && r + 1 < end)
                    r++;
            r = r < end ? r + 1 : end;
            put(t, s, (size_t)(r - s));
            for (const char *c = s; c < r && w->head_len + 1 < sizeof w->head; c++)
                w->head[w->head_len++] = *c; /* `extern "C"` is told by its literal */
            s = r;
            continue;
        }
        if (w->own_headers && w->exec_host && end - s >= 3 && !strncmp(s, "<<<", 3) &&
            exec_launch_open(w, t)) {
            w->in_launch = true;
            s += 3;
            continue;
        }
        if (w->own_headers && w->exec_host && end - s >= 3 && !strncmp(s, "<<<", 3)) {
            /* no kernel expression before it: a compile error at this line, never a plain
             * call that would run the kernel's body as host code */
            put(t, " kl_exec_launch_without_kernel_name ", 36);
        }
        if (w->own_headers && end - s >= 3 && !strncmp(s, "<<<", 3)) {
            /* host code's launch `k<<<grid, block>>>(args)`: a plain call of k, which the
             * cpu backend compiles and never runs (kernels/kl_host.h) */
            w->in_launch = true;
            s += 3;
            continue;
        }
        bool word = s == line || !ident_char(s[-1]);
        if (word && end - s > 6 && (!strncmp(s, "extern", 6) || !strncmp(s, "__shared__", 10))) {
            char *one = xasprintf("%.*s", (int)(end - s), s);
            size_t used = extern_shared(t, one, w->code_depth > 0);
            free(one);
            if (used) {
                track(w, ';');
                s += used;
                continue;
            }
        }
        if (word && w->own_headers && w->code_depth > 0 && end - s > 10 &&
            !strncmp(s, "__shared__", 10)) {
            char *one = xasprintf("%.*s", (int)(end - s), s);
            size_t used = static_shared(t, one);
            free(one);
            if (used) {
                track(w, ';');
                s += used;
                continue;
            }
        }
        if (word && w->code_depth == 0 && end - s >= 10 && !strncmp(s, "__global__", 10) &&
            !ident_char(s[10])) {
            w->head[w->head_len] = '\0';
            w->kernel_pending = true;
            w->head_recorded = false;
            w->kernel_template = strstr(w->head, "template") != NULL;
            template_example(w->head, w->kernel_example, sizeof w->kernel_example);
            w->kernel_name[0] = '\0';
        }
        track(w, *s);
        put(t, s, 1);
        s++;
        after_kernel_head(w, t);
    }
}

static int walk_file(struct walk *w, struct text *t, const char *file, const char *text, int depth);

/* The include folder (its index) a path of the walk lies in: the path begins with the folder
 * as the suite or the command line writes it; -1 for none. */
static int in_include_dir(const struct eng_manifest *m, const char *path)
{
    for (size_t i = 0; i < m->ninclude_dirs; i++) {
        size_t n = strlen(m->include_dirs[i]);
        if (!strncmp(path, m->include_dirs[i], n) && path[n] == '/')
            return (int)i;
    }
    return -1;
}

static char *read_local(struct walk *w, const char *path, char *e, size_t elen)
{
    /* inside the suite's folder, or the include folder it came from, only: no "..", link or
     * FIFO out of it */
    int d = in_include_dir(w->m, path);
    if (d >= 0 && w->m->dir)
        return file_read_within(w->m->include_roots[d], path + strlen(w->m->include_dirs[d]) + 1,
                                NULL, e, elen);
    if (w->m->dir)
        return file_read_within(w->m->dir, path, NULL, e, elen);
    char *rel = xasprintf("kernels/%s", path);
    size_t len;
    char *s = embed_load(NULL, rel, &len, e, elen);
    free(rel);
    return s;
}

/* name (n bytes) found in an include folder, as -I finds it: its path for the walk, or NULL. */
static char *in_include_dirs(struct walk *w, const char *name, size_t n)
{
    for (size_t i = 0; i < w->m->ninclude_dirs; i++) {
        char *path = xasprintf("%s/%.*s", w->m->include_dirs[i], (int)n, name), why[256];
        char *there = read_local(w, path, why, sizeof why);
        if (there) {
            free(there);
            return path;
        }
        free(path);
    }
    return NULL;
}

/* Macros of kladder's device API that a system header must not see (it may spell
 * __attribute__((__noinline__)) or declare expf): saved around a header kept in place. */
static const char *const device_macros[] = {
    "__noinline__", "__forceinline__", "__device__", "__host__", "__global__", "__shared__",
    "__constant__", "__align__", "__launch_bounds__", "__restrict__", "assert", "expf", "logf",
    "cosf", "sqrtf", "fabs", "fabsf", "fmaxf", "fminf", "rsqrtf", "__expf", "__logf", "__cosf",
    "__sinf", "__powf", "__tanhf", "__syncthreads", "__all", "__any", "__ballot", NULL};

/* The CUB and hipCUB headers kernels/kl_cub.h stands in for on the cpu backend: the block
 * and warp reductions, block scans, device-wide algorithms, three input iterators and the
 * utilities their callers include with them. */
static const char *const cub_headers[] = {
    "cub/cub.cuh", "cub/block/block_reduce.cuh", "cub/block/block_scan.cuh",
    "cub/warp/warp_reduce.cuh", "cub/device/device_reduce.cuh", "cub/device/device_scan.cuh",
    "cub/device/device_radix_sort.cuh", "cub/device/device_select.cuh",
    "cub/device/device_run_length_encode.cuh", "cub/util_allocator.cuh", "cub/util_debug.cuh",
    "cub/util_macro.cuh", "cub/util_type.cuh", "cub/thread/thread_operators.cuh",
    "cub/iterator/constant_input_iterator.cuh", "cub/iterator/counting_input_iterator.cuh",
    "cub/iterator/transform_input_iterator.cuh",
    "hipcub/hipcub.hpp", "hipcub/block/block_reduce.hpp", "hipcub/block/block_scan.hpp",
    "hipcub/warp/warp_reduce.hpp", "hipcub/device/device_reduce.hpp",
    "hipcub/device/device_scan.hpp", "hipcub/device/device_radix_sort.hpp",
    "hipcub/device/device_select.hpp", "hipcub/device/device_run_length_encode.hpp",
    "hipcub/util_allocator.hpp", "hipcub/util_type.hpp", "hipcub/thread/thread_operators.hpp",
    "hipcub/iterator/constant_input_iterator.hpp", "hipcub/iterator/counting_input_iterator.hpp",
    "hipcub/iterator/transform_input_iterator.hpp", NULL};

/* kernels/kl_cub.h in place of a CUB include: its text at every such include (its guard keeps
 * one copy; an include in a branch the preprocessor does not take costs nothing), the standard
 * headers it uses put in front with the source's own. */
static void put_cub(struct walk *w, struct text *t, const char *file, int lineno)
{
    static const char *const std_needed[] = {"#include <algorithm>\n", "#include <limits>\n", NULL};
    for (size_t i = 0; std_needed[i]; i++)
        if (!w->hoisted.s || !strstr(w->hoisted.s, std_needed[i]))
            put(&w->hoisted, std_needed[i], strlen(std_needed[i]));
    const struct embed_file *h = embed_find("kernels/kl_cub.h");
    if (!h) { /* the build embeds every header of kernels/: only a broken build lacks it */
        putf(t, "#line %d \"%s\"\n#error \"kl_cub.h is not built in\"\n#line %d \"%s\"", lineno,
             file, lineno + 1, file);
        return;
    }
    putf(t, "#line 1 \"kl_cub.h\"\n");
    put(t, (const char *)h->data, h->size);
    putf(t, "\n#line %d \"%s\"", lineno + 1, file);
}

/* #include <name> kept where it is, for the compiler to find or not: only where the
 * preprocessor reaches it (an include in an inactive #if branch is never looked up). On the
 * cpu backend kladder's device macros are hidden from it, and a header the compiler lacks is
 * named at the include's own line. */
static void keep_angle(struct walk *w, struct text *t, const char *file, int lineno,
                       const char *name, size_t n)
{
    if (!w->own_headers) {
        putf(t, "#include <%.*s>", (int)n, name);
        return;
    }
    bool cub = n > 4 && !strncmp(name, "cub/", 4), hipcub = n > 7 && !strncmp(name, "hipcub/", 7);
    if ((cub || hipcub) && in_list(cub_headers, name, n)) {
        put_cub(w, t, file, lineno);
        return;
    }
    if (cub || hipcub) {
        /* CUB's own algorithms are written for a GPU only (PTX, the hardware's registers):
         * where the compiler finds the toolkit's copy beside Thrust, it would compile to code
         * that does nothing on the host. A header kl_cub.h does not stand in for is named. */
        putf(t, "#line %d \"%s\"\n#error \"%.*s\" is not supported on the cpu backend: kladder's "
             "CUB stand-in has block and warp reductions, block scans and the device-wide "
             "reduce, scan, radix sort, select and run-length encode only (docs/kernels.md)\n"
             "#line %d \"%s\"", lineno, file, (int)n, name, lineno + 1, file);
        return;
    }
    putf(t, "#if __has_include(<%.*s>)\n", (int)n, name);
    for (size_t i = 0; device_macros[i]; i++)
        putf(t, "#pragma push_macro(\"%s\")\n#undef %s\n", device_macros[i], device_macros[i]);
    putf(t, "#line %d \"%s\"\n#include <%.*s>\n", lineno, file, (int)n, name);
    for (size_t i = 0; device_macros[i]; i++)
        putf(t, "#pragma pop_macro(\"%s\")\n", device_macros[i]);
    putf(t, "#else\n#line %d \"%s\"\n#error \"#include <%.*s>: neither kladder (docs/kernels.md "
         "lists what it supplies) nor the host compiler has this header\"\n#endif\n#line %d \"%s\"",
         lineno, file, (int)n, name, lineno + 1, file);
}

/* #include "name" in file: the included file's path relative to the source's folder. */
static char *beside(const char *file, const char *name, size_t n)
{
    const char *slash = strrchr(file, '/');
    return slash ? xasprintf("%.*s/%.*s", (int)(slash - file), file, (int)n, name)
                 : xasprintf("%.*s", (int)n, name);
}

static int include_line(struct walk *w, struct text *t, const char *file, int lineno,
                        const char *p, int depth)
{
    char close = *p == '<' ? '>' : '"';
    const char *name = p + 1, *end = strchr(name, close);
    if (!end || end == name || memchr(name, '\n', (size_t)(end - name))) {
        snprintf(w->err, w->errlen, "%s:%d: #include: expected <name> or \"name\"", file, lineno);
        return -1;
    }
    size_t n = (size_t)(end - name);
    /* `#include "assert.h"`: not beside the file, so the compiler would take the system's */
    if (close == '"' && (in_list(runtime_headers, name, n) || in_list(vendor_headers, name, n) ||
                         eng_host_std_header(name, n) || eng_host_shim_header(name, n))) {
        char *path = beside(file, name, n);
        char why[256];
        char *there = read_local(w, path, why, sizeof why);
        free(path);
        char *inc = there ? NULL : in_include_dirs(w, name, n);
        if (!there && !inc)
            close = '>';
        free(there);
        free(inc);
    }
    /* an include folder's header, as -I finds it, read and put in place like a local one */
    char *found = close == '>' ? in_include_dirs(w, name, n) : NULL;
    if (close == '>' && !found) {
        if (!w->own_headers && in_list(runtime_headers, name, n) && eng_host_std_header(name, n)) {
            /* an offline compiler (nvcc, clang) has the library; a run-time one has not, and
             * kl_vendor.h gives it what a kernel uses of it */
            putf(t, "#if !defined(__CUDACC_RTC__) && !defined(__HIPCC_RTC__)\n#include <%.*s>\n"
                 "#endif\n#line %d \"%s\"", (int)n, name, lineno + 1, file);
            return 0;
        }
        if (in_list(runtime_headers, name, n) || (w->own_headers && in_list(vendor_headers, name, n)))
            return 0;
        if (!w->own_headers) { /* the vendor's compiler finds its own */
            const char *cuda = eng_host_hip_on_cuda(name, n);
            if (cuda) /* a HIP source built by a CUDA compiler takes CUDA's; under clang
                       * without HIP headers (KL_HIP_WHOLE) kl_vendor.h serves every one; a
                       * header the compiler lacks is named at the include's own line */
                putf(t, "#if (defined(__CUDACC__) || defined(__CUDACC_RTC__)) && !defined(__HIP__)\n"
                     "#line %d \"%s\"\n%s%s%s\n#elif !defined(KL_HIP_WHOLE)\n#line %d \"%s\"\n"
                     "#include <%.*s>\n#endif\n#line %d \"%s\"", lineno, file,
                     cuda[0] ? "#include <" : "", cuda, cuda[0] ? ">" : "", lineno, file, (int)n,
                     name, lineno + 1, file);
            else
                putf(t, "#include <%.*s>", (int)n, name);
            return 0;
        }
        if (eng_host_shim_header(name, n)) { /* kernels/kl_host.h, or a library's, stands in */
            w->libs |= eng_host_lib_headers(name, n);
            return 0;
        }
        if (eng_host_std_header(name, n)) {
            char *inc = xasprintf("#include <%.*s>\n", (int)n, name);
            if (!w->hoisted.s || !strstr(w->hoisted.s, inc))
                put(&w->hoisted, inc, strlen(inc));
            free(inc);
            return 0;
        }
        keep_angle(w, t, file, lineno, name, n);
        return 0;
    }
    char *path = found;
    if (!path) {
        path = beside(file, name, n);
        char why[256];
        char *there = read_local(w, path, why, sizeof why);
        if (!there) {
            char *inc = in_include_dirs(w, name, n);
            if (inc) {
                free(path);
                path = inc;
            }
        }
        free(there);
    }
    for (size_t i = 0; i < w->nseen; i++)
        if (!strcmp(w->seen[i], path)) {
            free(path);
            return 0;
        }
    char why[1024];
    char *body = read_local(w, path, why, sizeof why);
    if (!body) {
        /* left to the preprocessor: an error where it reaches the line, nothing in a branch it
         * does not take; never a lookup by the compiler beside its private copy */
        char *shown = text_escape(why, 300);
        for (char *c = shown; *c; c++)
            if (*c == '"' || *c == '\\')
                *c = '\'';
        putf(t, "#line %d \"%s\"\n#error \"#include \\\"%.*s\\\": no such file beside %s%s (%s)\"\n"
             "#line %d \"%s\"", lineno, file, (int)n, name, file,
             w->m->ninclude_dirs ? " or in the include_dirs" : "", shown, lineno + 1, file);
        free(shown);
        free(path);
        return 0;
    }
    w->seen = xrealloc(w->seen, (w->nseen + 1) * sizeof *w->seen);
    w->seen[w->nseen++] = path;
    putf(t, "#line 1 \"%s\"\n", path);
    int rc = walk_file(w, t, path, body, depth + 1);
    free(body);
    putf(t, "\n#line %d \"%s\"", lineno + 1, file);
    return rc;
}

static int walk_file(struct walk *w, struct text *t, const char *file, const char *text, int depth)
{
    if (depth > 16) {
        snprintf(w->err, w->errlen, "%s: local includes nested more than 16 deep", file);
        return -1;
    }
    int lineno = 0;
    if (!strncmp(text, "\xEF\xBB\xBF", 3)) /* a byte-order mark, as compilers accept one */
        text += 3;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        lineno++;
        const char *p = skip_ws(line);
        if (*p == '#') {
            const char *d = skip_ws(p + 1);
            if (!strncmp(d, "include", 7) && !ident_char(d[7])) {
                if (include_line(w, t, file, lineno, skip_ws(d + 7), depth) != 0)
                    return -1;
            } else if (!strncmp(d, "pragma", 6) && !strncmp(skip_ws(d + 6), "once", 4)) {
                /* each local include is inlined once already */
            } else {
                char *directive = xasprintf("%.*s", (int)n, line);
                w->macro_kernels = w->macro_kernels || strstr(directive, "__global__");
                free(directive);
                put(t, line, n);
                /* the lines an include became inside a branch not taken are counted, their
                 * #line not obeyed: the line numbers are set again where a branch ends */
                if ((!strncmp(d, "endif", 5) || !strncmp(d, "else", 4) || !strncmp(d, "elif", 4)) &&
                    !memchr(line, '\\', n))
                    putf(t, "\n#line %d \"%s\"", lineno + 1, file);
            }
        } else {
            put_code_line(w, t, line, n);
            track(w, ' '); /* the line break parts words: `__global__ void` / `name(...)` */
        }
        put(t, "\n", 1);
        if (!nl)
            break;
        line = nl + 1;
    }
    return 0;
}

/* The name an entry point's definition spells: the part before any '<', after the last "::". */
static bool defines(const char *text, const char *entry)
{
    size_t n = strcspn(entry, "<");
    const char *base = entry;
    for (const char *c; (c = strstr(base, "::")) && (size_t)(c - entry) < n;)
        base = c + 2;
    n -= (size_t)(base - entry);
    while (n && entry[base - entry + n - 1] == ' ')
        n--;
    for (const char *s = text; (s = strchr(s, base[0])) != NULL; s++)
        if (!strncmp(s, base, n) && (s == text || !ident_char(s[-1])) && !ident_char(s[n]))
            return true;
    return false;
}

/* Whether entry (`ns::f<1>` or `f`) names a __global__ function the walk saw, or the walk
 * cannot tell (kernels a macro defines). */
static bool is_kernel(const struct walk *w, const char *entry)
{
    if (w->macro_kernels)
        return true;
    size_t n = strcspn(entry, "<");
    const char *base = entry;
    for (const char *c; (c = strstr(base, "::")) && (size_t)(c - entry) < n;)
        base = c + 2;
    n -= (size_t)(base - entry);
    while (n && base[n - 1] == ' ')
        n--;
    for (size_t i = 0; i < w->nkernels; i++)
        if (strlen(w->kernels[i]) == n && !strncmp(w->kernels[i], base, n))
            return true;
    return false;
}

/* For an entry with no template arguments that names only template kernels: an example of
 * the arguments of the first (kernel_targs), else NULL. */
static const char *template_only(const struct walk *w, const char *entry)
{
    if (w->macro_kernels || strchr(entry, '<'))
        return NULL;
    const char *base = strrchr(entry, ':');
    base = base ? base + 1 : entry;
    const char *example = NULL;
    for (size_t i = 0; i < w->nkernels; i++)
        if (!strcmp(w->kernels[i], base)) {
            if (!w->kernel_targs[i])
                return NULL; /* a plain kernel of that name */
            example = example ? example : w->kernel_targs[i];
        }
    return example;
}

/* One of kladder's headers (kernels/NAME, built in), put in front of the source. */
static int put_header(struct text *t, const char *name, char *err, size_t errlen)
{
    const struct embed_file *h = embed_find(name);
    if (!h) {
        snprintf(err, errlen, "%s is not built in", name);
        return -1;
    }
    putf(t, "#line 1 \"%s\"\n", name + strlen("kernels/"));
    put(t, (const char *)h->data, h->size);
    put(t, "\n", 1);
    return 0;
}

/* What goes in front of the source: on the cpu backend the standard headers it includes
 * (before any device macro exists), then kladder's device API, then its host declarations. */
static int put_front(struct text *t, const struct walk *w, char *err, size_t errlen)
{
    /* kl_host.h on a GPU backend serves clang without HIP headers only (KL_HIP_WHOLE) */
    const char *names[3] = {"kernels/kl_vendor.h", "kernels/kl_host.h",
                            w->exec_host ? "kernels/kl_exec_rt.h" : NULL};
    if (!w->own_headers)
        put(t, GPU_RTC_WHOLE_UNIT, strlen(GPU_RTC_WHOLE_UNIT));
    /* the suite's defines, as -D puts them in front of everything */
    for (size_t i = 0; i < w->m->ndefines; i++) {
        const char *d = w->m->defines[i], *eq = strchr(d, '=');
        if (eq)
            putf(t, "#define %.*s %s\n", (int)(eq - d), d, eq + 1);
        else
            putf(t, "#define %s 1\n", d);
    }
    const char *dot = strrchr(w->m->source, '.');
    if (!w->own_headers && dot && !strcmp(dot, ".hip")) /* kl_vendor.h's HIP part on CUDA */
        put(t, "#define KL_HIP_SOURCE 1\n", strlen("#define KL_HIP_SOURCE 1\n"));
    if (w->hoisted.s)
        put(t, w->hoisted.s, w->hoisted.len);
    if (w->exec_host)
        put(t, "#define KL_EXEC 1\n", strlen("#define KL_EXEC 1\n"));
    for (int i = 0; i < 3 && names[i]; i++) {
        if (put_header(t, names[i], err, errlen) < 0)
            return -1;
        for (unsigned lib = 0; i == 1 && eng_host_lib_file(lib); lib++) /* after kl_host.h */
            if ((w->libs >> lib & 1u) && put_header(t, eng_host_lib_file(lib), err, errlen) < 0)
                return -1;
    }
    return 0;
}

static char *plain_prepare(const struct eng_manifest *m, const char *text, bool own_headers,
                           char *err, size_t errlen)
{
    struct walk w = {.m = m, .own_headers = own_headers, .err = err, .errlen = errlen,
                     .exec_host = own_headers && m->exec_host};
    struct text src = {0}, t = {0};
    putf(&src, "#line 1 \"%s\"\n", m->source);
    int rc = walk_file(&w, &src, m->source, text, 0);
    if (rc == 0)
        rc = put_front(&t, &w, err, errlen);
    const size_t body = t.len; /* where the source itself begins */
    if (rc == 0)
        put(&t, src.s, src.len);
    free(src.s);
    free(w.hoisted.s);
    const char *entries[3] = {m->entry_fixed, m->entry_buggy, m->entry_reference};
    const char *fields[3] = {"variants.fixed", "variants.buggy", "reference"};
    for (int i = 0; rc == 0 && i < 3; i++) {
        if (!entries[i] || (i == 2 && m->entry_buggy && !strcmp(entries[i], m->entry_buggy)) ||
            (i > 0 && !strcmp(entries[i], m->entry_fixed)))
            continue;
        if (!defines(t.s + body, entries[i])) {
            snprintf(err, errlen, "%s: %s: no kernel named \"%s\" in %s", m->path, fields[i],
                     entries[i], m->source);
            rc = -1;
            break;
        }
        if (!is_kernel(&w, entries[i])) {
            snprintf(err, errlen, "%s: %s: \"%s\" in %s is no kernel (no __global__ function "
                     "of that name)", m->path, fields[i], entries[i], m->source);
            rc = -1;
            break;
        }
        const char *example = template_only(&w, entries[i]);
        if (example) {
            snprintf(err, errlen, "%s: %s: %s in %s is a template: name an instance, e.g. %s<%s>",
                     m->path, fields[i], entries[i], m->source, entries[i],
                     example[0] ? example : "...");
            rc = -1;
            break;
        }
        char sym[160];
        eng_plain_symbol(entries[i], sym, sizeof sym);
        const char *base = strrchr(entries[i], ':');
        base = base ? base + 1 : entries[i];
        bool ref = false;
        for (size_t k = 0; k < w.nrefs && !strchr(entries[i], '<'); k++)
            ref = ref || !strcmp(w.refs[k], base);
        if (ref) /* the kernel itself, whatever host function shares its name */
            putf(&t, "KL_ENTRY(%s, *%.*skl_cpu_kernel_ref_%s)\n", sym,
                 (int)(base - entries[i]), entries[i], base);
        else
            putf(&t, "KL_ENTRY(%s, %s)\n", sym, entries[i]);
    }
    for (size_t i = 0; i < w.nseen; i++)
        free(w.seen[i]);
    free(w.seen);
    for (size_t i = 0; i < w.nrefs; i++)
        free(w.refs[i]);
    free(w.refs);
    for (size_t i = 0; i < w.nkernels; i++) {
        free(w.kernels[i]);
        free(w.kernel_targs[i]);
    }
    free(w.kernels);
    free(w.kernel_targs);
    if (rc != 0) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

char **eng_plain_name_flags(const struct eng_manifest *m, bool emulated, const char *const *flags)
{
    if (emulated || !eng_plain_is(m->source))
        return NULL;
    const char *entries[3] = {m->entry_fixed, m->entry_buggy, m->entry_reference};
    size_t nf = 0, k = 0;
    while (flags && flags[nf])
        nf++;
    char **out = xcalloc(nf + 4, sizeof *out);
    for (size_t i = 0; i < nf; i++)
        out[k++] = xstrdup(flags[i]);
    size_t before = k;
    for (int i = 0; i < 3; i++) {
        char sym[160];
        if (!entries[i])
            continue;
        eng_plain_symbol(entries[i], sym, sizeof sym);
        if (strcmp(sym, entries[i]) != 0)
            out[k++] = xasprintf(GPU_RTC_NAME_FLAG "%s", entries[i]);
    }
    if (k == before) {
        for (size_t i = 0; i < k; i++)
            free(out[i]);
        free(out);
        return NULL;
    }
    return out;
}

char *eng_suite_source(const struct eng_manifest *m, bool own_headers, char *err, size_t errlen)
{
    char *text = eng_manifest_source(m, err, errlen);
    if (!text || !eng_plain_is(m->source))
        return text;
    char *ready = plain_prepare(m, text, own_headers, err, errlen);
    free(text);
    return ready;
}

int eng_plain_kernels(const struct eng_manifest *m, bool own_headers, struct eng_plain_kernels *out,
                      char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *text = eng_manifest_source(m, err, errlen);
    if (!text)
        return -1;
    struct walk w = {.m = m, .own_headers = own_headers, .err = err, .errlen = errlen};
    struct text src = {0};
    int rc = walk_file(&w, &src, m->source, text, 0);
    free(text);
    free(src.s);
    free(w.hoisted.s);
    for (size_t i = 0; i < w.nseen; i++)
        free(w.seen[i]);
    free(w.seen);
    for (size_t i = 0; i < w.nrefs; i++)
        free(w.refs[i]);
    free(w.refs);
    /* each name once: a declaration and its definition are one kernel */
    for (size_t i = 0; i < w.nkernels; i++) {
        bool dup = rc != 0 || !w.kernels[i][0];
        for (size_t k = 0; k < out->n && !dup; k++)
            if (!strcmp(out->names[k], w.kernels[i])) {
                out->templates[k] = out->templates[k] || w.kernel_targs[i];
                dup = true;
            }
        bool is_template = w.kernel_targs[i] != NULL;
        free(w.kernel_targs[i]);
        if (dup) {
            free(w.kernels[i]);
            continue;
        }
        out->names = xrealloc(out->names, (out->n + 1) * sizeof *out->names);
        out->templates = xrealloc(out->templates, (out->n + 1) * sizeof *out->templates);
        out->names[out->n] = w.kernels[i];
        out->templates[out->n++] = is_template;
    }
    free(w.kernels);
    free(w.kernel_targs);
    out->by_macro = w.macro_kernels;
    return rc;
}

void eng_plain_kernels_free(struct eng_plain_kernels *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->names[i]);
    free(k->names);
    free(k->templates);
    memset(k, 0, sizeof *k);
}
