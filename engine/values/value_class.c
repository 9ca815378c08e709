/* Value-class generators (engine/values/value_class.h). */
#include "engine/values/value_class.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/values/par_rows.h"

static const char *const names[ENG_VC_COUNT] = {
    [ENG_VC_ZERO_ROWS] = "zero-rows",         [ENG_VC_CONST_ROWS] = "const-rows",
    [ENG_VC_TIES] = "ties",                   [ENG_VC_NEAR_TIES] = "near-ties",
    [ENG_VC_ONE_HOT] = "one-hot",             [ENG_VC_PEAKED] = "peaked",
    [ENG_VC_IDENTICAL_ROWS] = "identical-rows", [ENG_VC_DISTINCT] = "distinct",
    [ENG_VC_NAN_INF] = "nan-inf",             [ENG_VC_DENORMALS] = "denormals",
    [ENG_VC_UNDER_FP8_MIN] = "under-fp8-min", [ENG_VC_MAX_FINITE] = "max-finite",
    [ENG_VC_LARGE_MEAN] = "large-mean",       [ENG_VC_MAGNITUDE_LADDER] = "magnitude-ladder",
};

const char *eng_vclass_name(enum eng_vclass c)
{
    return (unsigned)c < ENG_VC_COUNT ? names[c] : "?";
}

int eng_vclass_find(const char *s)
{
    for (int c = 0; s && c < ENG_VC_COUNT; c++)
        if (!strcmp(names[c], s))
            return c;
    return -1;
}

const char *eng_vclass_list(void)
{
    return "zero-rows const-rows ties near-ties one-hot peaked identical-rows distinct nan-inf "
           "denormals under-fp8-min max-finite large-mean magnitude-ladder";
}

bool eng_vclass_applies(enum eng_dtype d)
{
    return d == ENG_F32 || d == ENG_BF16 || d == ENG_FP8E4M3 || d == ENG_F16;
}

/* ---- conversions (kernels/kl.h, on the host) ------------------------------------------- */

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t eng_f32_to_bf16(float f)
{
    uint32_t u = f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

float eng_bf16_to_f32(uint16_t b) { return bits_f32((uint32_t)b << 16); }

/* IEEE binary16: bias 15, 10 mantissa bits, subnormals in steps of 2^-24, max 65504. */
uint16_t eng_f32_to_f16(float f)
{
    uint32_t u = f32_bits(f), a = u & 0x7fffffffu;
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    if (a > 0x7f800000u) /* NaN: quiet, the payload's top bits kept */
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x47800000u) /* 2^16 and up, infinity included */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) { /* below 2^-14: a subnormal m * 2^-24 (m 1024 is the least normal) */
        float q = bits_f32(a) * 16777216.0f;
        uint32_t m = (uint32_t)q;
        float rem = q - (float)m;
        if (rem > 0.5f || (!(rem < 0.5f) && (m & 1u)))
            m++;
        return (uint16_t)(sign | m);
    }
    uint32_t h = ((((a >> 23) - 112u) << 10) | ((a >> 13) & 0x3ffu)), rest = a & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        h++; /* a carry into the exponent is right, up to infinity at 65520 */
    return (uint16_t)(sign | h);
}

float eng_f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1fu)
        return bits_f32(s | 0x7f800000u | (m << 13));
    if (e == 0) {
        float v = (float)m * 5.9604644775390625e-08f; /* m * 2^-24 */
        return s ? -v : v;
    }
    return bits_f32(s | ((e + 112u) << 23) | (m << 13));
}

float eng_fp8e4m3_to_f32(uint8_t x)
{
    uint32_t s = (uint32_t)(x & 0x80u) << 24, e = (x >> 3) & 0xfu, m = x & 0x7u;
    if (e == 0xfu && m == 0x7u)
        return bits_f32(s | 0x7fc00000u);
    if (e == 0) {
        float v = (float)m * 0.001953125f;
        return s ? -v : v;
    }
    return bits_f32(s | ((e + 120u) << 23) | (m << 20));
}

