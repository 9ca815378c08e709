/* The watchdog's fair clock (engine/watchdog/fair_clock.h): a job that only waited for a core is given
 * its time back, a job that hangs still reaches its limit, and on an idle machine the clock is
 * the wall clock. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/watchdog/fair_clock.h"

static void assert_near(double got, double want)
{
    if (!(fabs(got - want) <= 1e-12))
        fail_msg("got %.17g, want %.17g", got, want);
}

static void test_share_idle_machine(void **state)
{
    (void)state;
    /* no more runnable tasks of others than cores: the wall clock */
    assert_near(eng_fair_share(0, 2), 1.0);
    assert_near(eng_fair_share(2, 2), 1.0);
    assert_near(eng_fair_share(9, 16), 1.0);
}

static void test_share_crowded_machine(void **state)
{
    (void)state;
    assert_near(eng_fair_share(4, 2), 0.5);   /* four others on two cores */
    assert_near(eng_fair_share(6, 3), 0.5);
    assert_near(eng_fair_share(3, 2), 2.0 / 3.0);
}

static void test_share_stretch_is_bounded(void **state)
{
    (void)state;
    /* a hang on a machine of a thousand busy tasks is still found, ENG_FAIR_MAX_STRETCH late */
    assert_near(eng_fair_share(1000, 2), 1.0 / ENG_FAIR_MAX_STRETCH);
    assert_near(eng_fair_share(2, 0), 1.0); /* no core count read: the wall clock */
}

static void test_clock_advances(void **state)
{
    (void)state;
    struct eng_fair_clock c;
    eng_fair_clock_start(&c, 0);
    double before = eng_fair_clock_now(&c);
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    double after = eng_fair_clock_now(&c);
    /* never faster than the wall clock, never slower than its bound */
    assert_true(after > before);
    assert_true(after - before <= 1.0);
    assert_true(after - before >= 0.02 / ENG_FAIR_MAX_STRETCH * 0.99);
}

/* The job's own runnable threads are found by its process group (and so left out of "others"):
 * a spinning child in a group of its own is counted, a group nobody is in is empty. */
static void test_group_running(void **state)
{
    (void)state;
    pid_t child = fork();
    if (child == 0) {
        setpgid(0, 0);
        for (volatile unsigned long i = 0;; i++)
            ;
    }
    assert_true(child > 0);
    setpgid(child, child);
    long seen = 0;
    for (int tries = 0; tries < 200 && !seen; tries++) { /* until it is on a core */
        seen = eng_fair_group_running(child);
        struct timespec nap = {0, 5 * 1000 * 1000};
        if (!seen)
            nanosleep(&nap, NULL);
    }
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    assert_true(seen >= 1);
    assert_int_equal(eng_fair_group_running(child), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_share_idle_machine),
        cmocka_unit_test(test_share_crowded_machine),
        cmocka_unit_test(test_share_stretch_is_bounded),
        cmocka_unit_test(test_clock_advances),
        cmocka_unit_test(test_group_running),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
