/* The rung table (engine/rung.h). */
#include "engine/rung.h"

#include <stdio.h>
#include <string.h>

const struct eng_rung *const eng_rungs[] = {&eng_rung1, &eng_rung2, &eng_rung3, &eng_rung4, &eng_rung5,
                                            &eng_rung6, &eng_rung7, &eng_rung8, NULL};

const struct eng_rung *eng_rung_find(int n)
{
    for (size_t i = 0; eng_rungs[i]; i++)
        if (eng_rungs[i]->number == n)
            return eng_rungs[i];
    return NULL;
}

bool eng_rung_applies(const struct eng_rung *R, const struct eng_manifest *m)
{
    if (R->number >= 1 && R->number <= 8 && m->has_rung[R->number])
        return true;
    if (!R->every_suite)
        return false;
    for (int n = 1; n <= 8; n++) {
        const struct eng_rung *o = eng_rung_find(n);
        if (m->has_rung[n] && o && o->owns_kernels)
            return false;
    }
    return true;
}

void eng_rung_list(char *out, size_t n)
{
    size_t len = 0, count = 0;
    while (eng_rungs[count])
        count++;
    out[0] = '\0';
    for (size_t i = 0; i < count && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%d",
                                i == 0 ? "" : i + 1 == count ? " and " : ", ",
                                eng_rungs[i]->number);
}
