/* Reading one CI report (importers/ci_report.h): which form it is, handed to its reader. The
 * suite list the readers fill is importers/ci_suites.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/text.h"
#include "common/xalloc.h"
#include "importers/ci_report.h"

struct ci_report *ci_report_read(const char *path, char *err, size_t errlen)
{
    /* opened without blocking, so a FIFO is refused rather than waited on forever (an empty
     * device such as /dev/null still reads as an empty report) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
        snprintf(err, errlen, "%s: a FIFO, not a report file", path);
        close(fd);
        return NULL;
    }
    if (fd >= 0)
        (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct ci_report *r = xcalloc(1, sizeof *r);
    r->path = text_sanitize(path, false); /* it is printed in every message */
    r->exit_status = -1;
    int c;
    while ((c = getc(f)) != EOF && (c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
                                    c == 0xEF || c == 0xBB || c == 0xBF))
        ;
    int rc;
    if (c == EOF) {
        snprintf(err, errlen, "%s: empty: expected JUnit XML or a pytest log", path);
        rc = -1;
    } else if (c == '<') {
        r->junit = true;
        rewind(f);
        rc = ci_junit_read(r, f, err, errlen);
    } else {
        size_t len;
        char *text = file_read_all(path, &len, err, errlen);
        rc = text ? ci_pytest_parse(r, text, len, err, errlen) : -1;
        free(text);
    }
    fclose(f);
    if (rc != 0) {
        ci_report_free(r);
        return NULL;
    }
    return r;
}
