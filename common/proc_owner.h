/* Who owns a run: the process that records it, named so that a later process can tell whether
 * that owner is still alive. A pid alone is not enough: pids are reused, and a reboot restarts
 * them. So an owner is its host name, the kernel's boot id (/proc/sys/kernel/random/boot_id), its
 * pid and its start time in clock ticks after boot (/proc/PID/stat, field 22): a living process
 * with the same pid and start time on the same boot is the same process. The pid namespace is
 * kept too: two containers that share a host name, a kernel and a database file see different
 * pids, and neither can judge the other's. */
#ifndef KL_COMMON_PROC_OWNER_H
#define KL_COMMON_PROC_OWNER_H

#include <stdint.h>

struct kl_owner {
    char host[256];    /* gethostname(); "" unknown */
    char boot_id[40];  /* 36-char UUID text; "" unknown (no /proc) */
    int64_t pid;       /* 0 unknown */
    int64_t start;     /* ticks after boot; -1 unknown */
    char pid_ns[40];   /* /proc/self/ns/pid's target, "pid:[4026531836]"; "" unknown */
};

/* The calling process. Fields that cannot be read are left unknown. */
void kl_owner_self(struct kl_owner *o);

enum kl_owner_state {
    KL_OWNER_ALIVE,   /* the same process still runs */
    KL_OWNER_GONE,    /* it has ended: its pid is dead or reused, or the host has rebooted */
    KL_OWNER_UNKNOWN, /* cannot be told from here: another host or pid namespace, or the
                         identity is incomplete */
};

/* Whether owner o still runs, seen from `here` (normally kl_owner_self). Only a process on the
 * same host can be judged; a different boot id there means a reboot ended it. */
enum kl_owner_state kl_owner_state(const struct kl_owner *o, const struct kl_owner *here);

#endif
