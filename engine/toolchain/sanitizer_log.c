/* Reading compute-sanitizer's text report (see sanitizer_log.h). */
#include "engine/toolchain/sanitizer_log.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies at most len bytes of s into out, printable ASCII only, trimmed. */
static void keep(char *out, size_t n, const char *s, size_t len)
{
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < n; i++)
        out[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (n)
        out[k] = '\0';
}

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* "name(args)" -> "name" (a template's or namespace's name keeps its characters). */
static void kernel_name(char *out, size_t n, const char *s, size_t len)
{
    const char *paren = memchr(s, '(', len);
    keep(out, n, s, paren ? (size_t)(paren - s) : len);
}

/* file:line at the start of s (up to len): its length, or 0 when s is not one. */
static size_t file_line(const char *s, size_t len)
{
    for (size_t i = len; i-- > 0;)
        if (s[i] == ':' && i + 1 < len && isdigit((unsigned char)s[i + 1])) {
            size_t e = i + 1;
            while (e < len && isdigit((unsigned char)s[e]))
                e++;
            return e;
        }
    return 0;
}

/* One LOC (see the header) of len bytes. */
static void parse_site(struct eng_san_site *st, const char *s, size_t len)
{
    const char *in = NULL;
    for (size_t i = 0; i + 4 <= len; i++)
        if (!memcmp(s + i, " in ", 4))
            in = s + i; /* the last " in ": a kernel's arguments never hold one */
    size_t head = in ? (size_t)(in - s) : len;
    const char *rest = in ? in + 4 : s + len;
    size_t rlen = in ? len - head - 4 : 0;
    if (head > 2 && s[0] == '0' && s[1] == 'x') {
        /* earlier form: 0xOFF in file:line:kernel(args) */
        keep(st->offset, sizeof st->offset, s, head);
        size_t fl = 0;
        /* file:line ends at the first ':' after the line number */
        const char *c = rest;
        while (c < rest + rlen && (c = memchr(c, ':', (size_t)(rest + rlen - c))) != NULL) {
            const char *d = c + 1;
            while (d < rest + rlen && isdigit((unsigned char)*d))
                d++;
            if (d > c + 1 && (d == rest + rlen || *d == ':')) {
                fl = (size_t)(d - rest);
                break;
            }
            c++;
        }
        if (fl) {
            keep(st->source, sizeof st->source, rest, fl);
            if (fl + 1 < rlen)
                kernel_name(st->kernel, sizeof st->kernel, rest + fl + 1, rlen - fl - 1);
        } else if (rlen) {
            kernel_name(st->kernel, sizeof st->kernel, rest, rlen);
        }
        return;
    }
    /* later form: kernel(args)+0xOFF in file:line */
    const char *plus = NULL;
    for (size_t i = head; i-- > 0;)
        if (s[i] == '+' && i + 2 < head && s[i + 1] == '0' && s[i + 2] == 'x') {
            plus = s + i;
            break;
        }
    if (plus) {
        kernel_name(st->kernel, sizeof st->kernel, s, (size_t)(plus - s));
        keep(st->offset, sizeof st->offset, plus + 1, head - (size_t)(plus - s) - 1);
    } else {
        kernel_name(st->kernel, sizeof st->kernel, s, head);
    }
    size_t fl = rlen ? file_line(rest, rlen) : 0;
    if (fl)
        keep(st->source, sizeof st->source, rest, fl);
}

/* "Write access at LOC" -> access "Write", LOC. */
static void parse_access(struct eng_san_site *st, const char *s, size_t len)
{
    const char *at = NULL;
    for (size_t i = 0; i + 11 <= len && !at; i++)
        if (!memcmp(s + i, " access at ", 11))
            at = s + i;
    if (!at)
        return;
    keep(st->access, sizeof st->access, s, (size_t)(at - s));
    const char *loc = at + 11;
    size_t l = len - (size_t)(loc - s);
    const char *br = NULL; /* " [N hazards]" */
    for (size_t i = l; i-- > 0;)
        if (loc[i] == '[') {
            br = loc + i;
            break;
        }
    parse_site(st, loc, br ? (size_t)(br - loc) : l);
}

