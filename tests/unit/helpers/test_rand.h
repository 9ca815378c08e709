/* A deterministic generator for the tests' mutation loops (xorshift64), so a failure
 * reproduces: each test seeds it, then draws. */
#ifndef KL_TESTS_TEST_RAND_H
#define KL_TESTS_TEST_RAND_H

#include <stdint.h>

void test_rand_seed(uint64_t seed); /* nonzero */
uint64_t test_rand_next(void);

#endif
