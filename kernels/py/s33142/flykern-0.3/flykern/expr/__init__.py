"""Expression builders (internal). buffer_ops moved to flykern._src in 0.3."""
