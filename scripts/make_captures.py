#!/usr/bin/env python3
"""Writes the small inputs the rung 2 reproducers replay (kernels/captures/).

They stand in for tensors captured from a model's forward pass, shaped like what the model
sends where each bug lives: router logits whose best experts are a hair apart, a prompt
shorter than one prefill chunk, peaked attention scores, per-column biases that differ. The
output is deterministic (fixed seeds, no third-party packages): running it again rewrites
the same bytes, and tests/engine/rung2_replay.sh checks that it does.

usage: scripts/make_captures.py [OUT_DIR]   (default kernels/captures)
"""
import json
import os
import random
import struct
import sys


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def next_up(x):
    """The next float32 above x (x > 0)."""
    return struct.unpack("<f", struct.pack("<I", struct.unpack("<I", struct.pack("<f", x))[0] + 1))[0]


def bf16_bits(x):
    """x as bf16 bits, round to nearest even (x must be finite)."""
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    u += 0x7FFF + ((u >> 16) & 1)
    return (u >> 16) & 0xFFFF


def safetensors(path, tensors, metadata):
    """tensors: [(name, dtype, shape, bytes)] written in order, header padded to 8 bytes."""
    header, offset = {"__metadata__": metadata}, 0
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header, separators=(",", ":"), sort_keys=True).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for _, _, _, data in tensors:
            f.write(data)


def npy(path, descr, shape, data):
    """A version 1.0 .npy file, header padded to 64 bytes."""
    d = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else ""))
    pad = -(10 + len(d) + 1) % 64
    d = d + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d)) + d.encode("latin-1") + data)


def refuse_degenerate(name, values):
    """A capture that is all one value (all zeros, say) shows nothing; refuse to write it."""
    if len(set(values)) < 2:
        sys.exit("make_captures: %s holds one value only; refusing a degenerate capture" % name)


def router_logits(rng):
    # flydsl-1213: 32 tokens x 64 experts. A trained router's top two experts are often a few
    # ulps apart; here one ulp, the lower-numbered expert holding the larger score.
    T, E, vals = 32, 64, []
    for t in range(T):
        row = [f32(rng.gauss(0.0, 1.0)) for _ in range(E)]
        a, b = sorted(rng.sample(range(E), 2))
        top = f32(3.0 + rng.random())
        row[a], row[b] = next_up(top), top
        vals += row
    refuse_degenerate("router_logits", vals)
    return [("model.layers.3.mlp.gate.logits", "F32", [T, E], struct.pack("<%df" % len(vals), *vals))]


def short_prompt(rng):
    # atom-1750: one prompt of 20 tokens (shorter than the 64-token prefill chunk), 32 features.
    S, D = 20, 32
    vals = [f32(rng.gauss(0.0, 1.0)) for _ in range(S * D)]
    refuse_degenerate("short_prompt", vals)
    return [1, S, D], struct.pack("<%df" % len(vals), *vals)


def peaked_scores(rng):
    # flydsl-1020: 16 query rows x 256 keys; each row attends to one or two keys, 6 to 8 logits
    # above the rest, as a trained model's heads do.
    R, L, vals = 16, 256, []
    for r in range(R):
        row = [f32(rng.gauss(0.0, 0.7)) for _ in range(L)]
        for k in rng.sample(range(L), rng.choice((1, 2))):
            row[k] = f32(row[k] + 6.0 + 2.0 * rng.random())
        vals += row
    refuse_degenerate("peaked_scores", vals)
    return [("layers.11.attn.scores", "F32", [R, L], struct.pack("<%df" % len(vals), *vals))]


def gemm_bias(rng):
    # aiter-5801: 2 groups x 64 columns of bias, every column its own value, saved as bf16.
    G, N = 2, 64
    vals = [bf16_bits(rng.uniform(-0.5, 0.5)) for _ in range(G * N)]
    refuse_degenerate("gemm_bias", vals)
    return [("experts.gate_up_proj_bias", "BF16", [G, N], struct.pack("<%dH" % len(vals), *vals))]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("kernels", "captures")
    os.makedirs(out, exist_ok=True)
    meta = {"generator": "scripts/make_captures.py"}
    safetensors(os.path.join(out, "flydsl-1213.safetensors"), router_logits(random.Random(1213)), meta)
    safetensors(os.path.join(out, "flydsl-1020.safetensors"), peaked_scores(random.Random(1020)), meta)
    safetensors(os.path.join(out, "aiter-5801.safetensors"), gemm_bias(random.Random(5801)), meta)
    shape, data = short_prompt(random.Random(1750))
    npy(os.path.join(out, "atom-1750-prompt.npy"), "<f4", shape, data)


if __name__ == "__main__":
    main()
