"""Triton kernels and a torch op of our own for the Python ladder on the H200 (run.sh). Each has
a correct version and a buggy one; the ladder must catch every buggy one at its rung and pass
every correct one:

  softmax     no row maximum subtracted: exp overflows on large values      rung 2
  topk        ties broken towards the highest index instead of the lowest   rung 2
  rowsum      the tail chunk loaded without its mask (reads past the row)   rung 1
  rowsum_split  split over N with float atomics: the order varies per run   rung 5
  torch_layernorm  variance as E[x^2] - E[x]^2 in torch: cancels on a large mean  rung 2
  torch_segsum index_add_ of a row's values (atomics): order varies per run rung 5
"""
import torch
import triton
import triton.language as tl

import kladder
from kladder import In, Out


# ---- softmax ---------------------------------------------------------------------------------

@triton.jit
def _softmax_kernel(y_ptr, x_ptr, N, BLOCK: tl.constexpr, SUB_MAX: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=-float("inf"))
    if SUB_MAX:
        x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * N + cols, e / tl.sum(e, axis=0), mask=cols < N)


def _softmax(x, y, sub_max):
    M, N = x.shape
    _softmax_kernel[(M,)](y, x, N, BLOCK=triton.next_power_of_2(N), SUB_MAX=sub_max)


def softmax(x, y):
    _softmax(x, y, True)


def softmax_bug(x, y):
    _softmax(x, y, False)


def softmax_ref(x):
    return torch.softmax(x, dim=-1)


# ---- top-k -------------------------------------------------------------------------------------

@triton.jit
def _topk_kernel(idx_ptr, val_ptr, x_ptr, N, K: tl.constexpr, BLOCK: tl.constexpr,
                 TIE_LOW: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=-float("inf"))
    for k in tl.static_range(K):
        m = tl.max(x, axis=0)
        if TIE_LOW:
            i = tl.min(tl.where((x == m) & (cols < N), cols, BLOCK), axis=0)
        else:
            i = tl.max(tl.where((x == m) & (cols < N), cols, -1), axis=0)
        tl.store(idx_ptr + row * K + k, i)
        tl.store(val_ptr + row * K + k, m)
        x = tl.where(cols == i, -float("inf"), x)


def _topk(x, idx, val, K, tie_low):
    M, N = x.shape
    _topk_kernel[(M,)](idx, val, x, N, K=K, BLOCK=triton.next_power_of_2(N), TIE_LOW=tie_low)


def topk(x, idx, val, K):
    _topk(x, idx, val, K, True)


def topk_bug(x, idx, val, K):
    _topk(x, idx, val, K, False)


def topk_ref(x, K):
    v, i = torch.sort(x, dim=-1, descending=True, stable=True)  # ties: the lowest index first
    return i[:, :K].to(torch.int32), v[:, :K]


# ---- row sums: a tail bug, and a split with atomics ------------------------------------------

@triton.jit
def _rowsum_kernel(out_ptr, x_ptr, N, BLOCK: tl.constexpr, MASK_TAIL: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        if MASK_TAIL:
            acc += tl.load(x_ptr + row * N + off + cols, mask=off + cols < N, other=0.0)
        else:
            acc += tl.load(x_ptr + row * N + off + cols)  # the tail chunk reads past the row
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def rowsum(x, out, BLOCK):
    _rowsum_kernel[(x.shape[0],)](out, x, x.shape[1], BLOCK=BLOCK, MASK_TAIL=True)


def rowsum_bug(x, out, BLOCK):
    _rowsum_kernel[(x.shape[0],)](out, x, x.shape[1], BLOCK=BLOCK, MASK_TAIL=False)


@triton.jit
def _rowsum_split_kernel(out_ptr, x_ptr, N, BLOCK: tl.constexpr):
    row, part = tl.program_id(0), tl.program_id(1)
    cols = part * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0), axis=0)
    tl.atomic_add(out_ptr + row, s)  # the parts land in whatever order they finish


def rowsum_split_bug(x, out, BLOCK):
    out.zero_()
    M, N = x.shape
    _rowsum_split_kernel[(M, triton.cdiv(N, BLOCK))](out, x, N, BLOCK=BLOCK)