size_t eng_san_parse(const char *tool, const char *text, struct eng_san_hazard *out, size_t max)
{
    size_t found = 0;
    struct eng_san_hazard *h = NULL; /* the hazard whose lines are being read */
    struct eng_san_hazard scratch;
    for (const char *line = text; line && *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        const char *next = eol ? eol + 1 : NULL;
        if (len < 9 || strncmp(line, "=========", 9) != 0) { /* the program's own output */
            line = next;
            continue;
        }
        const char *s = line + 9;
        size_t l = len - 9;
        while (l && (*s == ' ' || *s == '\t'))
            s++, l--;
        while (l && (s[l - 1] == '\r' || s[l - 1] == ' '))
            l--;
        char buf[512];
        keep(buf, sizeof buf, s, l);
        bool err = starts(buf, "Error: Race reported between ") || starts(buf, "ERROR: Race reported between ");
        bool warn = starts(buf, "Warning: Race reported between ") || starts(buf, "WARNING: Race reported between ");
        bool head = err || warn || starts(buf, "Barrier error detected") ||
                    starts(buf, "Invalid ") || starts(buf, "Misaligned ") ||
                    starts(buf, "Out-of-range ") || starts(buf, "Illegal ") ||
                    starts(buf, "Uninitialized __global__ memory read");
        if (head) {
            h = found < max ? &out[found] : &scratch;
            found++;
            memset(h, 0, sizeof *h);
            keep(h->tool, sizeof h->tool, tool, strlen(tool));
            h->count = 1;
            if (err || warn) {
                const char *a = strchr(buf, ':') + strlen(" Race reported between") + 1;
                struct eng_san_site *st = &h->site[h->nsites++];
                parse_access(st, a, strlen(a));
                snprintf(h->kind, sizeof h->kind, "race (%s) between a %s and", err ? "error" : "warning",
                         st->access);
            } else {
                keep(h->kind, sizeof h->kind, buf, strlen(buf));
            }
        } else if (h && starts(buf, "and ") && strstr(buf, " access at ") && h->site[0].access[0] &&
                   h->nsites >= 1) {
            if (h->nsites == 2) {
                /* compute-sanitizer lists every access that conflicts with the first under one
                 * head ("and Read access at ... [96 hazards]", "and Write access at ... [64
                 * hazards]"): each pair is a hazard of its own, with its own count. */
                struct eng_san_hazard first = *h;
                h = found < max ? &out[found] : &scratch;
                found++;
                *h = first;
                h->nsites = 1;
                h->count = 1;
                snprintf(h->kind, sizeof h->kind, "race (%s) between a %s and",
                         strncmp(first.kind, "race (error)", 12) ? "warning" : "error",
                         first.site[0].access);
            }
            struct eng_san_site *st = &h->site[h->nsites++];
            parse_access(st, buf + 4, strlen(buf) - 4);
            size_t kl = strlen(h->kind);
            snprintf(h->kind + kl, sizeof h->kind - kl, " a %s access", st->access);
            const char *br = strrchr(buf, '[');
            if (br)
                h->count = strtoul(br + 1, NULL, 10);
            if (!h->count)
                h->count = 1;
        } else if (h && starts(buf, "at ") && h->nsites == 0) {
            parse_site(&h->site[h->nsites++], buf + 3, strlen(buf) - 3);
        } else if (h && starts(buf, "by thread ")) {
            keep(h->thread, sizeof h->thread, buf + 3, strlen(buf) - 3);
        } else if (h && starts(buf, "Address ")) {
            keep(h->address, sizeof h->address, buf, strlen(buf));
        } else if (starts(buf, "ERROR SUMMARY") || starts(buf, "RACECHECK SUMMARY") ||
                   starts(buf, "COMPUTE-SANITIZER") || l == 0) {
            h = NULL;
        }
        line = next;
    }
    return found;
}

void eng_san_describe(const struct eng_san_hazard *h, char *out, size_t n)
{
    const char *kernel = h->site[0].kernel[0] ? h->site[0].kernel : "an unnamed kernel";
    size_t k = (size_t)snprintf(out, n, "%s: %s in %s", h->tool, h->kind, kernel);
    for (int i = 0; i < h->nsites && k < n; i++) {
        const struct eng_san_site *st = &h->site[i];
        k += (size_t)snprintf(out + k, n - k, "%s%s%sat %s%s%s%s%s%s", i ? ", " : ": ", st->access,
                              st->access[0] ? " " : "", st->kernel[0] ? st->kernel : "",
                              st->kernel[0] && st->offset[0] ? "+" : "", st->offset,
                              st->source[0] ? " (" : "", st->source, st->source[0] ? ")" : "");
    }
    if (k < n && h->thread[0])
        k += (size_t)snprintf(out + k, n - k, ", %s", h->thread);
    if (k < n && h->address[0])
        k += (size_t)snprintf(out + k, n - k, ", %s", h->address);
    if (k < n && h->count > 1)
        snprintf(out + k, n - k, ", %lu hazards", h->count);
}
