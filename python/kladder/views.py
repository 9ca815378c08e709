"""A check's buffers as arrays of the op's own kind, without copies: numpy arrays over the cpu
backend's memory, torch tensors over a GPU backend's (through __cuda_array_interface__).

bf16 and fp8e4m3 buffers are numpy uint16 / uint8 arrays of their raw bits (numpy has neither
type); in torch they are torch.bfloat16 / torch.float8_e4m3fn. f16 is numpy's float16 and
torch's float16.
"""
import ctypes
import math

import numpy as np

NUMPY = {"f32": np.float32, "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u8": np.uint8,
         "bf16": np.uint16, "fp8e4m3": np.uint8, "f16": np.float16}
TYPESTR = {"f32": "<f4", "i32": "<i4", "u32": "<u4", "i64": "<i8", "u8": "|u1", "bf16": "<u2",
           "fp8e4m3": "|u1", "f16": "<f2"}
FLOATS = ("f32", "bf16", "fp8e4m3", "f16")


def numpy_view(addr, dtype, padded, logical):
    """The logical part of a padded C-order buffer at host address addr."""
    n = math.prod(padded)
    t = np.dtype(NUMPY[dtype])
    raw = (ctypes.c_char * max(n * t.itemsize, 1)).from_address(addr)
    a = np.frombuffer(raw, dtype=t, count=n).reshape(padded)
    return a if padded == logical else a[tuple(slice(0, d) for d in logical)]


class _CudaBuffer:
    """What torch.as_tensor needs to wrap device memory it does not own."""

    def __init__(self, addr, dtype, shape):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": TYPESTR[dtype],
                                         "data": (addr, False), "version": 3, "strides": None,
                                         "stream": None}


def torch_view(addr, dtype, padded, logical):
    import torch
    t = torch.as_tensor(_CudaBuffer(addr, dtype, padded), device="cuda")
    if dtype == "bf16":
        t = t.view(torch.bfloat16)
    elif dtype == "fp8e4m3":
        t = t.view(torch.float8_e4m3fn)
    return t[tuple(slice(0, d) for d in logical)]


def wide(a):
    """An input for a float64 reference: a float64 copy of a float buffer, others as they are."""
    if isinstance(a, np.ndarray):
        return a.astype(np.float64) if a.dtype in (np.float32, np.float16) else a.copy()
    return a.double() if a.is_floating_point() else a.clone()


def store(dst, value):
    """value (an array, tensor or number) into the buffer view dst, cast to its dtype."""
    if isinstance(dst, np.ndarray):
        v = np.asarray(value)
        if v.shape != dst.shape:
            raise ValueError("an output of shape %s for a buffer of shape %s"
                             % (tuple(v.shape), tuple(dst.shape)))
        if v.dtype == dst.dtype:  # nothing to cast, nothing to warn about
            dst[...] = v
            return
        with np.errstate(all="ignore"):
            dst[...] = v.astype(dst.dtype, copy=False)
        return
    import torch
    v = value if isinstance(value, torch.Tensor) else torch.as_tensor(value)
    if tuple(v.shape) != tuple(dst.shape):
        raise ValueError("an output of shape %s for a buffer of shape %s"
                         % (tuple(v.shape), tuple(dst.shape)))
    dst.copy_(v.to(device=dst.device, dtype=dst.dtype))