uint8_t eng_f32_to_fp8e4m3(float f)
{
    uint32_t u = f32_bits(f);
    uint8_t sign = (uint8_t)((u >> 24) & 0x80u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint8_t)(sign | 0x7fu);
    float a = fabsf(f);
    if (a >= 448.0f)
        return (uint8_t)(sign | 0x7eu);
    if (a < 0.015625f) {
        float q = a * 512.0f;
        uint32_t m = (uint32_t)q;
        float rem = q - (float)m;
        if (rem > 0.5f || (!(rem < 0.5f) && (m & 1u)))
            m++;
        return (uint8_t)(sign | m);
    }
    uint32_t au = f32_bits(a);
    uint32_t e = ((au >> 23) & 0xffu) - 120u, mant = au & 0x7fffffu;
    uint32_t m = mant >> 20, rest = mant & 0xfffffu;
    if (rest > 0x80000u || (rest == 0x80000u && (m & 1u))) {
        m++;
        if (m == 8u) {
            m = 0;
            e++;
        }
    }
    if (e > 15u || (e == 15u && m == 7u)) {
        e = 15u;
        m = 6u;
    }
    return (uint8_t)(sign | (e << 3) | m);
}

double eng_dtype_value(enum eng_dtype d, const void *buf, uint64_t i)
{
    const unsigned char *p = (const unsigned char *)buf + i * eng_dtype_size(d);
    switch (d) {
    case ENG_F32: { float f; memcpy(&f, p, 4); return (double)f; }
    case ENG_BF16: { uint16_t b; memcpy(&b, p, 2); return (double)eng_bf16_to_f32(b); }
    case ENG_F16: { uint16_t h; memcpy(&h, p, 2); return (double)eng_f16_to_f32(h); }
    case ENG_FP8E4M3: return (double)eng_fp8e4m3_to_f32(*p);
    case ENG_I32: { int32_t v; memcpy(&v, p, 4); return (double)v; }
    case ENG_U32: { uint32_t v; memcpy(&v, p, 4); return (double)v; }
    case ENG_I64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
    default: return (double)*p;
    }
}

/* ---- generators ------------------------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* rnd(seed, a, b) is mix(rnd_key(seed) + a * ... + b): the key is the same for every element
 * of a fill, so a fill computes it once (rnd_at). */
static uint64_t rnd_key(uint64_t seed) { return mix(seed ^ 0x9e3779b97f4a7c15ull); }

static uint64_t rnd_at(uint64_t key, uint64_t a, uint64_t b)
{
    return mix(key + a * 0xd1b54a32d192ed03ull + b);
}

static uint64_t rnd(uint64_t seed, uint64_t a, uint64_t b) { return rnd_at(rnd_key(seed), a, b); }

/* A normal value from two independent 24-bit uniforms (Box-Muller). */
static float normal(uint64_t r)
{
    float u1 = ((float)(r >> 40) + 1.0f) * (1.0f / 16777216.0f);
    float u2 = ((float)((r >> 8) & 0xffffffu) + 1.0f) * (1.0f / 16777216.0f);
    return sqrtf(-2.0f * logf(u1)) * cosf(6.2831853f * u2);
}

/* The dtype's bits of f, and back: classes work on bits where ulps matter. */
static uint32_t enc(enum eng_dtype d, float f)
{
    return d == ENG_BF16      ? eng_f32_to_bf16(f)
           : d == ENG_F16     ? eng_f32_to_f16(f)
           : d == ENG_FP8E4M3 ? eng_f32_to_fp8e4m3(f)
                              : f32_bits(f);
}

static void put(enum eng_dtype d, void *out, uint64_t i, uint32_t bits)
{
    if (d == ENG_BF16 || d == ENG_F16) {
        uint16_t b = (uint16_t)bits;
        memcpy((unsigned char *)out + i * 2, &b, 2);
    } else if (d == ENG_FP8E4M3) {
        ((unsigned char *)out)[i] = (unsigned char)bits;
    } else {
        memcpy((unsigned char *)out + i * 4, &bits, 4);
    }
}

uint64_t eng_vclass_column(enum eng_vclass c, uint64_t row, uint64_t row_len, uint64_t seed)
{
    if (!row_len)
        return 0;
    return (row * (c == ENG_VC_NAN_INF ? 5u : 7u) + rnd(seed, 0x51, (uint64_t)c) % row_len) % row_len;
}

static uint32_t sign_bit(enum eng_dtype d)
{
    return d == ENG_BF16 || d == ENG_F16 ? 0x8000u : d == ENG_FP8E4M3 ? 0x80u : 0x80000000u;
}

