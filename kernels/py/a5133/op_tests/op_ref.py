"""Reference ops the op tests compare against (aiter-5133's reproducer)."""


def gemm(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]


def silu_mul(g, u):
    import math
    return [x / (1.0 + math.exp(-x)) * y for x, y in zip(g, u)]
