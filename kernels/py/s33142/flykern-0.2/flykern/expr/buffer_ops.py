"""Buffer loads and the fused RMS kernel's host entry (internal)."""
import math


def load(xs, i):
    return xs[i] if 0 <= i < len(xs) else 0.0


def rms(xs, eps=1e-6):
    scale = 1.0 / math.sqrt(sum(x * x for x in xs) / len(xs) + eps)
    return [x * scale for x in xs]