/* What every element of row r of class c shares, made once per row: the special column (one-hot,
 * peaked, nan-inf) and peaked's second one, a const-rows row's value, a near-ties row's base. */
struct vrow {
    uint64_t a, b;
    uint32_t bits;
    float mag; /* a magnitude-ladder row's M; 0 in its ordinary rows */
};

/* The top of the magnitude ladder, a power of ten: 10^16 in f32 and bf16 stays under the
 * default domain sqrt(FLT_MAX / n) for every reduction the default contract assumes (n up to
 * 65536: 7.2e16), so a sum of n squares of it is finite; f16 and fp8 stop under their largest
 * finite value (65504, 448). */
static unsigned ladder_top(enum eng_dtype d)
{
    return d == ENG_F16 ? 4u : d == ENG_FP8E4M3 ? 2u : 16u;
}

/* Row r's magnitude (of rows rows): the ladder rows (every row but r % 4 == 3) step through
 * the decades 10^1 .. 10^top in turn; where there are fewer ladder rows than decades they
 * spread from the first to the top (a single ladder row is the top), so that the largest
 * magnitude inside the domain is always among them. */
static float ladder_magnitude(enum eng_dtype d, uint64_t r, uint64_t rows)
{
    if (r % 4 == 3)
        return 0.0f;
    uint64_t top = ladder_top(d), steps = rows - rows / 4, i = r - r / 4, e;
    if (steps >= top)
        e = 1 + i % top;
    else if (steps <= 1)
        e = top;
    else
        e = 1 + (i * (top - 1) + (steps - 1) / 2) / (steps - 1);
    return (float)pow(10.0, (double)e);
}

static void row_init(enum eng_vclass c, enum eng_dtype d, uint64_t r, uint64_t rows,
                     uint64_t row_len, uint64_t key, uint64_t col0, struct vrow *v)
{
    /* eng_vclass_column's value, its random part (col0) drawn once per fill */
    v->a = (r * (c == ENG_VC_NAN_INF ? 5u : 7u) + col0) % row_len;
    v->b = v->a;
    v->bits = 0;
    v->mag = c == ENG_VC_MAGNITUDE_LADDER ? ladder_magnitude(d, r, rows) : 0.0f;
    if (c == ENG_VC_PEAKED && row_len > 1)
        v->b = (v->a + 1 + rnd_at(key, r, 0x7065ull) % (row_len - 1)) % row_len;
    else if (c == ENG_VC_CONST_ROWS)
        v->bits = enc(d, normal(rnd_at(key, r, 0x636f6e7374ull)));
    else if (c == ENG_VC_NEAR_TIES)
        v->bits = enc(d, 1.0f + (float)(rnd_at(key, r, 0x6e74ull) % 4) * 0.125f);
}

