"""silu_mul op test written for pytest: no call site either."""
from op_ref import silu_mul


def test_silu_mul_zero():
    assert silu_mul([0.0], [5.0]) == [0.0]


def test_silu_mul_one():
    assert abs(silu_mul([1.0], [1.0])[0] - 0.7310585786) < 1e-9
