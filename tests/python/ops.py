"""numpy ops of our own for the Python ladder's tests (tests/python/ladder_ops.sh): a row softmax,
a top-k, an fp8-style quantizer and a chunked sum. Each has a float64 reference, a correct
implementation written differently from it (blockwise, as a kernel would be), and three buggy
ones, one per class of bug the ladder's rungs catch:

  tail    a shape bug: the partial last block is handled wrongly (rung 1's tail shapes)
  values  a value bug: right on random normal inputs, wrong on what models send (rung 2)
  repeat  a repeat bug: right on its first call, different on a later one (rung 5)

OPS[name] describes each op for kladder.ladder(): params, buffers, tiles, settings, tolerance.
"""
import itertools

import numpy as np

import kladder
from kladder import In, Out

_calls = itertools.count()  # what a repeat bug varies with: how often an op has been called


def quiet(fn):
    """numpy's overflow and NaN warnings off: the oracles judge the values."""
    def run(*a, **k):
        with np.errstate(all="ignore"):
            return fn(*a, **k)
    run.__name__ = fn.__name__
    run.__signature__ = __import__("inspect").signature(fn)
    return run


# ---- row softmax -----------------------------------------------------------------------------

@quiet
def softmax_ref(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _softmax_online(x, BLOCK, end, sum_rows=lambda e: e.sum(axis=-1, keepdims=True)):
    """Online softmax over blocks [0, end): running max and rescaled running sum."""
    m = np.full((x.shape[0], 1), -np.inf, np.float32)
    s = np.zeros((x.shape[0], 1), np.float32)
    for c in range(0, end, BLOCK):
        blk = x[:, c:c + BLOCK]
        m_new = np.maximum(m, blk.max(axis=-1, keepdims=True))
        s = s * np.exp(m - m_new) + sum_rows(np.exp(blk - m_new))
        m = m_new
    return np.exp(x - m) / s


@quiet
def softmax(x, BLOCK):
    return _softmax_online(x, BLOCK, x.shape[1])


@quiet
def softmax_tail_bug(x, BLOCK):
    return _softmax_online(x, BLOCK, x.shape[1] - x.shape[1] % BLOCK)


@quiet
def softmax_values_bug(x):
    e = np.exp(x)  # without the row maximum subtracted: overflows on large values
    return e / e.sum(axis=-1, keepdims=True)


@quiet
def softmax_repeat_bug(x, BLOCK):
    # the row sums in an order that changes from call to call (as atomics would)
    shift = next(_calls)
    return _softmax_online(x, BLOCK, x.shape[1],
                           lambda e: np.roll(e, shift % e.shape[1], axis=-1).sum(axis=-1, keepdims=True))


# ---- top-k -------------------------------------------------------------------------------------

def topk_ref(x, K):
    idx = np.argsort(-x, axis=-1, kind="stable")[:, :K]  # ties: the lowest index first
    return idx.astype(np.int32), np.take_along_axis(x, idx, axis=-1)


def _topk_blocks(x, K, BLOCK, end, tie_low=True):
    """Top-K of each block, then the candidates merged by (value, index)."""
    cand = []
    for c in range(0, end, BLOCK):
        i = np.argsort(-x[:, c:c + BLOCK], axis=-1, kind="stable")[:, :K] + c
        cand.append(i)
    cand = np.concatenate(cand, axis=-1)
    val = np.take_along_axis(x, cand, axis=-1)
    out = np.empty((x.shape[0], K), np.int64)
    for r in range(x.shape[0]):
        order = np.lexsort((cand[r] if tie_low else -cand[r], -val[r]))
        out[r] = cand[r][order][:K]
    return out.astype(np.int32), np.take_along_axis(x, out, axis=-1)


def topk(x, K, BLOCK):
    return _topk_blocks(x, K, BLOCK, x.shape[1])


def topk_tail_bug(x, K, BLOCK):
    return _topk_blocks(x, K, BLOCK, x.shape[1] - x.shape[1] % BLOCK)


def topk_values_bug(x, K, BLOCK):
    return _topk_blocks(x, K, BLOCK, x.shape[1], tie_low=False)  # ties: the highest index


_topk_done = set()


def topk_repeat_bug(x, idx, val, K, BLOCK):
    # skips the work when it has seen this input's address: stale on a second call
    if x.ctypes.data in _topk_done:
        return
    _topk_done.add(x.ctypes.data)
    idx[...], val[...] = topk(x, K, BLOCK)


# ---- fp8-style quantizer -------------------------------------------------------------------

E4M3_MAX = 448.0


@quiet
def _e4m3_round_log2(y):
    a = np.abs(y)
    step = 2.0 ** (np.floor(np.log2(np.maximum(a, 2.0 ** -6))) - 3)
    return np.sign(y) * np.minimum(np.round(a / step) * step, E4M3_MAX)


@quiet
def quant_ref(x):
    amax = np.abs(x).max(axis=-1)
    scale = np.where(amax > 0, amax / E4M3_MAX, 1.0)
    return _e4m3_round_log2(x / scale[:, None]), scale


@quiet
def _e4m3_round_frexp(y):
    """The same rounding from frexp's exponent instead of log2."""
    a = np.abs(y)
    _, e = np.frexp(a)  # a = m * 2^e, m in [0.5, 1)
    step = np.ldexp(1.0, np.maximum(e - 1, -6) - 3)
    return np.copysign(np.minimum(np.round(a / step) * step, E4M3_MAX), y)


def _row_amax(x, BLOCK, end):
    amax = np.zeros(x.shape[0])
    for c in range(0, end, BLOCK):
        amax = np.fmax(amax, np.abs(x[:, c:c + BLOCK].astype(np.float64)).max(axis=-1))
    nan = np.isnan(x[:, :end]).any(axis=-1)
    return np.where(nan, np.nan, amax)


@quiet
def quant(x, q, scale, BLOCK):
    amax = _row_amax(x, BLOCK, x.shape[1])
    s = np.where(amax > 0, amax / E4M3_MAX, 1.0)
    q[...] = _e4m3_round_frexp(x / s[:, None])
    scale[...] = s


@quiet
def quant_tail_bug(x, q, scale, BLOCK):
    end = x.shape[1] - x.shape[1] % BLOCK  # the partial block is neither measured nor written
    amax = _row_amax(x, BLOCK, end)
    s = np.where(amax > 0, amax / E4M3_MAX, 1.0)
    q[:, :end] = _e4m3_round_frexp(x[:, :end] / s[:, None])
    scale[...] = s


@quiet
def quant_values_bug(x, q, scale, BLOCK):
    amax = _row_amax(x, BLOCK, x.shape[1])
    s = amax / E4M3_MAX  # an all-zero row divides 0 by 0
    q[...] = _e4m3_round_frexp(x / s[:, None])
    scale[...] = s


@quiet
def quant_repeat_bug(x, q, scale, BLOCK):
    quant(x, q, scale, BLOCK)
    # every other call stores the scale through a reciprocal (another code path, as a
    # launcher picking a split by the free units would): one ulp off in some rows
    if next(_calls) % 2:
        amax = _row_amax(x, BLOCK, x.shape[1]).astype(np.float32)
        scale[...] = np.where(amax > 0, amax * np.float32(1.0 / E4M3_MAX), 1.0)


# ---- chunked sum ---------------------------------------------------------------------------

def chunked_sum_ref(x):
    return x.sum(axis=-1)


def _chunk_sums(x, CHUNK, end, skip=lambda chunk: np.zeros(chunk.shape[0], bool)):
    """Per chunk a float64 partial sum (a chunk skip() says is empty counts 0), then their sum."""
    parts = [np.where(skip(x[:, c:c + CHUNK]), 0.0, x[:, c:c + CHUNK].astype(np.float64).sum(axis=-1))
             for c in range(0, end, CHUNK)]
    return np.sum(parts, axis=0) if parts else np.zeros(x.shape[0])


def chunked_sum(x, CHUNK):
    return _chunk_sums(x, CHUNK, x.shape[1])


def chunked_sum_tail_bug(x, CHUNK):
    return _chunk_sums(x, CHUNK, x.shape[1] - x.shape[1] % CHUNK)


def chunked_sum_values_bug(x, CHUNK):
    # a sparsity shortcut that skips "empty" chunks, tested by max <= 0 instead of all == 0:
    # a chunk of negative values only is skipped (random normal chunks never are)
    return _chunk_sums(x, CHUNK, x.shape[1], skip=lambda chunk: chunk.max(axis=-1) <= 0)


_workspaces = {}


def chunked_sum_repeat_bug(x, out, CHUNK):
    # a workspace kept between calls and never cleared: the second call adds onto the first
    ws = _workspaces.setdefault(x.shape, np.zeros(x.shape[0]))
    ws += _chunk_sums(x, CHUNK, x.shape[1])
    out[...] = ws


# ---- the ops as the ladder sees them ---------------------------------------------------------

def _rows(M, N, block):
    return {"M": M, "N": N, block: 32}


OPS = {
    "softmax": dict(
        reference=softmax_ref, fixed=softmax, tail=softmax_tail_bug, values=softmax_values_bug,
        repeat=softmax_repeat_bug,
        params=_rows(4, 128, "BLOCK"), tiles={"BLOCK": [32]}, tolerance=(1e-6, 1e-5),
        buffers={"x": In("f32", "M", "N"), "y": Out("f32", "M", "N")},
        settings={1: {"tail_dims": {"BLOCK": "N"}}, 5: {"repeats": 8}}),
    "topk": dict(
        reference=topk_ref, fixed=topk, tail=topk_tail_bug, values=topk_values_bug,
        repeat=topk_repeat_bug,
        params={"M": 4, "N": 64, "K": 4, "BLOCK": 16}, tiles={"BLOCK": [16]}, tolerance=(0, 0),
        buffers={"x": In("f32", "M", "N"), "idx": Out("i32", "M", "K"),
                 "val": Out("f32", "M", "K")},
        settings={1: {"tail_dims": {"BLOCK": "N"}}, 5: {"repeats": 8}}),
    "quant": dict(
        reference=quant_ref, fixed=quant, tail=quant_tail_bug, values=quant_values_bug,
        repeat=quant_repeat_bug,
        params={"M": 8, "N": 128, "BLOCK": 32}, tiles={"BLOCK": [32]}, tolerance=(1e-6, 1e-6),
        buffers={"x": In("f32", "M", "N"), "q": Out("f32", "M", "N"), "scale": Out("f32", "M")},
        settings={1: {"tail_dims": {"BLOCK": "N"}}, 5: {"repeats": 8}}),
    "chunked_sum": dict(
        reference=chunked_sum_ref, fixed=chunked_sum, tail=chunked_sum_tail_bug,
        values=chunked_sum_values_bug, repeat=chunked_sum_repeat_bug,
        params=_rows(4, 128, "CHUNK"), tiles={"CHUNK": [32]}, tolerance=(1e-6, 1e-6),
        buffers={"x": In("f32", "M", "N"), "out": Out("f32", "M")},
        settings={1: {"tail_dims": {"CHUNK": "N"}}, 2: {"chunks": {"N": "CHUNK"}},
                  5: {"repeats": 8}}),
}

BUG_RUNG = {"tail": 1, "values": 2, "repeat": 5}


def case(name, which, db, rungs=None):
    """kladder.Case for op `name`'s implementation `which` ("fixed" or a bug class)."""
    o = OPS[name]
    rungs = rungs or ((1, 2, 5) if which == "fixed" else (BUG_RUNG[which],))
    return kladder.Case(o[which], o["reference"], params=o["params"], buffers=o["buffers"],
                        rungs=rungs, tiles=o["tiles"], tolerance=o["tolerance"], db=db,
                        settings={r: o["settings"].get(r, {}) for r in rungs},
                        name="%s-%s" % (name, which))
