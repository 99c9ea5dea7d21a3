#!/usr/bin/env python3
"""A measurement, not a test: how often ptxi's approximate f32 functions
(MUFU on the GPU) differ from an H100's.  Writes cases.jsonl and in.bin
(8192 inputs: uniform in [-10, 10], [0.001, 100], [-3.2, 3.2], and random
bit patterns) next to this file.  Run the case on the GPU through
../shared/oracle, then `ptxi run cases.jsonl --dump out=ptxi.bin` here and
compare the two outputs word by word (12 words per input, in the order of
mufu.ptx).  README, "Known differences from the H100", has the figures."""
import json, os, random, struct
here = os.path.dirname(os.path.abspath(__file__))
r = random.Random(5)
N = 8192
xs = []
for i in range(N):
    k = i % 4
    if k == 0: x = r.uniform(-10, 10)
    elif k == 1: x = r.uniform(0.001, 100)
    elif k == 2: x = r.uniform(-3.2, 3.2)
    else: x = struct.unpack('<f', struct.pack('<I', r.getrandbits(32)))[0]
    xs.append(x)
open(os.path.join(here, 'in.bin'), 'wb').write(struct.pack('<%df' % N, *xs))
c = {"format": "ptxi-launch/1", "name": "mufu", "ptx": "mufu.ptx", "kernel": "mufu", "grid": [32, 1, 1],
     "block": [256, 1, 1],
     "buffers": [{"name": "in", "bytes": 4 * N, "init": {"file": "in.bin"}},
                 {"name": "out", "bytes": 48 * N, "init": {"fill": 0}}],
     "params": [{"pointer": "in"}, {"pointer": "out"}, {"u32": N}], "expect": {"buffers": [{"name": "out"}]}}
open(os.path.join(here, 'cases.jsonl'), 'w').write(json.dumps(c) + "\n")
