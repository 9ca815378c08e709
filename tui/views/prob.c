#include "tui/views/prob.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double tui_prob_rate(double failures, double trials)
{
    if (!(trials > 0) || !(failures > 0))
        return 0.0;
    double p = failures / trials;
    return p > 1.0 ? 1.0 : p;
}

double tui_prob_catch(double p, double n)
{
    if (!(p > 0) || !(n > 0))
        return 0.0;
    if (p >= 1.0)
        return 1.0;
    /* (1 - p)^N = exp(N * log1p(-p)); 1 - exp(x) = -expm1(x) keeps tiny results exact. */
    return -expm1(n * log1p(-p));
}

double tui_prob_calls_for(double p, double target)
{
    if (!(p > 0))
        return HUGE_VAL;
    if (p >= 1.0 || !(target > 0))
        return 1.0;
    if (target >= 1.0)
        return HUGE_VAL;
    double n = ceil(log1p(-target) / log1p(-p));
    /* ceil() of a quotient that should be whole can land one too high or low by rounding. */
    if (n > 1 && tui_prob_catch(p, n - 1) >= target)
        n -= 1;
    else if (tui_prob_catch(p, n) < target)
        n += 1;
    return n < 1 ? 1 : n;
}

void tui_prob_format_pct(double prob, char *buf, size_t len)
{
    if (!(prob > 0)) {
        snprintf(buf, len, "0%%");
        return;
    }
    if (prob >= 1.0) {
        snprintf(buf, len, "100%%");
        return;
    }
    double pct = prob * 100.0;
    if (pct < 0.1) {
        snprintf(buf, len, "%.2g%%", pct);
        return;
    }
    /* Add decimals until the value no longer reads as 100. */
    for (int digits = 1; digits <= 9; digits++) {
        snprintf(buf, len, "%.*f%%", digits, pct);
        if (strncmp(buf, "100.", 4) != 0)
            return;
    }
    snprintf(buf, len, ">99.999999999%%");
}

void tui_prob_format_count(double n, char *buf, size_t len)
{
    if (isinf(n) || isnan(n)) {
        snprintf(buf, len, "never");
        return;
    }
    char digits[48];
    if (n >= 1e15) {
        /* Past 15 digits a double's digits are not the count's own: three significant digits,
         * the rest zeros, grouped like any other count ("1,000,000,000,000,000"), never
         * "1e+15"; beyond 10^24 only the power of ten is worth saying. */
        int exp10;
        char mant[16];
        snprintf(mant, sizeof mant, "%.2e", n); /* "1.23e+18" */
        if (sscanf(mant + 5, "%d", &exp10) != 1 || exp10 > 24) {
            snprintf(buf, len, "about 10^%d", (int)floor(log10(n)));
            return;
        }
        snprintf(digits, sizeof digits, "%c%c%c%0*d", mant[0], mant[2], mant[3], exp10 - 2, 0);
    } else {
        snprintf(digits, sizeof digits, "%.0f", n < 0 ? 0 : n);
    }
    size_t nd = strlen(digits), o = 0;
    for (size_t i = 0; i < nd && o + 1 < len; i++) {
        if (i > 0 && (nd - i) % 3 == 0 && o + 2 < len)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    if (len)
        buf[o < len ? o : len - 1] = '\0';
}

double tui_prob_step(double n, int dir)
{
    /* Walk the 1-2-5 series from 1 to the first value past n in the wanted direction. */
    static const double mant[] = {1, 2, 5};
    double prev = 1, v = 1;
    for (int i = 0; v <= TUI_PROB_N_MAX; i++) {
        v = mant[i % 3] * pow(10.0, i / 3);
        if (dir > 0 && v > n)
            return v > TUI_PROB_N_MAX ? TUI_PROB_N_MAX : v;
        if (dir < 0 && v >= n)
            return prev;
        prev = v;
    }
    return dir > 0 ? TUI_PROB_N_MAX : prev;
}
