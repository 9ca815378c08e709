"""Attention's gather: imports flykern's internal module inside the call, unguarded."""


def gather(xs, idx):
    from flykern.expr import buffer_ops
    return [buffer_ops.load(xs, i) for i in idx]


def gather_call():
    """The call the model makes (the probe's entry)."""
    return gather([1.0, 2.0, 3.0], [2, 0, 5])
