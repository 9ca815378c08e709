"""Grouped GEMM op test written for pytest: test functions and no call site, so `python3 FILE`
defines them, runs none of them and exits 0."""
import pytest

from op_ref import gemm


def _grouped(groups):
    return [gemm(a, b) for a, b in groups]


@pytest.mark.parametrize("n", [1, 2, 4])
def test_grouped_sizes(n):
    groups = [([[1] * n], [[1]] * n)]
    assert _grouped(groups) == [[[n]]]


def test_grouped_empty():
    assert _grouped([]) == []


def test_grouped_two():
    assert _grouped([([[1]], [[2]]), ([[3]], [[4]])]) == [[[2]], [[12]]]


class TestGroupedLayouts:
    def test_row_major(self):
        assert gemm([[1, 0]], [[5], [6]]) == [[5]]

    def test_col_major(self):
        assert gemm([[0, 1]], [[5], [6]]) == [[6]]
