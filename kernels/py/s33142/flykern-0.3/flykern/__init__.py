"""flykern 0.3: a kernel library of our own (sglang-33142's reproducer). Its public API is
flykern.api; flykern.expr.buffer_ops is internal surface that 0.3 moved it to flykern._src, which is not public either."""
__version__ = "0.3.0"