/* The bits of one element (row r, column k) of class c; key is rnd_key(seed), v its row's. */
static uint32_t element(enum eng_vclass c, enum eng_dtype d, uint64_t r, uint64_t k,
                        uint64_t row_len, uint64_t key, const struct vrow *v)
{
    uint64_t x = rnd_at(key, r, k);
    uint32_t sgn = (x >> 63) ? sign_bit(d) : 0;
    switch (c) {
    case ENG_VC_ZERO_ROWS:
        return r % 3 == 0 ? 0 : enc(d, normal(x));
    case ENG_VC_CONST_ROWS:
        return v->bits;
    case ENG_VC_TIES: /* 4 levels, each exact in every dtype: -0.75 -0.25 0.25 0.75 */
        return enc(d, ((float)(x % 4) - 1.5f) * 0.5f);
    case ENG_VC_NEAR_TIES: /* base bits + 0..2: neighbours one ulp apart */
        return v->bits + (uint32_t)(x % 3);
    case ENG_VC_ONE_HOT:
        return enc(d, k == v->a ? 1.0f : 0.0f);
    case ENG_VC_PEAKED: {
        float val = normal(x) * 0.5f;
        return enc(d, k == v->a ? 8.0f : k == v->b ? 4.0f : val);
    }
    case ENG_VC_IDENTICAL_ROWS:
        return enc(d, normal(rnd_at(key, 0, k)));
    case ENG_VC_DISTINCT: {
        uint64_t i = r * row_len + k;
        if (d == ENG_FP8E4M3) /* 64 distinct positive normals, 2^-3 and up */
            return 0x20u + (uint32_t)(i % 64);
        return enc(d, (float)(i % 251 + 1) * 0.25f); /* 8 significant bits: exact in bf16 */
    }
    case ENG_VC_NAN_INF: /* every fourth row ordinary: the rows a special value must not reach */
        if (r % 4 != 3 && k == v->a) {
            float special = r % 3 == 0 ? NAN : r % 3 == 1 ? INFINITY : -INFINITY;
            return enc(d, special);
        }
        return enc(d, normal(x));
    case ENG_VC_DENORMALS: {
        uint32_t mant = d == ENG_BF16      ? 0x7fu
                        : d == ENG_F16     ? 0x3ffu
                        : d == ENG_FP8E4M3 ? 0x7u
                                           : 0x7fffffu;
        return sgn | (1u + (uint32_t)(x >> 8) % mant);
    }
    case ENG_VC_UNDER_FP8_MIN: { /* [2^-10, 2^-9), in steps bf16 holds exactly */
        float u = (float)((x >> 40) & 0x7fu) * (1.0f / 128.0f);
        return enc(d, (sgn ? -1.0f : 1.0f) * (1.0f + u) * 0.0009765625f);
    }
    case ENG_VC_MAX_FINITE:
        if (r % 4 != 3 && ((x >> 62) & 1u))
            return sgn | (d == ENG_BF16      ? 0x7f7fu
                          : d == ENG_F16     ? 0x7bffu
                          : d == ENG_FP8E4M3 ? 0x7eu
                                             : f32_bits(FLT_MAX));
        return enc(d, normal(x));
    case ENG_VC_LARGE_MEAN: /* 128 sigma off zero, in every row and every column */
        return enc(d, 128.0f + normal(x));
    case ENG_VC_MAGNITUDE_LADDER: { /* M at the marked column, M * U(-1, 1) elsewhere */
        if (!(v->mag > 0.0f)) /* an ordinary row */
            return enc(d, normal(x));
        float u = (float)(x >> 40) * (1.0f / 8388608.0f) - 1.0f;
        return enc(d, k == v->a ? v->mag : v->mag * u);
    }
    default:
        return 0;
    }
}

/* One row's elements. Inlined into a copy per class and dtype (fill_as), so that neither is
 * looked at again for every element. */
static inline __attribute__((always_inline)) void fill_row(enum eng_vclass c, enum eng_dtype d,
                                                           void *out, uint64_t r,
                                                           uint64_t row_len, uint64_t at,
                                                           uint64_t key, const struct vrow *v)
{
    for (uint64_t k = 0; k < row_len; k++)
        put(d, out, at + k, element(c, d, r, k, row_len, key, v));
}

#define FILL_ROW_AS(C)                                                                         \
    case C:                                                                                    \
        if (d == ENG_F32)                                                                      \
            fill_row(C, ENG_F32, out, r, row_len, at, key, v);                                 \
        else if (d == ENG_BF16)                                                                \
            fill_row(C, ENG_BF16, out, r, row_len, at, key, v);                                \
        else if (d == ENG_F16)                                                                 \
            fill_row(C, ENG_F16, out, r, row_len, at, key, v);                                 \
        else                                                                                   \
            fill_row(C, ENG_FP8E4M3, out, r, row_len, at, key, v);                             \
        break;

static void fill_row_as(enum eng_vclass c, enum eng_dtype d, void *out, uint64_t r,
                        uint64_t row_len, uint64_t at, uint64_t key, const struct vrow *v)
{
    switch (c) {
        FILL_ROW_AS(ENG_VC_ZERO_ROWS)
        FILL_ROW_AS(ENG_VC_CONST_ROWS)
        FILL_ROW_AS(ENG_VC_TIES)
        FILL_ROW_AS(ENG_VC_NEAR_TIES)
        FILL_ROW_AS(ENG_VC_ONE_HOT)
        FILL_ROW_AS(ENG_VC_PEAKED)
        FILL_ROW_AS(ENG_VC_IDENTICAL_ROWS)
        FILL_ROW_AS(ENG_VC_DISTINCT)
        FILL_ROW_AS(ENG_VC_NAN_INF)
        FILL_ROW_AS(ENG_VC_DENORMALS)
        FILL_ROW_AS(ENG_VC_UNDER_FP8_MIN)
        FILL_ROW_AS(ENG_VC_MAX_FINITE)
        FILL_ROW_AS(ENG_VC_LARGE_MEAN)
        FILL_ROW_AS(ENG_VC_MAGNITUDE_LADDER)
    default:
        fill_row(c, d, out, r, row_len, at, key, v);
    }
}

