#!/usr/bin/env python3
"""Runs every k_* kernel of the pattern cubins (grid 4 x block 256, one
16 KiB zeroed buffer) and writes each buffer to OUTDIR/VARIANT/NAME.bin;
prints per kernel how many 32-bit words differ between the variants."""
import re, sys, os
import cupy as cp
import numpy as np
ptx, outdir = sys.argv[1], sys.argv[2]
names = re.findall(r"\.entry\s+(k_\w+)", open(ptx).read())
res = {}
for var in ("def", "nofmad"):
    mod = cp.RawModule(path=f"pat_{var}.cubin")
    os.makedirs(f"{outdir}/{var}", exist_ok=True)
    for n in names:
        out = cp.zeros(4096, dtype=cp.uint32)
        mod.get_function(n)((4,), (256,), (out,))
        cp.cuda.runtime.deviceSynchronize()
        h = out.get()
        res[(var, n)] = h
        open(f"{outdir}/{var}/{n}.bin", "wb").write(h.tobytes())
for n in names:
    d = int(np.count_nonzero(res[("def", n)] != res[("nofmad", n)]))
    print(f"{n}\tdiffer_words={d}")
