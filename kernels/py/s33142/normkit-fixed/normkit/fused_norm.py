"""RMSNorm through flykern's public API, present in every release."""
from flykern.api import rms_fused


def rmsnorm(xs, eps=1e-6):
    return rms_fused(xs, eps)


def rmsnorm_call():
    """The call the model makes (the probe's entry)."""
    return rmsnorm([1.0, 2.0, 3.0, 4.0])
