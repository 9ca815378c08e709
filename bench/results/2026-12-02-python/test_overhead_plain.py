"""The plain pytest loop of overhead.py as a pytest file: one test per value class's stand-in,
random device inputs, the op, the float64 reference, assert_close (run.sh times it beside the
kladder case of test_overhead_kladder.py)."""
import pytest
import torch

import overhead
import ops_triton as T


@pytest.mark.parametrize("k", range(overhead.CLASSES))
def test_softmax_plain(k):
    x = overhead.plain_inputs(k)
    y = torch.empty_like(x)
    T.softmax(x, y)
    torch.testing.assert_close(y, T.softmax_ref(x.double()).float(), atol=1e-6, rtol=1e-5)
