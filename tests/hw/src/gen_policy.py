#!/usr/bin/env python3
"""tests/hw/policy: inputs and the case for policy.cu's kernel `pol`
(createpolicy).  256 threads: fractions in (0, 1] (every k/256, then
0.3, 0.999, 1e-6, ...), ranges (a, primary, total) that cross the scale
steps of the total size, the 7-bit unit count, 32-bit wrap-around of the
primary end and a zero total.  Expected bytes: the H100, through
../shared/oracle."""
import json, os, random, struct
N = 256
here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "..", "policy")
os.makedirs(os.path.join(out, "inputs"), exist_ok=True)
rnd = random.Random(90)
fs = [(i + 1) / 256.0 for i in range(N)]
for i, v in enumerate([0.3, 0.999, 1e-6, 0.0625, 0.0625000075, 0.06249999, 0.1, 0.7, 2.0 ** -24, 0.5000001]):
    fs[7 * i + 3] = v
ranges = [(0x7f0000001000, 127 * 4096, 127 * 4096), (0x7f0000001000, 128 * 4096, 128 * 4096),
          (0x7f0000001000, 129 * 4096, 200 * 4096), (0x7f0000001000, 1 << 20, 1 << 21),
          (0x7f0000001000, 0xffffffff, 0xffffffff), (0x7f0000001000, 1 << 31, 0xffffffff),
          (0x7f0000001000, 100, 50), (0x7f0000001000, 0, 0), (0x7f0000001000, 4096, 0),
          (0x123456789abc, 5000, 10000), (0xffffffffffff, 1, 1), (0x7f0000001fff, 2, 2),
          (0x7f0000001000, 4096, (1 << 19) + 16), (0x7f0000001000, 4096, (1 << 19) - 1),
          (0x7f0000001000, 300 * 4096, 10 * 4096), (0, 0xffffffff, 0xffffffff),
          (0x7f0000000000, 1, (1 << 31) + 1), (0x7f0000000000, 1, 0x10000001), (0x7f0000000fff, 0, 4096),
          (0x7f0000000000, 4096, 1)]
while len(ranges) < N:
    a = rnd.choice([0x7f0000000000, 0x7e0000000000, 0x1000, 0]) + rnd.randrange(0, 1 << rnd.choice([12, 20, 30, 40]))
    t = rnd.randrange(0, 1 << rnd.choice([8, 12, 16, 19, 20, 24, 28, 32]))
    p = rnd.choice([t, t // 2, rnd.randrange(0, t + 1), rnd.randrange(0, 1 << 32)])
    ranges.append((a, p, t))
open(os.path.join(out, "inputs", "fs.bin"), "wb").write(struct.pack("<%df" % N, *fs))
open(os.path.join(out, "inputs", "as.bin"), "wb").write(struct.pack("<%dQ" % N, *[r[0] for r in ranges]))
open(os.path.join(out, "inputs", "ps.bin"), "wb").write(struct.pack("<%dI" % N, *[r[1] for r in ranges]))
open(os.path.join(out, "inputs", "ts.bin"), "wb").write(struct.pack("<%dI" % N, *[r[2] for r in ranges]))
case = {"format": "ptxi-launch/1", "name": "createpolicy",
        "description": "createpolicy .fractional/.range/.cvt: 40 policies for each of 256 inputs",
        "ptx": "../ptx/policy_sm90a.ptx", "kernel": "pol", "grid": [2, 1, 1], "block": [128, 1, 1],
        "buffers": [{"name": "out", "bytes": 40 * 8 * N, "init": {"fill": 165}},
                    {"name": "fs", "bytes": 4 * N, "init": {"file": "inputs/fs.bin"}},
                    {"name": "as", "bytes": 8 * N, "init": {"file": "inputs/as.bin"}},
                    {"name": "ps", "bytes": 4 * N, "init": {"file": "inputs/ps.bin"}},
                    {"name": "ts", "bytes": 4 * N, "init": {"file": "inputs/ts.bin"}}],
        "params": [{"pointer": "out"}, {"pointer": "fs"}, {"pointer": "as"}, {"pointer": "ps"}, {"pointer": "ts"},
                   {"u32": N}],
        "expect": {"buffers": [{"name": "out"}]}}
open(os.path.join(out, "cases.jsonl"), "w").write(json.dumps(case) + "\n")
