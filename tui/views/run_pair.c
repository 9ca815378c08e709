/* Fixed beside buggy, one row per check (tui/views/run_pair.h). */
#include "tui/views/run_pair.h"

#include <stdbool.h>
#include <string.h>

enum side { SIDE_FIXED, SIDE_BUGGY, SIDE_OTHER };

/* The side of a variant and its group: "fixed" -> ("", fixed), "baseline-buggy" ->
 * ("baseline", buggy), "user" -> ("user", other). */
static enum side split_variant(const char *v, size_t *group_len)
{
    static const struct { const char *suffix; enum side side; } sides[] = {
        {"fixed", SIDE_FIXED}, {"buggy", SIDE_BUGGY}};
    size_t len = v ? strlen(v) : 0;
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        size_t sl = strlen(sides[i].suffix);
        if (len == sl && !strcmp(v, sides[i].suffix)) {
            *group_len = 0;
            return sides[i].side;
        }
        if (len > sl && v[len - sl - 1] == '-' && !strcmp(v + len - sl, sides[i].suffix)) {
            *group_len = len - sl - 1;
            return sides[i].side;
        }
    }
    *group_len = len;
    return SIDE_OTHER;
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static const struct cdb_check **slot(struct tui_pair_row *r, enum side side)
{
    return side == SIDE_FIXED ? &r->fixed : side == SIDE_BUGGY ? &r->buggy : &r->other;
}

size_t tui_pair_rows(const struct cdb_check *checks, size_t n, struct tui_pair_row *rows)
{
    size_t nrows = 0;
    for (size_t i = 0; i < n; i++) {
        const struct cdb_check *c = &checks[i];
        size_t glen;
        enum side side = split_variant(c->variant, &glen);
        struct tui_pair_row *row = NULL;
        for (size_t j = 0; j < nrows && side != SIDE_OTHER && !row; j++) {
            struct tui_pair_row *r = &rows[j];
            const struct cdb_check *k = tui_pair_main(r);
            if (r->other || *slot(r, side) || r->group_len != glen ||
                strncmp(r->group, c->variant ? c->variant : "", glen) != 0)
                continue;
            if (k->rung == c->rung && same(k->suite, c->suite) && same(k->check, c->check) &&
                same(k->shape, c->shape))
                row = r;
        }
        if (!row) {
            row = &rows[nrows++];
            *row = (struct tui_pair_row){.group = c->variant ? c->variant : "", .group_len = glen};
        }
        *slot(row, side) = c;
    }
    return nrows;
}

static bool failed(const struct cdb_check *c)
{
    return c->verdict == CDB_FAIL || c->verdict == CDB_HANG;
}

enum tui_pair_lesson tui_pair_lesson(const struct tui_pair_row *row)
{
    if (row->fixed && failed(row->fixed))
        return TUI_PAIR_FALSE_ALARM;
    if (!row->fixed || !row->buggy || row->fixed->verdict != CDB_PASS)
        return TUI_PAIR_INCOMPLETE;
    if (failed(row->buggy))
        return TUI_PAIR_CAUGHT;
    return row->buggy->verdict == CDB_PASS ? TUI_PAIR_NOT_CAUGHT : TUI_PAIR_INCOMPLETE;
}

size_t tui_pair_row_of(const struct tui_pair_row *rows, size_t nrows, const struct cdb_check *c)
{
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].fixed == c || rows[i].buggy == c || rows[i].other == c)
            return i;
    return 0;
}

const struct cdb_check *tui_pair_main(const struct tui_pair_row *row)
{
    return row->buggy ? row->buggy : row->fixed ? row->fixed : row->other;
}
