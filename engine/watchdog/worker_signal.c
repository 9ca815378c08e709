#include "engine/watchdog/worker_signal.h"

#include <signal.h>
#include <stddef.h>

static const struct {
    int sig;
    const char *name;
    bool crash;
} signals[] = {
    {SIGSEGV, "SIGSEGV", true}, {SIGBUS, "SIGBUS", true},   {SIGFPE, "SIGFPE", true},
    {SIGILL, "SIGILL", true},   {SIGTRAP, "SIGTRAP", true}, {SIGSYS, "SIGSYS", true},
    {SIGABRT, "SIGABRT", true}, {SIGKILL, "SIGKILL", false}, {SIGTERM, "SIGTERM", false},
    {SIGINT, "SIGINT", false},  {SIGHUP, "SIGHUP", false},  {SIGQUIT, "SIGQUIT", false},
    {SIGUSR1, "SIGUSR1", false}, {SIGUSR2, "SIGUSR2", false}, {SIGPIPE, "SIGPIPE", false},
    {SIGALRM, "SIGALRM", false}, {SIGXCPU, "SIGXCPU", false}, {SIGXFSZ, "SIGXFSZ", false},
};

bool eng_signal_is_crash(int sig)
{
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        if (signals[i].sig == sig)
            return signals[i].crash;
    return false;
}

const char *eng_signal_name(int sig)
{
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        if (signals[i].sig == sig)
            return signals[i].name;
    return "a signal";
}
