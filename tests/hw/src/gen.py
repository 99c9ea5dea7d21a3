#!/usr/bin/env python3
"""gen.py — writes the hardware-verified suites under tests/hw/: `numeric`
(probe_sm90.ptx: edge cases of float/int/conversion instructions) and
`corpus` (kernels of ../shared/corpus/general_sm90a.ptx that need no TMA).
Expected bytes come from an H100 through ../shared/oracle (plan.py, run.sh,
collect.py); this script only writes the inputs and the case list."""
import json, os, random, struct
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
rnd = random.Random(1234)
f = lambda v: struct.unpack('<I', struct.pack('<f', v))[0]
d = lambda v: struct.unpack('<Q', struct.pack('<d', v))[0]

F32 = [0, 0x80000000, f(1), f(-1), f(0.5), f(1.5), f(2.5), f(-2.5), 1, 0x7fffff, 0x800000, 0x80800001,
       0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, f(65504), f(65520),
       f(65519.99), f(2**-24), f(2**-25), f(3 * 2**-26), f(2**31), f(2**32), f(-2**31 - 256), f(2**63), f(-2**64),
       f(0.1), f(1 / 3), f(-7.5), f(1e30), f(255.5), f(256.5), f(448), f(480), f(3.0), f(-0.25)]
I32 = [0, 1, 2, 0xffffffff, 0x80000000, 0x7fffffff, 31, 32, 33, 63, 64, 0xffff, 0x10000, 7, 0xfffffff9, 100,
       0x01234567, 0x89abcdef, 0xdeadbeef, 16, 8, 24, 0x3210, 0x7654]
F64 = [0, 1 << 63, d(1), d(-1), d(0.5), d(1.5), d(2.5), 1, 0x000fffffffffffff, 0x0010000000000000,
       0x7fefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001,
       d(2**63), d(2**64), d(-2**63), d(0.1), d(1 / 3), d(1e300), d(1e-310), d(3.0), d(2**53 + 1), d(-1e10),
       d(3.4028235677973366e38), d(1.4e-45), 0xffffffffffffffff, 0x8000000000000001, 12345678901234567]

