/* A strict CSV reader for tuned-config tables (RFC 4180: comma-separated, fields optionally in
 * double quotes with "" for a quote, CRLF or LF line ends, a header row). Every row must have
 * as many fields as the header; a NUL byte, an unterminated quote or text after a closing quote
 * is an error naming the file and the line. Nothing is converted: cells are the exact text. */
#ifndef KL_IMPORTERS_CSV_READ_H
#define KL_IMPORTERS_CSV_READ_H

#include <stddef.h>

struct csv_table {
    size_t ncols, nrows;
    char **header;     /* ncols names */
    char ***rows;      /* nrows arrays of ncols cells */
    size_t *line;      /* the file line each row starts on (the header is line 1) */
};

/* Parses text[0..len) (path only names it in messages). 0, or -1 with "PATH:LINE: what" in
 * err; out is then empty. Free with csv_free. */
int csv_read(const char *text, size_t len, const char *path, struct csv_table *out, char *err,
             size_t errlen);
void csv_free(struct csv_table *t);

/* The column called name, or -1. */
int csv_column(const struct csv_table *t, const char *name);

/* A cell written for CSV: quoted when it holds a comma, a quote or a line end. malloc'd. */
char *csv_quote(const char *cell);

#endif
