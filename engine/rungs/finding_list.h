/* A finding that is a list, summarised: a check's rules say what they find one line at a time
 * ("PATH:LINE: what"), and a table with 878 damaged cells would fill any detail and be cut off
 * mid-word. The list keeps the count and the first few distinct kinds of line (the same "what"
 * on many lines is one kind, with its first line and how many), so the finding states how many
 * and shows the first of each; the whole list is the rules' own output (kladder check-config). */
#ifndef KL_ENGINE_RUNGS_FINDING_LIST_H
#define KL_ENGINE_RUNGS_FINDING_LIST_H

#include <stddef.h>

#define FINDING_KINDS 3

struct finding_list {
    /* Set before the first line (either may be NULL): */
    const char *path;   /* "PATH:" in front of every line: dropped, its line number kept */
    const char *prefix; /* only lines whose what starts with this are kept, without it; the
                         * others are counted in skipped */
    const char *suffix; /* dropped from the end of a kept what (" in MERGED.csv") */
    /* Filled by finding_list_say: */
    size_t lines, skipped;
    size_t nkinds, past; /* past: kept lines of kinds after the first FINDING_KINDS */
    struct {
        char what[200];  /* cut at a word, "..." marking the cut */
        size_t first;    /* its first line number (0: the line had none) */
        size_t count;
    } kind[FINDING_KINDS];
};

/* A struct cfg_report say(): arg is the struct finding_list. */
void finding_list_say(void *arg, const char *line);

/* Writes the first `most` kinds kept, "4 lines from line 2: WHAT; line 6: WHAT; and 5 more",
 * into out (cut at a whole kind, never mid-word; the kinds left out are "more"). Returns out. */
char *finding_list_write(const struct finding_list *l, size_t most, char *out, size_t n);

#endif
