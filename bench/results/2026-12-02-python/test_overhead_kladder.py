"""The kladder side of overhead.py as a pytest file: rung 2 on the same op, one item per value
class."""
import os

import kladder
import ops_triton as T
import overhead

test_softmax_rung2 = kladder.Case(T.softmax, T.softmax_ref,
                                  params={"M": overhead.M, "N": overhead.N}, buffers=T.ROWS,
                                  rungs=(2,), tolerance=(1e-6, 1e-5), backend="cuda",
                                  db=os.environ["KL_DB"], name="overhead-softmax-pytest")
