#!/usr/bin/env python3
"""Prints facts of a GPU code object for the gpu tests: 'amdgpu MACH WAVE' or 'cuda SM'.

AMD code objects: ELF e_machine 224 (EM_AMDGPU); the low byte of e_flags is the processor
(0x3f gfx90a, 0x36 gfx1030, 0x4c gfx942); every kernel's metadata note carries the msgpack key
".wavefront_size" followed by its value as a fixint (0x20 or 0x40). CUBINs: e_machine 190
(EM_CUDA); bits 8-15 of e_flags hold the SM version (90 for sm_90)."""
import re
import sys

data = open(sys.argv[1], "rb").read()
if data[:4] != b"\x7fELF":
    print("not-elf")
    sys.exit(0)
machine = int.from_bytes(data[18:20], "little")
flags = int.from_bytes(data[48:52], "little")
if machine == 224:
    waves = sorted({data[m.end()] for m in re.finditer(rb"\.wavefront_size", data)})
    print("amdgpu 0x%02x %s" % (flags & 0xFF, ",".join(str(w) for w in waves) or "none"))
elif machine == 190:
    print("cuda %d" % ((flags >> 8) & 0xFF))
else:
    print("elf-machine %d" % machine)
