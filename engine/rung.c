/* The rung table (engine/rung.h): the built-in ladder, handed in by the program's top
 * (engine/tables/ladder.c) so the core never links to the rungs above it, and the rungs added at
 * run time beside it. */
#include "engine/rung.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

static const struct eng_rung *const no_rungs[] = {NULL};
static const struct eng_rung *const *builtin = no_rungs;
static size_t nbuiltin;

void eng_rung_use_builtin(const struct eng_rung *const *ladder)
{
    builtin = ladder ? ladder : no_rungs;
    for (nbuiltin = 0; builtin[nbuiltin]; nbuiltin++)
        ;
}

/* Added rungs, kept in no particular order; ladder order is by number. */
static const struct eng_rung *added[ENG_RUNG_SLOTS];
static size_t nadded;

size_t eng_rung_count(void) { return nbuiltin + nadded; }

/* The i-th rung in number order: the tables are small, so each call selects afresh. */
const struct eng_rung *eng_rung_nth(size_t i)
{
    int last = 0;
    for (size_t k = 0; k <= i; k++) {
        const struct eng_rung *next = NULL;
        for (size_t b = 0; b < nbuiltin + nadded; b++) {
            const struct eng_rung *R = b < nbuiltin ? builtin[b] : added[b - nbuiltin];
            if (R->number > last && (!next || R->number < next->number))
                next = R;
        }
        if (!next)
            return NULL;
        if (k == i)
            return next;
        last = next->number;
    }
    return NULL;
}

int eng_rung_top(void)
{
    size_t n = eng_rung_count();
    return n ? eng_rung_nth(n - 1)->number : 0;
}

const struct eng_rung *eng_rung_find(int n)
{
    for (size_t i = 0; i < nbuiltin; i++)
        if (builtin[i]->number == n)
            return builtin[i];
    for (size_t i = 0; i < nadded; i++)
        if (added[i]->number == n)
            return added[i];
    return NULL;
}

const struct eng_rung *eng_rung_opt_owner(const char *name, const struct eng_rung_opt **o)
{
    for (size_t i = 0; name && i < eng_rung_count(); i++) {
        const struct eng_rung *R = eng_rung_nth(i);
        for (const struct eng_rung_opt *x = R->opts; x && x->name; x++)
            if (!strcmp(x->name, name)) {
                if (o)
                    *o = x;
                return R;
            }
    }
    return NULL;
}

/* Whether n may number a rung of the table (1 to ENG_RUNG_SLOTS - 1). */
static bool in_slots(int n) { return n >= 1 && n < ENG_RUNG_SLOTS; }

void eng_rung_args_set(struct eng_rung_args *a, int rung, const char *name, const char *value)
{
    if (!in_slots(rung))
        return;
    if (!a->block[rung])
        a->block[rung] = cJSON_CreateObject();
    cJSON *v = value ? cJSON_CreateString(value) : cJSON_CreateTrue();
    if (!a->block[rung] || !v)
        die("out of memory");
    if (cJSON_GetObjectItemCaseSensitive(a->block[rung], name))
        cJSON_ReplaceItemInObjectCaseSensitive(a->block[rung], name, v);
    else
        cJSON_AddItemToObject(a->block[rung], name, v);
}

void eng_rung_args_free(struct eng_rung_args *a)
{
    for (size_t i = 0; i < ENG_RUNG_SLOTS; i++) {
        cJSON_Delete(a->block[i]);
        a->block[i] = NULL;
    }
}

char *eng_rung_args_block(const struct eng_rung_args *a, int rung)
{
    if (!a || !in_slots(rung) || !a->block[rung])
        return NULL;
    char *text = cJSON_PrintUnformatted(a->block[rung]);
    if (!text)
        die("out of memory");
    return text;
}

