"""The ops of ops.py up the ladder through the pytest plugin (tests/python/ladder_ops.sh runs
it): every correct op at rungs 1, 2 and 5, each buggy one at the rung of its class. KL_DB names
the database the runs go to."""
import os

import pytest

import kladder
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


# The fixture inside a test of the usual kind: the correct softmax passes two classes, the one
# without its max subtracted fails the test naming the class.
def _softmax_two_classes(ladder, which):
    o = ops.OPS["softmax"]
    return ladder(o[which], o["reference"], o["params"], o["buffers"], rungs=(2,),
                  settings={2: {"classes": ["ties", "large-mean"]}}, tolerance=o["tolerance"],
                  db=os.environ["KL_DB"], name="softmax-fixture-%s" % which)


def test_fixture_passes(kladder_ladder):
    assert _softmax_two_classes(kladder_ladder, "fixed").verdict == "pass"


def test_fixture_fails(kladder_ladder):
    with pytest.raises(kladder.LadderFailure, match=r"1 of 2 checks failed:\nrung 2 check "
                       r"large-mean \(value class large-mean"):
        _softmax_two_classes(kladder_ladder, "values")
