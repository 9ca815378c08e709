/* What a worker's death by a signal says about the kernel it ran. A process gets SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGTRAP or SIGSYS from its own faulting instruction and SIGABRT from
 * its own abort(): only these are a crash the kernel may have caused. Every other signal
 * (SIGKILL, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGPIPE, ...) was sent by another process
 * or by the system (a person's kill, the OOM killer, a batch system's limit): the check then
 * proved nothing about the kernel. The watchdog's own kill of a hung kernel is told apart
 * before this (eng_worker_result.killed). */
#ifndef KL_ENGINE_WATCHDOG_WORKER_SIGNAL_H
#define KL_ENGINE_WATCHDOG_WORKER_SIGNAL_H

#include <stdbool.h>

/* True for the signals of a process's own fault or abort. */
bool eng_signal_is_crash(int sig);
/* "SIGKILL", ...; "a signal" for one this file does not name. Static. */
const char *eng_signal_name(int sig);

#endif
