# A check in doubt through the pytest plugin (tests/python/doubt.sh): an op that differs from
# its reference only in rows whose inputs pass the output's declared domain. The contract
# promises nothing there, so the oracle can neither pass nor fail it.
import os

import numpy as np

import kladder


def clamp_ref(x):
    return (x * np.float32(0.5)).astype(np.float32)


def clamp(x):
    # the same op, saturating at 1e30 as some fused kernels do: equal wherever |x| < 2e30
    return np.clip(x * np.float32(0.5), np.float32(-1e30), np.float32(1e30)).astype(np.float32)


test_clamp = kladder.Case(clamp, clamp_ref, params={"M": 8, "N": 32}, rungs=(2,),
                          buffers={"x": kladder.In("f32", "M", "N"),
                                   "y": kladder.Out("f32", "M", "N", domain=1e6)},
                          settings={2: {"classes": ["distinct", "max-finite"]}},
                          tolerance=(1e-6, 1e-6), db=os.environ["KL_DB"], name="clamp-doubt")