def rowsum_ref(x):
    return x.sum(dim=-1)


# ---- torch ops -------------------------------------------------------------------------------

def torch_layernorm(x):
    return torch.nn.functional.layer_norm(x, x.shape[-1:], eps=1e-5)


def torch_layernorm_bug(x):
    mean = x.mean(dim=-1, keepdim=True)
    var = (x * x).mean(dim=-1, keepdim=True) - mean * mean  # cancels when the mean is large
    return (x - mean) / torch.sqrt(var + 1e-5)


def torch_layernorm_ref(x):
    return torch.nn.functional.layer_norm(x, x.shape[-1:], eps=1e-5)


def torch_segsum(x):
    return x.sum(dim=-1)


def torch_segsum_bug(x):
    M, N = x.shape
    seg = torch.arange(M, device=x.device).repeat_interleave(N)
    out = torch.zeros(M, device=x.device, dtype=x.dtype)
    return out.index_add_(0, seg, x.reshape(-1))  # float atomics: the order varies per run


# ---- the cases ---------------------------------------------------------------------------------

ROWS = {"x": In("f32", "M", "N"), "y": Out("f32", "M", "N")}
SUMS = {"x": In("f32", "M", "N"), "out": Out("f32", "M", reduce="N")}
NORM = {"x": In("f32", "M", "N"), "y": Out("f32", "M", "N", reduce="N", kind="normalized")}
TOPK = {"x": In("f32", "M", "N"),
        # the kernel never picks a NaN (tl.max skips it) where torch.sort takes it as the
        # largest: rows holding NaN are judged by that rule, their values not at all
        "idx": Out("i32", "M", "K", nan_pick="never"),
        "val": Out("f32", "M", "K", nonfinite="any")}
ALL = (1, 2, 5)
EXTRA = {1: {"extra": [{"name": "n1", "N": 1}, {"name": "n1000", "N": 1000},
                       {"name": "n4097", "N": 4097}]}}
TOPK_EXTRA = {1: {"extra": [{"name": "n8", "N": 8}, {"name": "n1000", "N": 1000}]}}
TAILS = {1: {"tail_dims": {"BLOCK": "N"}, "extra": [{"name": "n1", "N": 1}]}}

# name: (op, reference, params, buffers, tolerance, settings, the rung a bug is caught at)
CASES = {
    "softmax": (softmax, softmax_bug, softmax_ref, {"M": 64, "N": 1024}, ROWS, (1e-6, 1e-5),
                {}, 2),
    "topk": (topk, topk_bug, topk_ref, {"M": 64, "N": 256, "K": 8}, TOPK, (0, 0), TOPK_EXTRA, 2),
    "rowsum": (rowsum, rowsum_bug, rowsum_ref, {"M": 64, "N": 1024, "BLOCK": 128}, SUMS,
               (1e-6, 1e-6), TAILS, 1),
    "rowsum_split": (rowsum, rowsum_split_bug, rowsum_ref, {"M": 64, "N": 8192, "BLOCK": 128},
                     SUMS, (1e-6, 1e-6), TAILS, 5),
    "torch_layernorm": (torch_layernorm, torch_layernorm_bug, torch_layernorm_ref,
                        {"M": 64, "N": 1024}, NORM, (1e-6, 1e-6), {}, 2),
    "torch_segsum": (torch_segsum, torch_segsum_bug, rowsum_ref, {"M": 64, "N": 8192}, SUMS,
                     (1e-6, 1e-6), {}, 5),
}


def case(name, which, db):
    op, bug, ref, params, buffers, tol, settings, rung = CASES[name]
    tiles = {"BLOCK": [params["BLOCK"]]} if "BLOCK" in params else None
    s = {**EXTRA, **settings}
    s.setdefault(5, {"repeats": 200})
    return kladder.Case(op if which == "fixed" else bug, ref, params=params, buffers=buffers,
                        rungs=ALL, settings=s, tiles=tiles, tolerance=tol, backend="cuda",
                        db=db, name="%s-%s" % (name, which))
