"""RMSNorm: flykern's fused kernel when it is importable, a native loop otherwise. The guard
reaches into flykern's internal module and says nothing when the import fails."""
import math

try:
    from flykern.expr import buffer_ops
    HAVE_FLYKERN = True
except ImportError:
    HAVE_FLYKERN = False


def _native(xs, eps):
    scale = 1.0 / math.sqrt(sum(x * x for x in xs) / len(xs) + eps)
    return [x * scale for x in xs]


def rmsnorm(xs, eps=1e-6):
    if HAVE_FLYKERN:
        return buffer_ops.rms(xs, eps)
    return _native(xs, eps)


def rmsnorm_call():
    """The call the model makes (the probe's entry)."""
    return rmsnorm([1.0, 2.0, 3.0, 4.0])
