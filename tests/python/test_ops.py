"""The ops of ops.py up the ladder through the pytest plugin (tests/python/ladder_ops.sh runs
it): every correct op at rungs 1, 2 and 5, each buggy one at the rung of its class. KL_DB names
the database the runs go to."""
import os

import ops

for _name in ops.OPS:
    for _which in ("fixed", "tail", "values", "repeat"):
        globals()["test_%s_%s" % (_name, _which)] = ops.case(_name, _which, os.environ["KL_DB"])

# A capture replayed by rung 2: attention-like logits as a model sends them (large, spread), kept
# as .npy beside the run; the softmax without its max subtracted overflows on them.
import numpy as np  # noqa: E402

_tmp = os.environ["KL_TMP"]
_rng = np.random.default_rng(7)
np.save(os.path.join(_tmp, "logits.npy"), (60 + 30 * _rng.standard_normal((4, 128))).astype(np.float32))
for _which in ("fixed", "values"):
    _c = ops.case("softmax", _which, os.environ["KL_DB"], rungs=(2,))
    _c.options.update(files=_tmp, name="softmax-capture-%s" % _which, settings={2: {
        "classes": ["zero-rows"], "inputs": [{"buffer": "x", "file": "logits.npy", "tensor": "logits"}]}})
    globals()["test_softmax_capture_%s" % _which] = _c
del _c
