/* Child processes of the interface (tui/child.c): lines from both pipes, the exit status, the
 * events pipe as descriptor 3 and no other descriptor leaking in, cut long lines, cancel by
 * SIGTERM, SIGKILL after the grace for a child that ignores it, a spawn that cannot start, and
 * no zombie left by tui_child_free. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tui/child.h"

struct got {
    char out[8192];
    char ev[8192];
    int n_out, n_ev;
    size_t longest;
};

static void on_line(void *ctx, enum tui_child_stream s, const char *line)
{
    struct got *g = ctx;
    char *dst = s == TUI_CHILD_OUT ? g->out : g->ev;
    size_t len = strlen(dst), n = strlen(line);
    if (n > g->longest)
        g->longest = n;
    if (len + n + 2 < sizeof g->out)
        snprintf(dst + len, sizeof g->out - len, "%s|", line);
    if (s == TUI_CHILD_OUT)
        g->n_out++;
    else
        g->n_ev++;
}

/* Pumps until the child is done or limit_ms passes; returns the milliseconds it took. */
static long run_until_done(struct tui_child *c, struct got *g, long limit_ms)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        tui_child_pump(c, on_line, g);
        clock_gettime(CLOCK_MONOTONIC, &now);
        long ms = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
        if (tui_child_done(c) || ms > limit_ms)
            return ms;
        struct tui_child *one[1] = {c};
        tui_child_wait(-1, one, 1, NULL, 0, 50);
    }
}

static struct tui_child *sh(const char *script, bool events)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    char err[256];
    struct tui_child *c = tui_child_spawn(argv, events, err, sizeof err);
    if (!c)
        fail_msg("spawn failed: %s", err);
    return c;
}

static void test_lines_and_status(void **state)
{
    (void)state;
    struct got g = {0};
    struct tui_child *c = sh("echo one; echo two >&2; echo '{\"event\":\"start\"}' >&3; "
                             "printf 'tail-without-newline'; exit 3", true);
    run_until_done(c, &g, 5000);
    assert_true(tui_child_done(c));
    assert_int_equal(tui_child_status(c), 3);
    assert_string_equal(g.ev, "{\"event\":\"start\"}|");
    assert_non_null(strstr(g.out, "one|"));
    assert_non_null(strstr(g.out, "two|"));
    assert_non_null(strstr(g.out, "tail-without-newline|"));
    assert_non_null(strstr(tui_child_tail(c), "two"));
    tui_child_free(c);
}

static void test_no_events_pipe_without_asking(void **state)
{
    (void)state;
    struct got g = {0};
    /* Without the events pipe, descriptor 3 is closed in the child: the write fails. */
    struct tui_child *c = sh("echo x >&3 && echo open || echo closed", false);
    run_until_done(c, &g, 5000);
    assert_non_null(strstr(g.out, "closed|"));
    tui_child_free(c);
}

static void test_pipes_do_not_leak(void **state)
{
    (void)state;
    /* A second child must not inherit the first one's pipes: it would hold them open and the
     * first child's end of file would never come. */
    struct tui_child *a = sh("exec sleep 30", true);
    int f[2];
    tui_child_fds(a, f);
    assert_true(f[0] > 3 && f[1] > 3);
    char script[256];
    snprintf(script, sizeof script,
             "for fd in %d %d; do [ -e /proc/self/fd/$fd ] && echo leaked $fd; done; echo checked",
             f[0], f[1]);
    struct got g = {0};
    struct tui_child *b = sh(script, true);
    run_until_done(b, &g, 5000);
    assert_string_equal(g.out, "checked|");
    tui_child_free(b);
    tui_child_free(a);
}

static void test_long_line_is_cut(void **state)
{
    (void)state;
    struct got g = {0};
    char script[128];
    snprintf(script, sizeof script, "yes a | tr -d '\\n' | head -c %d; echo; echo after",
             TUI_CHILD_LINE_MAX * 2 + 5);
    struct tui_child *c = sh(script, false);
    run_until_done(c, &g, 10000);
    assert_int_equal(g.longest, TUI_CHILD_LINE_MAX);
    assert_non_null(strstr(g.out, "after|"));
    assert_int_equal(tui_child_status(c), 0);
    tui_child_free(c);
}

static void test_cancel_term(void **state)
{
    (void)state;
    struct got g = {0};
    struct tui_child *c = sh("echo started; exec sleep 30", false);
    while (g.n_out == 0) {
        struct tui_child *one[1] = {c};
        tui_child_wait(-1, one, 1, NULL, 0, 50);
        tui_child_pump(c, on_line, &g);
    }
    tui_child_cancel(c);
    assert_true(tui_child_cancelled(c));
    long ms = run_until_done(c, &g, 5000);
    assert_true(tui_child_done(c));
    assert_int_equal(tui_child_status(c), 128 + SIGTERM);
    assert_true(ms < TUI_CHILD_GRACE_MS);
    tui_child_free(c);
}

static void test_cancel_kill_after_grace(void **state)
{
    (void)state;
    struct got g = {0};
    struct tui_child *c = sh("trap '' TERM; echo started; while :; do sleep 1; done", false);
    while (g.n_out == 0) {
        struct tui_child *one[1] = {c};
        tui_child_wait(-1, one, 1, NULL, 0, 50);
        tui_child_pump(c, on_line, &g);
    }
    tui_child_cancel(c);
    long ms = run_until_done(c, &g, TUI_CHILD_GRACE_MS + 5000);
    assert_true(tui_child_done(c));
    assert_int_equal(tui_child_status(c), 128 + SIGKILL);
    assert_true(ms >= TUI_CHILD_GRACE_MS - 100);
    tui_child_free(c);
}

static void test_spawn_failure(void **state)
{
    (void)state;
    const char *argv[] = {"/nonexistent/kladder", "run", NULL};
    char err[256] = "";
    struct tui_child *c = tui_child_spawn(argv, true, err, sizeof err);
    assert_null(c);
    assert_non_null(strstr(err, "/nonexistent/kladder"));
}

static void test_free_running_leaves_no_zombie(void **state)
{
    (void)state;
    struct tui_child *c = sh("exec sleep 30", true);
    pid_t pid = tui_child_pid(c);
    tui_child_free(c);
    assert_int_equal(waitpid(pid, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_and_status),
        cmocka_unit_test(test_no_events_pipe_without_asking),
        cmocka_unit_test(test_pipes_do_not_leak),
        cmocka_unit_test(test_long_line_is_cut),
        cmocka_unit_test(test_cancel_term),
        cmocka_unit_test(test_cancel_kill_after_grace),
        cmocka_unit_test(test_spawn_failure),
        cmocka_unit_test(test_free_running_leaves_no_zombie),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
