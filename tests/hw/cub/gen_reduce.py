#!/usr/bin/env python3
"""Inputs (and one independent expectation) of the DeviceReduceKernel cases
in cases.jsonl: cub::DeviceReduce's first pass, float sum, 256 threads x 16
items per tile, tiles handed out by a by-value GridEvenShare<unsigned> (the
40-byte `.param .align 4 .b8 [40]` that needs ptxi's {"struct": [...]}
parameter).

  inputs/reduce_f32.bin   21258 floats: random mantissas, exponents -4..4,
                          either sign.  Sums of these round differently in
                          every order, so the expected bytes of
                          reduce_even_share / reduce_even_share_unaligned
                          are the H100's (../../../../shared/oracle).
  inputs/reduce_int.bin   21258 small integers (-8..8) as floats: every
                          partial sum is an integer below 2^24, so exact in
                          any order, and the expected sums are computed here:
  expected/reduce_even_share_int.out.bin

Run from this folder: python3 gen_reduce.py"""
import random, struct

TILE = 256 * 16           # items per tile (Policy1000: 256 threads x 16)
N = 5 * TILE + 777        # num_items: 5 full tiles and a partial one
GRID = 3                  # grid_size: CTA b takes tiles b, b+3 (strip-mined)
WORDS = N + 1             # one extra float for the offset-by-4 case

rng = random.Random(20261123)
f32 = [rng.choice((-1, 1)) * rng.uniform(1.0, 2.0) * 2.0 ** rng.randint(-4, 4) for _ in range(WORDS)]
ints = [rng.randint(-8, 8) for _ in range(WORDS)]
open("inputs/reduce_f32.bin", "wb").write(struct.pack("<%df" % WORDS, *f32))
open("inputs/reduce_int.bin", "wb").write(struct.pack("<%df" % WORDS, *ints))

# out[b] = sum of the items of tiles b, b + GRID, ... (exact: integers);
# the 4th float of the 16-byte buffer keeps its 0xff fill.
out = b""
for b in range(GRID):
    s = 0
    for t in range(b, (N + TILE - 1) // TILE, GRID):
        s += sum(ints[t * TILE:min(N, (t + 1) * TILE)])
    assert abs(s) < 2 ** 24
    out += struct.pack("<f", float(s))
open("expected/reduce_even_share_int.out.bin", "wb").write(out + b"\xff" * 4)
