"""kladder from Python: an op (numpy on the cpu backend, torch or Triton on cuda) sent up
kladder's ladder against a reference, its checks judged by kladder's oracles and recorded in
kladder's database (docs/python.md).

    import kladder
    report = kladder.ladder(my_softmax, softmax_f64, params={"M": 8, "N": 256},
                            buffers={"x": kladder.In("f32", "M", "N"),
                                     "y": kladder.Out("f32", "M", "N")},
                            rungs=(2, 5), settings={5: {"repeats": 20}})
    report.raise_for_failures()

For pytest, kladder.Case(...) at a test module's top level becomes one test per check under
`pytest -p kladder.pytest_plugin`.
"""
from kladder._lib import KladderError
from kladder.ladder import (CheckResult, In, Ladder, LadderFailure, Out, Report,
                            ladder)


def rung_unavailable(rung):
    """None when an op of ours can have the rung, else why not."""
    from kladder import _lib
    return _lib.text(_lib.lib().kl_rung_unavailable(int(rung)))


class Case:
    """An op's ladder as pytest tests: each check becomes one test item (pytest_plugin.py).
    Takes kladder.ladder()'s arguments."""

    def __init__(self, op, reference, params, buffers, rungs=(1, 2, 5), **options):
        self.op, self.reference, self.params, self.buffers = op, reference, params, buffers
        self.rungs, self.options = tuple(rungs), options

    def make(self, **extra):
        return Ladder(self.op, self.reference, self.params, self.buffers, self.rungs,
                      **dict(self.options, **extra))


__all__ = ["Case", "CheckResult", "In", "KladderError", "Ladder", "LadderFailure", "Out",
           "Report", "ladder", "rung_unavailable"]