/* What every part of a fill shares. */
struct fill_job {
    enum eng_vclass c;
    enum eng_dtype d;
    void *out;
    uint64_t rows, row_len, row_stride, key, col0;
};

static void fill_rows(void *arg, uint64_t r0, uint64_t r1)
{
    const struct fill_job *j = arg;
    for (uint64_t r = r0; r < r1; r++) {
        struct vrow v;
        row_init(j->c, j->d, r, j->rows, j->row_len, j->key, j->col0, &v);
        fill_row_as(j->c, j->d, j->out, r, j->row_len, r * j->row_stride, j->key, &v);
    }
}

/* A fill of many elements is split by rows over the kept threads of engine/values/par_rows.h: every
 * element is a function of its row, its column and the seed alone, so the bits are the same,
 * and a GPU check's input of 64K floats took 0.1 to 1.9 ms on one core (a logf and a cosf an
 * element where the class draws from a normal), more than the rest of the check. A fill below
 * FILL_PER_THREAD elements a thread stays on the calling one. KLADDER_FILL_THREADS caps the
 * count (1: none). */
#define FILL_PER_THREAD ((uint64_t)8192)

unsigned eng_vclass_fill_threads(uint64_t n, unsigned most)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t t = n / FILL_PER_THREAD;
    const char *cap = getenv("KLADDER_FILL_THREADS");
    uint64_t max = cap && *cap ? strtoull(cap, NULL, 10) : ENG_PAR_MAX;
    if (cpus > 0 && t > (uint64_t)cpus)
        t = (uint64_t)cpus;
    if (t > max)
        t = max;
    if (t > most)
        t = most;
    return t < 1 ? 1 : (unsigned)t;
}

void eng_vclass_fill_on(enum eng_vclass c, enum eng_dtype d, void *out, uint64_t n,
                        uint64_t row_len, uint64_t row_stride, uint64_t seed, unsigned max_threads)
{
    memset(out, 0, (size_t)(n * eng_dtype_size(d)));
    if (!eng_vclass_applies(d) || !row_len || row_stride < row_len)
        return;
    struct fill_job j = {.c = c, .d = d, .out = out, .rows = n / row_stride, .row_len = row_len,
                         .row_stride = row_stride, .key = rnd_key(seed),
                         .col0 = rnd(seed, 0x51, (uint64_t)c) % row_len};
    eng_par_rows(fill_rows, &j, n / row_stride, eng_vclass_fill_threads(n, max_threads));
}

void eng_vclass_fill(enum eng_vclass c, enum eng_dtype d, void *out, uint64_t n, uint64_t row_len,
                     uint64_t row_stride, uint64_t seed)
{
    eng_vclass_fill_on(c, d, out, n, row_len, row_stride, seed, ENG_PAR_MAX);
}

void eng_vclass_fill_part(enum eng_vclass c, enum eng_dtype d, void *out, uint64_t n,
                          uint64_t row_len, uint64_t row_stride, uint64_t seed, unsigned part,
                          unsigned nparts)
{
    size_t es = eng_dtype_size(d);
    bool rows_ok = eng_vclass_applies(d) && row_len && row_stride >= row_len;
    uint64_t rows = rows_ok ? n / row_stride : 0;
    /* without rows, the bytes are zeros: split n itself */
    uint64_t unit = rows_ok ? row_stride : 1, units = rows_ok ? rows : n;
    uint64_t r0 = units * part / nparts, r1 = units * (part + 1) / nparts;
    unsigned char *o = out;
    memset(o + r0 * unit * es, 0, (size_t)((r1 - r0) * unit * es));
    if (part + 1 == nparts && units * unit < n)
        memset(o + units * unit * es, 0, (size_t)((n - units * unit) * es));
    if (!rows_ok || r0 == r1)
        return;
    struct fill_job j = {.c = c, .d = d, .out = out, .rows = n / row_stride, .row_len = row_len,
                         .row_stride = row_stride, .key = rnd_key(seed),
                         .col0 = rnd(seed, 0x51, (uint64_t)c) % row_len};
    fill_rows(&j, r0, r1);
}
