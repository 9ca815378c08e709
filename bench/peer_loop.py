#!/usr/bin/env python3
"""The loop a kernel engineer writes today with PyTorch to repeat a kernel and demand identical
output, timed beside bench/kbench on the same GPU (same shapes, same measurements):

  tiny  RMSNorm 256x64 bf16: each repeat compared with torch.equal (a host round trip), the
        launch alone, and a CUDA graph of 100 launches (the floor of a launch);
  wide  RMSNorm 4096x32768 bf16: each repeat compared with torch.equal, and the op alone;
  fill  5 GiB: fill with a pattern and check every word with (buf == pattern).all(), against a
        device-to-device copy of the same bytes.

Usage: python3 bench/peer_loop.py [--json FILE] [--quick]
"""
import argparse
import json
import time

import torch

DEV = "cuda"


def wall_per_iter(fn, iters):
    """Host wall time per call (what the user's loop costs), after one warm-up call."""
    fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iters):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / iters


def device_ms(fn, reps):
    """Median device time of fn in ms, from CUDA events."""
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


def rms(x, w):
    return torch.nn.functional.rms_norm(x, (x.shape[-1],), w, 1e-6)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    results = []

    def record(bench, metric, value, unit, note=""):
        results.append({"bench": bench, "metric": metric, "value": value, "unit": unit,
                        "note": note})
        print(f"{bench:6} {metric:44} {value:12.3f} {unit}" + (f"  ({note})" if note else ""),
              flush=True)

    gen = torch.Generator(device=DEV).manual_seed(1)

    # tiny
    x = torch.randn(256, 64, device=DEV, dtype=torch.bfloat16, generator=gen)
    w = torch.randn(64, device=DEV, dtype=torch.bfloat16, generator=gen)
    first = rms(x, w)
    n = 2000 if args.quick else 10000

    def tiny_checked():
        if not torch.equal(rms(x, w), first):
            raise SystemExit("tiny RMSNorm was not bitwise reproducible")

    record("tiny", "repeat + torch.equal, per repeat", wall_per_iter(tiny_checked, n) * 1e6, "us")
    record("tiny", "launch alone, per launch", wall_per_iter(lambda: rms(x, w), n) * 1e6, "us")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            rms(x, w)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(100):
            rms(x, w)
    record("tiny", "graph of 100 launches, per launch",
           device_ms(graph.replay, 20 if args.quick else 100) * 1e3 / 100, "us")

    # wide
    X = torch.randn(4096, 32768, device=DEV, dtype=torch.bfloat16, generator=gen)
    W = torch.randn(32768, device=DEV, dtype=torch.bfloat16, generator=gen)
    ref = rms(X, W)
    reps = 20 if args.quick else 100

    def wide_checked():
        if not torch.equal(rms(X, W), ref):
            raise SystemExit("wide RMSNorm was not bitwise reproducible")

    per_checked = wall_per_iter(wide_checked, reps) * 1e6
    per_alone = device_ms(lambda: rms(X, W), reps) * 1e3
    record("wide", "repeat + torch.equal, per repeat", per_checked, "us")
    record("wide", "op alone, per launch", per_alone, "us")
    record("wide", "compare overhead per repeat", per_checked - per_alone, "us")
    del X, W, ref

    # fill
    nbytes = (1 << 30) if args.quick else (5 << 30)
    buf = torch.empty(nbytes // 8, dtype=torch.int64, device=DEV)
    other = torch.empty_like(buf)
    pattern = 0x7FA5A5A57FA5A5A5  # fits a signed 64-bit integer

    copy_ms = device_ms(lambda: other.copy_(buf), 5)
    copy_bw = 2 * nbytes / (copy_ms * 1e-3)

    def fill_verify():
        buf.fill_(pattern)
        if not bool((buf == pattern).all()):
            raise SystemExit("fill + verify found a word that the fill did not write")

    both_ms = device_ms(fill_verify, 5)
    eff = 2 * nbytes / (both_ms * 1e-3)
    record("fill", "copy bandwidth (read+write), GB/s", copy_bw / 1e9, "GB/s")
    record("fill", "fill + (buf == p).all() bandwidth, GB/s", eff / 1e9, "GB/s",
           f"{nbytes / 2**30:.2f} GiB in {both_ms:.2f} ms")
    record("fill", "fill+verify / copy bandwidth", eff / copy_bw, "x")

    meta = {"tool": "peer_loop", "torch": torch.__version__,
            "device": torch.cuda.get_device_name(), "cuda": torch.version.cuda,
            "quick": args.quick, "results": results}
    print(f"torch {torch.__version__} (CUDA {torch.version.cuda}) on {meta['device']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(meta, f, indent=1)


if __name__ == "__main__":
    main()