def pairs(specials, n, bits):
    m = len(specials)
    a, b, c = [], [], []
    for i in range(n):
        if i < m * m:
            a.append(specials[i % m]); b.append(specials[i // m]); c.append(specials[(i * 7 + 3) % m])
        else:
            a.append(rnd.getrandbits(bits)); b.append(rnd.getrandbits(bits)); c.append(rnd.getrandbits(bits))
    return a, b, c

def write(path, words, fmt):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as fh:
        fh.write(struct.pack('<%d%s' % (len(words), fmt), *words))

def case(suite, name, kernel, grid, block, buffers, params, outs, ptx, cluster=(1, 1, 1), smem=0):
    return {"format": "ptxi-launch/1", "name": name, "ptx": "../ptx/" + ptx, "kernel": kernel,
            "grid": list(grid), "block": list(block), "cluster": list(cluster), "dynamic_shared_bytes": smem,
            "buffers": buffers, "tensor_maps": [], "params": params,
            "expect": {"buffers": [{"name": o} for o in outs]}}

def buf(name, nbytes, init=None):
    b = {"name": name, "bytes": nbytes}
    if init is not None: b["init"] = init
    return b

def numeric():
    cs = []
    sd = os.path.join(root, 'numeric')
    N = 1600
    a, b, c = pairs(F32, N, 32)
    for nm, w in (('f32_a', a), ('f32_b', b), ('f32_c', c)): write(os.path.join(sd, 'inputs', nm + '.bin'), w, 'I')
    ins = [buf('a', 4 * N, {"file": "inputs/f32_a.bin"}), buf('b', 4 * N, {"file": "inputs/f32_b.bin"}),
           buf('c', 4 * N, {"file": "inputs/f32_c.bin"})]
    cs.append(case('numeric', 'probe_f32', 'probe_f32', (13, 1, 1), (128, 1, 1), ins + [buf('out', 4 * 40 * N)],
                   [{"pointer": "a"}, {"pointer": "b"}, {"pointer": "c"}, {"pointer": "out"}, {"s32": N}], ['out'], 'probe_sm90.ptx'))
    cs.append(case('numeric', 'probe_cvt', 'probe_cvt', (13, 1, 1), (128, 1, 1), ins[:2] + [buf('out', 4 * 30 * N)],
                   [{"pointer": "a"}, {"pointer": "b"}, {"pointer": "out"}, {"s32": N}], ['out'], 'probe_sm90.ptx'))
    ai, bi, ci = pairs(I32, 1024, 32)
    for nm, w in (('i32_a', ai), ('i32_b', bi), ('i32_c', ci)): write(os.path.join(sd, 'inputs', nm + '.bin'), w, 'I')
    cs.append(case('numeric', 'probe_int', 'probe_int', (8, 1, 1), (128, 1, 1),
                   [buf('a', 4096, {"file": "inputs/i32_a.bin"}), buf('b', 4096, {"file": "inputs/i32_b.bin"}),
                    buf('c', 4096, {"file": "inputs/i32_c.bin"}), buf('out', 4 * 36 * 1024)],
                   [{"pointer": "a"}, {"pointer": "b"}, {"pointer": "c"}, {"pointer": "out"}, {"s32": 1024}], ['out'], 'probe_sm90.ptx'))
    ad, bd, _ = pairs(F64, 1024, 64)
    for nm, w in (('f64_a', ad), ('f64_b', bd)): write(os.path.join(sd, 'inputs', nm + '.bin'), w, 'Q')
    cs.append(case('numeric', 'probe_f64', 'probe_f64', (8, 1, 1), (128, 1, 1),
                   [buf('a', 8192, {"file": "inputs/f64_a.bin"}), buf('b', 8192, {"file": "inputs/f64_b.bin"}), buf('out', 8 * 16 * 1024)],
                   [{"pointer": "a"}, {"pointer": "b"}, {"pointer": "out"}, {"s32": 1024}], ['out'], 'probe_sm90.ptx'))
    return sd, cs

CUB_REDUCE = "_ZN3cub17CUB_300001_SM_9006detail6reduce28DeviceReduceSingleTileKernelINS2_10policy_hubIfjN4cuda3std3__44plusIvEEE10Policy1000EPfSC_jS9_ffNS7_10__identityEEEvT0_T1_T2_T3_T4_T6_"
CUB_RADIX = "_ZN3cub17CUB_300001_SM_9006detail10radix_sort31DeviceRadixSortSingleTileKernelINS1_5radix10policy_hubIjNS0_8NullTypeEjE10Policy1000ELNS0_9SortOrderE0EjS6_jNS1_21identity_decomposer_tEEEvPKT1_PSB_PKT2_PSF_T3_iiT4_"

def corpus():
    cs = []
    sd = os.path.join(root, 'corpus')
    P = 'general_sm90a.ptx'
    small = [rnd.randrange(0, 8) for _ in range(256)]
    write(os.path.join(sd, 'inputs', 'small.bin'), small, 'I')
    for nm, blk, init in (('warp_ops_hash', 64, {"hash32": 5}), ('warp_ops_small', 96, {"file": "inputs/small.bin"})):
        cs.append(case('corpus', nm, 'warp_ops', (1, 1, 1), (blk, 1, 1),
                       [buf('in', 1024, init), buf('out', 1024, {"fill": 0}), buf('mask', 16, {"fill": 0})],
                       # `mask` is not compared: warp_ops stores activemask right after
                       # call.uni fib(tid & 7), and the H100 wrote 0xf0f0f0f0 -- the
                       # lanes with the deepest recursion, which ptxas let run there
                       # unconverged and which stored last.  Which lanes run together
                       # after divergence is ptxas's choice, not PTX semantics (CUDA:
                       # __activemask() does not imply convergence); ptxi reconverges
                       # and reports 0xffffffff.  See tests/hw/README.md.
                       [{"pointer": "in"}, {"pointer": "out"}, {"pointer": "mask"}], ['out'], P))
    cs.append(case('corpus', 'atomics', 'atomics', (2, 1, 1), (64, 1, 1),
                   [buf('a', 256, {"fill": 0}), buf('b', 32, {"fill": 0}), buf('c', 8), buf('d', 4), buf('e', 8), buf('f', 4), buf('g', 4)],
                   [{"pointer": x} for x in "abcdefg"], list("abcdefg"), P))
    cs.append(case('corpus', 'cluster_dsmem', 'cluster_dsmem', (4, 1, 1), (64, 1, 1), [buf('out', 1024, {"fill": 255})],
                   [{"pointer": "out"}], ['out'], P, cluster=(2, 1, 1)))
    cs.append(case('corpus', 'async_copy', 'async_copy', (2, 1, 1), (64, 1, 1),
                   [buf('src', 8192, {"hash32": 9}), buf('dst', 8192, {"fill": 0})],
                   [{"pointer": "src"}, {"pointer": "dst"}, {"u32": 0}], ['dst'], P))
    fl = [f(rnd.uniform(-4, 4)) for _ in range(1000)]
    write(os.path.join(sd, 'inputs', 'floats.bin'), fl, 'I')
    cs.append(case('corpus', 'grid_stride_local', 'grid_stride_local', (2, 1, 1), (64, 1, 1),
                   [buf('in', 4000, {"file": "inputs/floats.bin"}), buf('out', 4000, {"fill": 0})],
                   [{"pointer": "in"}, {"pointer": "out"}, {"u32": 300}], ['out'], P))
    cs.append(case('corpus', 'math_mix_f64', 'math_mix', (2, 1, 1), (64, 1, 1),
                   [buf('in', 4000, {"file": "inputs/floats.bin"}), buf('o1', 512), buf('o2', 1024), buf('o3', 256), buf('o4', 256)],
                   [{"pointer": "in"}, {"pointer": "o1"}, {"pointer": "o2"}, {"pointer": "o3"}, {"pointer": "o4"}, {"u32": 100}], ['o2'], P))
    cs.append(case('corpus', 'cub_reduce_single_tile', CUB_REDUCE, (1, 1, 1), (256, 1, 1),
                   [buf('in', 4000, {"file": "inputs/floats.bin"}), buf('out', 16, {"fill": 0})],
                   [{"pointer": "in"}, {"pointer": "out"}, {"u32": 1000}, {"u8": 0}, {"f32": 0.5}, {"u8": 0}], ['out'], P))
    cs.append(case('corpus', 'cub_radix_sort_single_tile', CUB_RADIX, (1, 1, 1), (256, 1, 1),
                   [buf('keys', 4000, {"hash32": 3}), buf('sorted', 4000, {"fill": 0}), buf('vin', 256), buf('vout', 256)],
                   [{"pointer": "keys"}, {"pointer": "sorted"}, {"pointer": "vin"}, {"pointer": "vout"}, {"u32": 1000},
                    {"s32": 0}, {"s32": 32}, {"u8": 0}], ['sorted'], P))
    return sd, cs

for sd, cs in (numeric(), corpus()):
    os.makedirs(sd, exist_ok=True)
    with open(os.path.join(sd, 'cases.jsonl'), 'w') as fh:
        for c in cs: fh.write(json.dumps(c, separators=(",", ":")) + "\n")
    print(sd, len(cs), "cases")
