#include "common/proc_owner.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* Reads /proc/PID/stat: the start time, and whether the process has ended but is not yet
 * reaped (state Z or X: it will record nothing more). -1: no such process, or unreadable. */
static int64_t read_stat(int64_t pid, int *ended)
{
    *ended = 0;
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%lld/stat", (long long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The command name (field 2) is in parentheses and may hold spaces or ')': the fields after
     * it start after the last ')'. */
    char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    p++;
    /* after ')': field 3 (state) is the first; start time is field 22, the 20th from here */
    long long start = -1;
    for (int field = 3; field <= 22; field++) {
        while (*p == ' ')
            p++;
        if (!*p)
            return -1;
        if (field == 3)
            *ended = *p == 'Z' || *p == 'X';
        if (field == 22) {
            if (sscanf(p, "%lld", &start) != 1)
                return -1;
            break;
        }
        while (*p && *p != ' ')
            p++;
    }
    return start;
}

/* Start time of process pid in ticks after boot, or -1 when it does not exist (or /proc cannot
 * say). */
static int64_t kl_proc_start_ticks(int64_t pid)
{
    int ended;
    return read_stat(pid, &ended);
}

void kl_owner_self(struct kl_owner *o)
{
    memset(o, 0, sizeof *o);
    if (gethostname(o->host, sizeof o->host - 1) != 0)
        o->host[0] = '\0';
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(o->boot_id, sizeof o->boot_id, f))
            o->boot_id[0] = '\0';
        o->boot_id[strcspn(o->boot_id, "\n")] = '\0';
        fclose(f);
    }
    ssize_t n = readlink("/proc/self/ns/pid", o->pid_ns, sizeof o->pid_ns - 1);
    o->pid_ns[n > 0 ? n : 0] = '\0';
    o->pid = (int64_t)getpid();
    o->start = kl_proc_start_ticks(o->pid);
}

enum kl_owner_state kl_owner_state(const struct kl_owner *o, const struct kl_owner *here)
{
    if (!o->host[0] || !o->boot_id[0] || o->pid <= 0 || !here->host[0] || !here->boot_id[0] ||
        strcmp(o->host, here->host) != 0)
        return KL_OWNER_UNKNOWN;
    if (strcmp(o->boot_id, here->boot_id) != 0)
        return KL_OWNER_GONE;
    if (o->pid_ns[0] && here->pid_ns[0] && strcmp(o->pid_ns, here->pid_ns) != 0)
        return KL_OWNER_UNKNOWN; /* its pid means another process here */
    if (kill((pid_t)o->pid, 0) != 0 && errno == ESRCH)
        return KL_OWNER_GONE;
    int ended;
    int64_t start = read_stat(o->pid, &ended);
    if (start >= 0 && ended && start == o->start)
        return KL_OWNER_GONE; /* killed, waiting for its parent to reap it */
    if (start < 0) /* no /proc entry: it ended between the two looks */
        return kill((pid_t)o->pid, 0) != 0 && errno == ESRCH ? KL_OWNER_GONE : KL_OWNER_UNKNOWN;
    if (o->start >= 0 && start != o->start)
        return KL_OWNER_GONE; /* the pid now belongs to another process */
    return o->start >= 0 ? KL_OWNER_ALIVE : KL_OWNER_UNKNOWN;
}
