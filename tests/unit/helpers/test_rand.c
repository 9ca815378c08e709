#include "tests/unit/helpers/test_rand.h"

static uint64_t state = 0x9e3779b97f4a7c15ull;

void test_rand_seed(uint64_t seed)
{
    state = seed ? seed : 1;
}

uint64_t test_rand_next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}
