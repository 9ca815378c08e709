#!/usr/bin/env python3
"""Capture real inputs of a PyTorch model for `kladder run --rung 2 --inputs FILE`.

Forward hooks on chosen submodules save what they receive or return during one forward pass
into a safetensors file that kladder reads (F32 F16 BF16 F64 I64 I32 I16 I8 U8 BOOL F8_E4M3
F8_E5M2). Name each capture after the kernel buffer it feeds: kladder binds a tensor to the
input buffer of the same name.

    from kladder_capture import Capture
    with Capture(model, {"scores": "model.layers.3.mlp.gate"}, "routing.safetensors"):
        model(**batch)

    kladder run --rung 2 --suite my-router.json --inputs routing.safetensors

A capture that came back degenerate (every element the same value: all zeros, say) is
refused with CaptureError and nothing is written: a routing capture that is all zeros while
the generated text is right is a real failure mode of capture paths, and replaying it would
test nothing. FNUZ fp8 tensors (gfx942's format) are refused too: kladder's fp8 is OCP's.

The file writer and the degenerate-capture check need only the standard library; PyTorch is
imported when a Capture is made.
"""
import json
import struct

__all__ = ["Capture", "CaptureError", "write_safetensors", "refuse_degenerate"]


class CaptureError(Exception):
    """A capture that must not be written (degenerate, unsupported dtype, never reached)."""


def refuse_degenerate(name, data, elem_size):
    """Raises CaptureError when the raw little-endian bytes of a tensor of two or more elements
    hold one value only (a scalar is one value by nature)."""
    if elem_size <= 0 or len(data) % elem_size:
        raise CaptureError("%s: %d bytes are not whole elements of %d bytes" % (name, len(data), elem_size))
    n = len(data) // elem_size
    if n == 0:
        raise CaptureError("%s: the capture is empty" % name)
    first = data[:elem_size]
    if n >= 2 and data == first * n:
        what = "all zeros" if not any(first) else "one value only"
        raise CaptureError("%s: the capture is degenerate (%s, %d elements); refusing to write it"
                           % (name, what, n))


def write_safetensors(path, tensors, metadata=None):
    """tensors: [(name, dtype, shape, raw bytes)], written in order after a header padded with
    spaces to a multiple of 8 bytes. Each capture is checked with refuse_degenerate first, and
    nothing is written when one fails."""
    sizes = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1,
             "U8": 1, "BOOL": 1, "F8_E4M3": 1, "F8_E5M2": 1}
    header, offset = {}, 0
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name, dtype, shape, data in tensors:
        if dtype not in sizes:
            raise CaptureError("%s: dtype %s is not one kladder reads" % (name, dtype))
        count = 1
        for d in shape:
            count *= int(d)
        if count * sizes[dtype] != len(data):
            raise CaptureError("%s: shape %s of %s needs %d bytes, got %d"
                               % (name, list(shape), dtype, count * sizes[dtype], len(data)))
        refuse_degenerate(name, data, sizes[dtype])
        header[name] = {"dtype": dtype, "shape": [int(d) for d in shape],
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for _, _, _, data in tensors:
            f.write(data)


class Capture:
    """Context manager: hooks the submodules named in `targets` ({buffer name: module path})
    and, on exit, writes what each saw the first time it ran to `path`. which="output" saves
    the module's output (the first tensor of a tuple), "input" its first positional input."""

    def __init__(self, model, targets, path, which="output", metadata=None):
        import torch  # only here: the writer above works without it

        self.torch = torch
        self.model, self.targets, self.path, self.which = model, dict(targets), path, which
        self.metadata = dict(metadata or {})
        self.seen, self.handles = {}, []
        if which not in ("output", "input"):
            raise CaptureError("which must be 'output' or 'input', got %r" % (which,))

    def _dtype(self, name, t):
        torch = self.torch
        table = {torch.float64: "F64", torch.float32: "F32", torch.float16: "F16",
                 torch.bfloat16: "BF16", torch.int64: "I64", torch.int32: "I32",
                 torch.int16: "I16", torch.int8: "I8", torch.uint8: "U8", torch.bool: "BOOL"}
        for attr, code in (("float8_e4m3fn", "F8_E4M3"), ("float8_e5m2", "F8_E5M2")):
            if hasattr(torch, attr):
                table[getattr(torch, attr)] = code
        if "fnuz" in str(t.dtype):
            raise CaptureError("%s: %s is gfx942's FNUZ fp8, not the OCP fp8 kladder reads; "
                               "capture it as float32" % (name, t.dtype))
        if t.dtype not in table:
            raise CaptureError("%s: dtype %s is not one kladder reads" % (name, t.dtype))
        return table[t.dtype]

    def _hook(self, name):
        def hook(module, args, output):
            if name in self.seen:
                return
            value = output if self.which == "output" else (args[0] if args else None)
            if isinstance(value, (tuple, list)):
                value = next((v for v in value if isinstance(v, self.torch.Tensor)), None)
            if not isinstance(value, self.torch.Tensor):
                raise CaptureError("%s: the module's %s is not a tensor" % (name, self.which))
            self.seen[name] = value.detach().to("cpu").contiguous().clone()
        return hook

    def __enter__(self):
        for name, path in self.targets.items():
            module = self.model.get_submodule(path)
            self.handles.append(module.register_forward_hook(self._hook(name)))
        return self

    def __exit__(self, exc_type, exc, tb):
        for h in self.handles:
            h.remove()
        if exc_type is not None:
            return False
        missing = [n for n in self.targets if n not in self.seen]
        if missing:
            raise CaptureError("never reached during the forward pass: %s" % ", ".join(missing))
        tensors = []
        for name in self.targets:
            t = self.seen[name]
            dtype = self._dtype(name, t)
            data = t.view(self.torch.uint8).numpy().tobytes() if t.numel() else b""
            tensors.append((name, dtype, list(t.shape), data))
        meta = {"generator": "scripts/kladder_capture.py"}
        meta.update(self.metadata)
        write_safetensors(self.path, tensors, meta)
        return False
