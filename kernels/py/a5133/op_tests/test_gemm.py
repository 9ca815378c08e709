"""GEMM op test in the old style: its __main__ block calls every test, so running the file as a
script runs them all."""
from op_ref import gemm


def test_gemm_identity():
    assert gemm([[1, 2], [3, 4]], [[1, 0], [0, 1]]) == [[1, 2], [3, 4]]


def test_gemm_square():
    assert gemm([[2]], [[3]]) == [[6]]


if __name__ == "__main__":
    test_gemm_identity()
    test_gemm_square()