const char *eng_rung_arg(const struct eng_rung_args *a, int rung, const char *name)
{
    if (!a || !in_slots(rung) || !a->block[rung])
        return NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(a->block[rung], name);
    return cJSON_IsString(v) ? v->valuestring : cJSON_IsTrue(v) ? "" : NULL;
}

int eng_rung_block_get(const char *block, const char *name, char *buf, size_t n)
{
    if (n)
        buf[0] = '\0';
    if (!block)
        return 0;
    cJSON *j = cJSON_Parse(block);
    if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        return -1;
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, name);
    int rc = v && (cJSON_IsString(v) || cJSON_IsTrue(v)) ? 1 : 0;
    if (rc && cJSON_IsString(v) && n)
        snprintf(buf, n, "%s", v->valuestring);
    cJSON_Delete(j);
    return rc;
}

int eng_rung_add(const struct eng_rung *R, char *err, size_t errlen)
{
    if (R->number < 1 || R->number >= ENG_RUNG_SLOTS) {
        snprintf(err, errlen, "rung %d: expected a number from 1 to %d", R->number,
                 ENG_RUNG_SLOTS - 1);
        return -1;
    }
    if (eng_rung_find(R->number)) {
        snprintf(err, errlen, "rung %d is already in the table", R->number);
        return -1;
    }
    for (const struct eng_rung_opt *x = R->opts; x && x->name; x++) {
        const struct eng_rung *owner = eng_rung_opt_owner(x->name, NULL);
        if (owner) {
            snprintf(err, errlen, "rung %d: option %s is rung %d's already", R->number, x->name,
                     owner->number);
            return -1;
        }
    }
    added[nadded++] = R;
    return 0;
}

void eng_rung_remove(int n)
{
    for (size_t i = 0; i < nadded; i++)
        if (added[i]->number == n) {
            added[i] = added[--nadded];
            added[nadded] = NULL;
            return;
        }
}

const struct eng_rung *eng_rung_claiming(const struct eng_run_ask *a, struct eng_run_claim *c)
{
    for (size_t i = 0; i < eng_rung_count(); i++) {
        const struct eng_rung *R = eng_rung_nth(i);
        if (R->claim && R->plan_claimed && R->claim(a, c))
            return R;
    }
    return NULL;
}

/* The first rung, in ladder order, whose flag at offset off is set. */
static const struct eng_rung *first_with(size_t off)
{
    for (size_t i = 0; i < eng_rung_count(); i++) {
        const struct eng_rung *R = eng_rung_nth(i);
        if (*(const bool *)((const char *)R + off))
            return R;
    }
    return NULL;
}

const struct eng_rung *eng_rung_repeating_from_rate(void)
{
    return first_with(offsetof(struct eng_rung, repeats_from_rate));
}

const struct eng_rung *eng_rung_end_to_end(void)
{
    return first_with(offsetof(struct eng_rung, runs_end_to_end));
}

bool eng_rung_facts_line(const struct cdb_check *k, bool zh, const char **label, char *buf,
                         size_t len)
{
    const struct eng_rung *R = eng_rung_find(k->rung);
    if (len)
        buf[0] = '\0';
    return R && R->facts_line && R->facts_line(k, zh, label, buf, len);
}

bool eng_rung_applies(const struct eng_rung *R, const struct eng_manifest *m)
{
    if (R->number >= 1 && R->number < ENG_RUNG_SLOTS && m->has_rung[R->number])
        return true;
    if (!R->every_suite)
        return false;
    for (size_t i = 0; i < eng_rung_count(); i++) {
        const struct eng_rung *o = eng_rung_nth(i);
        if (m->has_rung[o->number] && o->owns_kernels)
            return false;
    }
    return true;
}

void eng_rung_list(char *out, size_t n)
{
    size_t len = 0, count = eng_rung_count();
    out[0] = '\0';
    for (size_t i = 0; i < count && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%d",
                                i == 0 ? "" : i + 1 == count ? " and " : ", ",
                                eng_rung_nth(i)->number);
}
