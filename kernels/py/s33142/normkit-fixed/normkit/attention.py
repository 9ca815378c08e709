"""Attention's gather through flykern's public API."""
from flykern.api import buffer_load


def gather(xs, idx):
    return [buffer_load(xs, i) for i in idx]


def gather_call():
    """The call the model makes (the probe's entry)."""
    return gather([1.0, 2.0, 3.0], [2, 0, 5])
