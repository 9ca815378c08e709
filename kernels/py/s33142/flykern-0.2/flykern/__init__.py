"""flykern 0.2: a kernel library of our own (sglang-33142's reproducer). Its public API is
flykern.api; flykern.expr.buffer_ops is internal surface that callers reached into anyway."""
__version__ = "0.2.0"
