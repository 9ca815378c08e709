"""normkit: a downstream package of our own that uses flykern's fused kernels."""
