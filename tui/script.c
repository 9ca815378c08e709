#include "tui/script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/actions.h"

struct tui_script {
    char *text;
    char *pos;       /* start of the next line */
    int lineno;
    const char *typing; /* rest of a :type line */
    char path[1024];    /* of the last :save-screen */
};

struct tui_script *tui_script_open(const char *path, char *err, size_t errlen)
{
    size_t len;
    char *text = file_read_all(path, &len, err, errlen);
    if (!text)
        return NULL;
    struct tui_script *s = xcalloc(1, sizeof *s);
    s->text = s->pos = text;
    return s;
}

void tui_script_free(struct tui_script *s)
{
    if (s) {
        free(s->text);
        free(s);
    }
}

static int two_ints(const char *p, int *a, int *b)
{
    char *end;
    long x = strtol(p, &end, 10);
    if (end == p)
        return -1;
    long y = strtol(end, &end, 10);
    while (*end == ' ')
        end++;
    if (*end || x < 0 || y < 0 || x > 10000 || y > 10000)
        return -1;
    *a = (int)x;
    *b = (int)y;
    return 0;
}

int tui_script_next(struct tui_script *s, struct tui_event *ev, char *err, size_t errlen)
{
    memset(ev, 0, sizeof *ev);
    if (s->typing && *s->typing) {
        uint32_t cp;
        s->typing += text_decode(s->typing, strlen(s->typing), &cp);
        ev->kind = TUI_EV_KEY;
        ev->key = (int)cp;
        return 0;
    }
    for (;;) {
        if (!*s->pos) {
            ev->kind = TUI_EV_END;
            return 0;
        }
        char *line = s->pos;
        size_t n = strcspn(line, "\n");
        s->pos = line + n + (line[n] == '\n');
        line[n] = '\0';
        if (n && line[n - 1] == '\r')
            line[--n] = '\0';
        s->lineno++;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        if (strncmp(p, ":type ", 6) == 0) {
            s->typing = p + 6;
            return tui_script_next(s, ev, err, errlen);
        }
        if (strncmp(p, ":save-screen ", 13) == 0) {
            snprintf(s->path, sizeof s->path, "%s", p + 13);
            ev->kind = TUI_EV_SAVE;
            ev->path = s->path;
            return 0;
        }
        if (strncmp(p, ":resize ", 8) == 0) {
            ev->kind = TUI_EV_RESIZE;
            if (two_ints(p + 8, &ev->x, &ev->y) == 0)
                return 0;
        } else if (strncmp(p, ":click ", 7) == 0) {
            ev->kind = TUI_EV_MOUSE;
            if (two_ints(p + 7, &ev->x, &ev->y) == 0)
                return 0;
        } else if (strncmp(p, ":wheel ", 7) == 0) {
            ev->kind = TUI_EV_MOUSE;
            const char *q = p + 7;
            ev->wheel = strncmp(q, "up ", 3) == 0 ? -1 : strncmp(q, "down ", 5) == 0 ? 1 : 0;
            if (ev->wheel && two_ints(q + (ev->wheel < 0 ? 3 : 5), &ev->x, &ev->y) == 0)
                return 0;
        } else if (*p != ':') {
            int key = tui_key_parse(p);
            if (key >= 0) {
                ev->kind = TUI_EV_KEY;
                ev->key = key;
                return 0;
            }
            snprintf(err, errlen, "script line %d: unknown key '%.60s'", s->lineno, p);
            return -1;
        }
        snprintf(err, errlen, "script line %d: cannot read '%.60s'", s->lineno, p);
        return -1;
    }
}
