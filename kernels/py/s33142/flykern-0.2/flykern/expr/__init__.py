"""Expression builders (internal)."""
from flykern.expr import buffer_ops  # noqa: F401
