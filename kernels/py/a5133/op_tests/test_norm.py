"""RMSNorm op test: its __main__ block calls one of its two tests."""
import math


def test_norm_unit():
    xs = [3.0, 4.0]
    s = 1.0 / math.sqrt(sum(x * x for x in xs) / 2)
    assert abs(xs[0] * s - 0.848528137) < 1e-6


def test_norm_zero_eps():
    assert 1.0 / math.sqrt(1.0 + 1e-6) < 1.0


if __name__ == "__main__":
    test_norm_unit()
