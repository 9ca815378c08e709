/* Loading a tensor file (importers/tensor.h): read whole, within IMP_TENSOR_FILE_MAX, and
 * handed to the .npy reader when it starts with the .npy magic, else to the safetensors one. */
#include "importers/tensor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

int imp_tensor_file_load(const char *path, struct imp_tensor_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    /* without blocking: a FIFO named as a tensor file would wait for a writer forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    FILE *fp = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!fp) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return imp_tensor_fail(err, errlen, path, NULL, "file", "cannot open: %s", strerror(e));
    }
    struct stat st;
    if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(fp);
        return imp_tensor_fail(err, errlen, path, NULL, "file", "expected a regular file");
    }
    if ((uint64_t)st.st_size > IMP_TENSOR_FILE_MAX) {
        fclose(fp);
        return imp_tensor_fail(err, errlen, path, NULL, "file",
                               "expected at most %llu bytes, got %llu",
                               (unsigned long long)IMP_TENSOR_FILE_MAX,
                               (unsigned long long)st.st_size);
    }
    size_t len = (size_t)st.st_size;
    unsigned char *buf = xmalloc(len ? len : 1);
    size_t got = fread(buf, 1, len, fp);
    fclose(fp);
    if (got != len) {
        free(buf);
        return imp_tensor_fail(err, errlen, path, NULL, "file", "read %zu of %zu bytes", got, len);
    }
    int rc;
    if (len >= 6 && !memcmp(buf, "\x93NUMPY", 6))
        rc = imp_npy_parse(buf, len, path, out, err, errlen);
    else
        rc = imp_safetensors_parse(buf, len, path, out, err, errlen);
    free(buf);
    return rc;
}
