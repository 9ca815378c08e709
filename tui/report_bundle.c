/* tui/report_bundle.h: a run's suite files, bundled into its report as a script that writes them
 * and reruns the run's command beside them. */
#include "tui/report_bundle.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "tui/cmdline.h"

#define BUNDLE_MAX (256 * 1024)

struct growing {
    char *s;
    size_t len, cap;
};

static void put(struct growing *g, const char *s)
{
    size_t n = strlen(s);
    if (g->len + n + 1 > g->cap) {
        g->cap = (g->len + n + 1) * 2;
        g->s = xrealloc(g->s, g->cap);
    }
    memcpy(g->s + g->len, s, n + 1);
    g->len += n;
}

/* The value after "--suite " in the recorded command, malloc'd; NULL when there is none. */
static char *suite_arg(const char *argv)
{
    for (const char *p = argv ? strstr(argv, "--suite ") : NULL; p; p = strstr(p + 1, "--suite ")) {
        if (p != argv && p[-1] != ' ')
            continue;
        const char *v = p + strlen("--suite "), *end = strchr(v, ' ');
        size_t n = end ? (size_t)(end - v) : strlen(v);
        if (!n)
            return NULL;
        char *s = xmalloc(n + 1);
        memcpy(s, v, n);
        s[n] = '\0';
        return s;
    }
    return NULL;
}

/* As the engine tells a suite file from a built-in suite's name (engine/manifest.c). */
static bool is_file(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 5 && !strcmp(s + n - 5, ".json")) ||
           (n > 3 && !strcmp(s + n - 3, ".cu")) || (n > 4 && !strcmp(s + n - 4, ".hip"));
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* A here-document's end word that no line of text is. */
static void end_word(const char *text, char *word, size_t len)
{
    for (int k = 0;; k++) {
        snprintf(word, len, k ? "KLADDER_EOF_%d" : "KLADDER_EOF", k);
        size_t w = strlen(word);
        bool clash = false;
        for (const char *p = text; p && *p && !clash; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
            clash = !strncmp(p, word, w) && (p[w] == '\n' || p[w] == '\0');
        if (!clash)
            return;
    }
}

/* Adds "cat > NAME <<'END'\n...\nEND\n" for the file at path; false (and a word for the note in
 * why) when it cannot be read or is too large. */
static bool add_file(struct growing *g, const char *path, char *why, size_t whylen)
{
    char err[512];
    size_t len;
    char *text = file_read_all(path, &len, err, sizeof err);
    if (!text) {
        snprintf(why, whylen, "%s", err);
        return false;
    }
    if (len > BUNDLE_MAX || memchr(text, '\0', len)) {
        snprintf(why, whylen, "%s is %s (%zu bytes): attach it", base_name(path),
                 len > BUNDLE_MAX ? "over 256 KiB" : "binary", len);
        free(text);
        return false;
    }
    /* shown in an issue: no control character reaches it (a tab becomes a space) */
    char *clean = text_sanitize(text, true);
    free(text);
    char word[32], *name = text_sanitize(base_name(path), false);
    end_word(clean, word, sizeof word);
    char *head = xasprintf("cat > '%s' <<'%s'\n", name, word);
    put(g, head);
    put(g, clean);
    if (clean[0] && clean[strlen(clean) - 1] != '\n')
        put(g, "\n");
    put(g, word);
    put(g, "\n");
    free(head);
    free(name);
    free(clean);
    return true;
}

/* The manifest's kernel source beside it ("source"), or NULL; *prebuilt when it names a code
 * object instead. */
static char *manifest_source(const char *path, bool *prebuilt)
{
    char err[512];
    size_t len;
    char *text = file_read_all(path, &len, err, sizeof err);
    cJSON *j = text ? cJSON_ParseWithLength(text, len) : NULL;
    free(text);
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(j, "source");
    *prebuilt = cJSON_GetObjectItemCaseSensitive(j, "code_object") != NULL;
    char *out = NULL;
    if (cJSON_IsString(src) && src->valuestring[0] && !strchr(src->valuestring, '/')) {
        char *dir = xstrdup(path);
        char *slash = strrchr(dir, '/');
        out = slash ? (*slash = '\0', xasprintf("%s/%s", dir, src->valuestring))
                    : xstrdup(src->valuestring);
        free(dir);
    }
    cJSON_Delete(j);
    return out;
}

/* The run's command with --suite pointing at the copy and --events (the interface's pipe)
 * left out. */
static void rerun_command(struct growing *g, const char *argv, const char *suite)
{
    char *copy = text_sanitize(argv, false);
    bool skip_next = false, suite_next = false;
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        if (skip_next) {
            skip_next = false;
            continue;
        }
        if (!strcmp(tok, "--events")) {
            skip_next = true;
            continue;
        }
        if (g->len && g->s[g->len - 1] != '\n')
            put(g, " ");
        /* every word quoted: the script is run as it is */
        char *path = suite_next ? xasprintf("./%s", base_name(suite)) : NULL;
        char *word = tui_shell_quote(path ? path : tok);
        put(g, word);
        free(word);
        free(path);
        suite_next = !strcmp(tok, "--suite");
    }
    put(g, "\n");
    free(copy);
}

void tui_report_bundle(const char *argv_text, const char *run_id, struct tui_bundle *b)
{
    b->note = b->script = NULL;
    char *suite = suite_arg(argv_text);
    if (!suite || !is_file(suite)) {
        free(suite);
        return;
    }
    struct growing g = {0};
    char id[9] = "";
    snprintf(id, sizeof id, "%s", run_id ? run_id : "");
    char *head = xasprintf("mkdir kladder-rerun-%s && cd kladder-rerun-%s\n", id, id);
    put(&g, head);
    free(head);
    char why[600] = "", why2[600] = "";
    bool ok = add_file(&g, suite, why, sizeof why), prebuilt = false;
    size_t n = strlen(suite);
    bool manifest = n > 5 && !strcmp(suite + n - 5, ".json");
    char *src = ok && manifest ? manifest_source(suite, &prebuilt) : NULL;
    bool src_ok = !src || add_file(&g, src, why2, sizeof why2);
    char *shown = text_sanitize(suite, false);
    if (!ok) {
        b->note = xasprintf("The run's suite %s cannot be bundled (%s): attach its manifest and "
                            "kernel source to rerun it.", shown, why);
        free(g.s);
    } else {
        rerun_command(&g, argv_text, suite);
        b->script = g.s;
        b->note = xasprintf("The suite's files as they are on this machine now (%s%s%s%s%s), "
                            "written into a new folder, and the run's command there:",
                            shown, src && src_ok ? " and its source" : "",
                            !src_ok ? "; not its source: " : "", !src_ok ? why2 : "",
                            prebuilt ? "; its prebuilt code object is binary: attach it" : "");
    }
    free(shown);
    free(src);
    free(suite);
}

void tui_bundle_free(struct tui_bundle *b)
{
    free(b->note);
    free(b->script);
    b->note = b->script = NULL;
}
