#!/usr/bin/env python3
"""gen_ops.py — writes two hardware-checked suites under tests/hw/:

  ops  kernels of ops.cu (tests/hw/ptx/ops_sm90a.ptx): integer/bit/compare/
       convert coverage, every memory space, atomics, warp collectives and
       barriers, special registers, and accesses that fault.  Expected bytes
       (and the fault statuses) come from an H100 through ../shared/oracle
       (plan.py, run.sh, collect.py); this script writes inputs and cases.
  cub  CUB kernels of ../shared/corpus/general_sm90a.ptx not covered by
       tests/hw/corpus (scan init + multi-tile decoupled look-back scan, radix
       histogram, exclusive sum, one onesweep pass, single-tile reduce with an
       int count, the empty kernel).  Their expected bytes are computed HERE by
       a Python reference (cub_reference below); the same cases were also run
       on the H100 and matched (`gen_ops.py --check RESULTS_DIR` compares).

The ops cases pass u8/s16/f32 parameters: ../shared/oracle's runner.cpp and
plan.py need oracle-params.patch (beside this file) for those.  The ops
expected files were read back twice from the H100 and compared (no racy case).

Usage: python3 gen_ops.py            (re-)write inputs, cases and cub expectations
       python3 gen_ops.py --check DIR  compare oracle results in DIR to the cub reference
"""
import json, os, random, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
rnd = random.Random(4321)
M32 = 0xffffffff


def write(path, words, fmt):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as fh:
        fh.write(struct.pack('<%d%s' % (len(words), fmt), *words))


def case(name, kernel, grid, block, buffers, params, outs, ptx, cluster=(1, 1, 1), smem=0):
    return {"format": "ptxi-launch/1", "name": name, "ptx": "../ptx/" + ptx, "kernel": kernel,
            "grid": list(grid), "block": list(block), "cluster": list(cluster), "dynamic_shared_bytes": smem,
            "buffers": buffers, "tensor_maps": [], "params": params,
            "expect": {"buffers": [{"name": o} for o in outs]}}


def buf(name, nbytes, init=None):
    b = {"name": name, "bytes": nbytes}
    if init is not None:
        b["init"] = init
    return b


def hash32(seed, n):
    """the launch format's hash32 fill (FORMAT.md)"""
    out = []
    for w in range(n):
        x = ((w * 0x9E3779B9) & M32) ^ seed
        x ^= x >> 16; x = (x * 0x7feb352d) & M32; x ^= x >> 15; x = (x * 0x846ca68b) & M32; x ^= x >> 16
        out.append(x)
    return out


# ---- ops --------------------------------------------------------------------------

I32 = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x10000,
       0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xfffffff9, 0x01234567, 0x89abcdef,
       0x7f800000, 0xff800000, 0x807fffff, 0x3f800000]
F32S = [0x00000001, 0x007fffff, 0x80000010, 0x7fc00000, 0x7f800000, 0xff800000, 0x3f800000, 0xbf800000,
        0x00800000, 0x33800000]


NA = 61    # rows of 64 words per CTA in ops_atom (ops.cu)


def ops():
    sd = os.path.join(root, 'ops')
    P = 'ops_sm90a.ptx'
    cs = []
    n = 512
    m = len(I32)
    a, b, c = [], [], []
    for i in range(n):
        if i < m * m:
            a.append(I32[i % m]); b.append(I32[(i * 13 + i // m) % m]); c.append(I32[(i * 7 + 3) % m])
        else:
            a.append(rnd.getrandbits(32)); b.append(rnd.getrandbits(32)); c.append(rnd.getrandbits(32))
    for nm, w in (('int_a', a), ('int_b', b), ('int_c', c)):
        write(os.path.join(sd, 'inputs', nm + '.bin'), w, 'I')
    cs.append(case('ops_int', 'ops_int', (4, 1, 1), (128, 1, 1),
                   [buf('a', 4 * n, {"file": "inputs/int_a.bin"}), buf('b', 4 * n, {"file": "inputs/int_b.bin"}),
                    buf('c', 4 * n, {"file": "inputs/int_c.bin"}), buf('out', 4 * 200 * n)],
                   [{"pointer": "a"}, {"pointer": "b"}, {"pointer": "c"}, {"pointer": "out"}, {"s32": n}], ['out'], P))
    cs.append(case('ops_mem', 'ops_mem', (1, 1, 1), (64, 1, 1),
                   [buf('in', 1040, {"hash32": 11}), buf('out', 64 * 48 * 4), buf('gout', 2080, {"fill": 0})],
                   [{"pointer": "in"}, {"pointer": "out"}, {"pointer": "gout"}, {"u64": 0x11223344a5b6c7d8},
                    {"u8": 200}, {"s16": -5}], ['out', 'gout'], P, smem=1024))
    # atomics: operands with float specials (subnormals, NaN, inf) in places
    ain = hash32(21, 192)
    for i, v in enumerate(F32S):
        ain[64 + 3 * i] = v
    ain[64 + 40] = 0x3f800000
    for i in range(8):
        ain[64 + 50 + i] = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x00010001, 0x7c007c00, 0x80018001][i]
    ain[64 + 60], ain[128 + 60] = 1, 0x7ff80000       # f64 operand: a NaN with a payload
    ain[64 + 61], ain[128 + 61] = 0, 0x80000000       # -0.0
    ain[64 + 62], ain[128 + 62] = 0, 0x7ff00000       # +inf
    write(os.path.join(sd, 'inputs', 'atom_in.bin'), ain, 'I')
    g = hash32(22, 2 * NA * 64)
    for blk in range(2):       # f32 rows: some subnormal / special old values
        for i, v in enumerate(F32S):
            g[(blk * NA + 12) * 64 + 5 * i] = v
            g[(blk * NA + 24) * 64 + 5 * i + 1] = v
            g[(blk * NA + 18) * 64 + 3 * i] = v
    write(os.path.join(sd, 'inputs', 'atom_g.bin'), g, 'I')
    cnt = [0] * 64
    cnt[2] = 0x7fffffff; cnt[5] = 0xffffffff; cnt[7] = 500
    write(os.path.join(sd, 'inputs', 'atom_cnt.bin'), cnt, 'I')
    cs.append(case('ops_atom', 'ops_atom', (2, 1, 1), (64, 1, 1),
                   [buf('g', 4 * len(g), {"file": "inputs/atom_g.bin"}), buf('in', 768, {"file": "inputs/atom_in.bin"}),
                    buf('old', 128 * 64 * 4), buf('sout', 4 * len(g)), buf('cnt', 256, {"file": "inputs/atom_cnt.bin"})],
                   [{"pointer": x} for x in ('g', 'in', 'old', 'sout', 'cnt')], ['g', 'old', 'sout', 'cnt'], P))
    cs.append(case('ops_warp', 'ops_warp', (2, 1, 1), (128, 1, 1),
                   [buf('in', 1024, {"hash32": 12}), buf('out', 256 * 56 * 4), buf('flag', 4)],
                   [{"pointer": "in"}, {"pointer": "out"}, {"pointer": "flag"}], ['out', 'flag'], P))
    cs.append(case('ops_cluster', 'ops_cluster', (8, 1, 1), (64, 1, 1), [buf('out', 8 * 64 * 16 * 4)],
                   [{"pointer": "out"}], ['out'], P, cluster=(4, 1, 1)))
    cs.append(case('ops_exit', 'ops_exit', (2, 1, 1), (96, 1, 1), [buf('out', 2048, {"fill": 255})],
                   [{"pointer": "out"}], ['out'], P))
    cs.append(case('ops_cpasync', 'ops_cpasync', (1, 1, 1), (64, 1, 1),
                   [buf('in', 2048, {"hash32": 13}), buf('out', 64 * 13 * 4)],
                   [{"pointer": "in"}, {"pointer": "out"}], ['out'], P))
    cs.append(case('ops_sreg_cluster', 'ops_sreg', (4, 2, 2), (16, 2, 2), [buf('out', 1024 * 40 * 4)],
                   [{"pointer": "out"}], ['out'], P, cluster=(2, 2, 1), smem=48))
    cs.append(case('ops_sreg_flat', 'ops_sreg', (3, 1, 1), (96, 1, 1), [buf('out', 288 * 40 * 4)],
                   [{"pointer": "out"}], ['out'], P))
    # faults: (name, mode, addr); the addresses fault on the H100 too
    for nm, mode, addr in (('fault_global_null', 0, 0), ('fault_global_misaligned', 1, 0),
                           ('fault_shared_oob', 2, 0x80000), ('fault_generic_unmapped', 3, 0x100),
                           ('fault_shared_misaligned', 4, 0), ('fault_atom_unmapped', 5, 16),
                           ('fault_vector_misaligned', 6, 0), ('fault_trap', 7, 0), ('fault_store_null', 8, 0),
                           ('fault_generic_store', 9, 8), ('fault_const_access', 10, 0)):
        cs.append(case(nm, 'ops_fault', (2, 1, 1), (64, 1, 1), [buf('buf', 512)],
                       [{"pointer": "buf"}, {"s32": mode}, {"u64": addr}], ['buf'], P))
    return sd, cs


# ---- cub ----------------------------------------------------------------------------

K = {
    'empty': "_ZN3cub17CUB_300001_SM_9006detail11EmptyKernelIvEEvv",
    'scan_init': "_ZN3cub17CUB_300001_SM_9006detail4scan20DeviceScanInitKernelINS0_13ScanTileStateIiLb1EEEEEvT_i",
    'scan': "_ZN3cub17CUB_300001_SM_9006detail4scan16DeviceScanKernelINS2_10policy_hubIiiijN4cuda3std3__44plusIvEEE10Policy1000EPiSC_NS0_13ScanTileStateIiLb1EEES9_NS0_8NullTypeEjiLb0ESF_EEvT0_T1_T2_iT3_T4_T5_",
    'hist': "_ZN3cub17CUB_300001_SM_9006detail10radix_sort30DeviceRadixSortHistogramKernelINS1_5radix10policy_hubIjNS0_8NullTypeEjE10Policy1000ELNS0_9SortOrderE0EjjNS1_21identity_decomposer_tEEEvPT2_PKT1_SB_iiT3_",
    'exsum': "_ZN3cub17CUB_300001_SM_9006detail10radix_sort33DeviceRadixSortExclusiveSumKernelINS1_5radix10policy_hubIjNS0_8NullTypeEjE10Policy1000EjEEvPT0_",
    'onesweep': "_ZN3cub17CUB_300001_SM_9006detail10radix_sort29DeviceRadixSortOnesweepKernelINS1_5radix10policy_hubIjNS0_8NullTypeEjE10Policy1000ELNS0_9SortOrderE0EjS6_jiiNS1_21identity_decomposer_tEEEvPT5_SC_PT3_PKSD_PT1_PKSH_PT2_PKSL_T4_iiT6_",
    'reduce_int': "_ZN3cub17CUB_300001_SM_9006detail6reduce28DeviceReduceSingleTileKernelINS2_10policy_hubIfjN4cuda3std3__44plusIvEEE10Policy1000EPfSC_iS9_ffNS7_10__identityEEEvT0_T1_T2_T3_T4_T6_",
}
SCAN_TILE = 3072          # 128 threads x 24 items (the scan kernel's .maxntid and policy)
ONESWEEP_TILE = 7680      # 384 threads x 20 items
HIST_TILE = 2048          # 128 threads x 16 items
SCAN_PAD = 32             # ScanTileState's padding descriptors before tile 0
ST_OOB, ST_INVALID, ST_INCLUSIVE = 0, 99, 101


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def f32r(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def cub_reference(name, inputs):
    """expected buffers {name: bytes} of a cub case, from its inputs {name: list of words}"""
    if name.startswith('scan_init'):
        ntiles = inputs['_ntiles']
        st = list(inputs['state'])
        for i in range(SCAN_PAD):
            st[2 * i] = ST_OOB; st[2 * i + 1] = 0
        for t in range(ntiles):
            st[2 * (SCAN_PAD + t)] = ST_INVALID; st[2 * (SCAN_PAD + t) + 1] = 0
        return {'state': struct.pack('<%dI' % len(st), *st)}
    if name.startswith('scan'):
        xs, n = inputs['in'], inputs['_n']
        acc, out = 0, []
        for v in xs[:n]:
            acc = (acc + v) & M32
            out.append(acc)
        out += inputs['out'][n:]
        st = list(inputs['state'])
        ntiles = (n + SCAN_TILE - 1) // SCAN_TILE
        for t in range(ntiles):
            # AgentScan::ConsumeTile: tile 0 publishes only when it is not also
            # the last tile; the last tile loads its missing items as a copy of
            # its first item ("collectives are not suffix guarded"), so its
            # published inclusive value counts them too
            if ntiles == 1:
                break
            end = min(n, (t + 1) * SCAN_TILE)
            v = out[end - 1]
            if t == ntiles - 1:
                v = (v + ((t + 1) * SCAN_TILE - n) * xs[t * SCAN_TILE]) & M32
            st[2 * (SCAN_PAD + t)] = ST_INCLUSIVE
            st[2 * (SCAN_PAD + t) + 1] = v
        return {'out': struct.pack('<%dI' % len(out), *out), 'state': struct.pack('<%dI' % len(st), *st)}
    if name.startswith('radix_hist'):
        bins = [0] * 1024
        # a partial tile is padded with the default key ~0 (digit 255 in every
        # pass), and AgentRadixSortHistogram counts the padding too
        n = inputs['_n']
        for k in inputs['keys'][:n] + [M32] * (-n % HIST_TILE):
            for p in range(4):
                bins[p * 256 + (k >> (8 * p) & 255)] += 1
        return {'bins': struct.pack('<1024I', *bins)}
    if name.startswith('radix_exsum'):
        b = list(inputs['bins'])
        for p in range(len(b) // 256):
            acc = 0
            for d in range(256):
                v = b[p * 256 + d]; b[p * 256 + d] = acc; acc = (acc + v) & M32
        return {'bins': struct.pack('<%dI' % len(b), *b)}
    if name.startswith('onesweep'):
        keys, n, bit = inputs['keys_in'], inputs['_n'], inputs['_bit']
        out = sorted(keys[:n], key=lambda k: k >> bit & 255)     # stable
        return {'keys_out': struct.pack('<%dI' % n, *out)}
    if name.startswith('reduce_int'):
        xs = [struct.unpack('<f', struct.pack('<I', v))[0] for v in inputs['in'][:inputs['_n']]]
        # the floats are small multiples of 1/64: every order of summation is exact
        return {'out': struct.pack('<f', f32r(sum(xs) + inputs['_init'])) + bytes(12)}
    return {}


def cub():
    sd = os.path.join(root, 'cub')
    P = 'general_sm90a.ptx'
    cs, refs = [], []

    def add(c, inputs):
        cs.append(c)
        refs.append((c, inputs))

    add(case('empty_kernel', K['empty'], (2, 1, 1), (32, 1, 1), [], [], [], P), {})
    ntiles = 4
    st0 = [0xffffffff] * (2 * (SCAN_PAD + ntiles + 4))
    write(os.path.join(sd, 'inputs', 'state_ff.bin'), st0, 'I')
    add(case('scan_init', K['scan_init'], (1, 1, 1), (128, 1, 1),
             [buf('state', 4 * len(st0), {"file": "inputs/state_ff.bin"})],
             [{"pointer": "state"}, {"s32": ntiles}], ['state'], P), {'state': st0, '_ntiles': ntiles})
    # the scan proper, with the descriptors as the init kernel leaves them
    n = 3 * SCAN_TILE + 1000
    xs = [rnd.randrange(-1000, 1000) & M32 for _ in range(n)]
    write(os.path.join(sd, 'inputs', 'scan_in.bin'), xs, 'I')
    st = [0] * (2 * (SCAN_PAD + ntiles))
    for t in range(ntiles):
        st[2 * (SCAN_PAD + t)] = ST_INVALID
    write(os.path.join(sd, 'inputs', 'scan_state.bin'), st, 'I')
    for nm, grid in (('scan_multi_tile', ntiles),):
        add(case(nm, K['scan'], (grid, 1, 1), (128, 1, 1),
                 [buf('in', 4 * n, {"file": "inputs/scan_in.bin"}), buf('out', 4 * n, {"fill": 0}),
                  buf('state', 4 * len(st), {"file": "inputs/scan_state.bin"})],
                 [{"pointer": "in"}, {"pointer": "out"}, {"pointer": "state"}, {"s32": 0}, {"u8": 0}, {"u8": 0},
                  {"u32": n}], ['out', 'state'], P), {'in': xs, 'out': [0] * n, 'state': st, '_n': n})
    n1 = 2000
    st1 = [0] * (2 * (SCAN_PAD + 1))
    st1[2 * SCAN_PAD] = ST_INVALID
    write(os.path.join(sd, 'inputs', 'scan_state1.bin'), st1, 'I')
    add(case('scan_single_tile', K['scan'], (1, 1, 1), (128, 1, 1),
             [buf("in", 4 * n1, {"hash32": 31}), buf('out', 4 * n1, {"fill": 0}),
              buf('state', 4 * len(st1), {"file": "inputs/scan_state1.bin"})],
             [{"pointer": "in"}, {"pointer": "out"}, {"pointer": "state"}, {"s32": 0}, {"u8": 0}, {"u8": 0},
              {"u32": n1}], ['out', 'state'], P), {'in': hash32(31, n1), 'out': [0] * n1, 'state': st1, '_n': n1})
    # radix sort pieces
    nk = 2 * ONESWEEP_TILE + 3000
    keys = hash32(41, nk)
    keys = [k if i % 5 else k & 0xff00ff0f for i, k in enumerate(keys)]     # repeated digits
    write(os.path.join(sd, 'inputs', 'keys.bin'), keys, 'I')
    add(case('radix_histogram', K['hist'], (3, 1, 1), (128, 1, 1),
             [buf('bins', 4096, {"fill": 0}), buf('keys', 4 * nk, {"file": "inputs/keys.bin"})],
             [{"pointer": "bins"}, {"pointer": "keys"}, {"u32": nk}, {"s32": 0}, {"s32": 32}, {"u8": 0}],
             ['bins'], P), {'keys': keys, '_n': nk})
    hist = [0] * 1024
    for k in keys:
        for p in range(4):
            hist[p * 256 + (k >> (8 * p) & 255)] += 1
    write(os.path.join(sd, 'inputs', 'hist.bin'), hist, 'I')
    add(case('radix_exsum', K['exsum'], (4, 1, 1), (256, 1, 1),
             [buf('bins', 4096, {"file": "inputs/hist.bin"})], [{"pointer": "bins"}], ['bins'], P), {'bins': hist})
    bit = 8
    offs, acc = [], 0
    for d in range(256):
        offs.append(acc); acc += hist[256 + d]
    write(os.path.join(sd, 'inputs', 'bins_pass1.bin'), offs, 'I')
    ntile = (nk + ONESWEEP_TILE - 1) // ONESWEEP_TILE
    add(case('onesweep_pass1', K['onesweep'], (ntile, 1, 1), (384, 1, 1),
             [buf('lookback', 4 * 256 * ntile, {"fill": 0}), buf('ctrs', 16, {"fill": 0}),
              buf('bins_out', 1024, {"fill": 0}), buf('bins_in', 1024, {"file": "inputs/bins_pass1.bin"}),
              buf('keys_out', 4 * nk, {"fill": 0}), buf('keys_in', 4 * nk, {"file": "inputs/keys.bin"})],
             [{"pointer": "lookback"}, {"pointer": "ctrs"}, {"pointer": "bins_out"}, {"pointer": "bins_in"},
              {"pointer": "keys_out"}, {"pointer": "keys_in"}, {"u64": 0}, {"u64": 0}, {"u32": nk}, {"s32": bit},
              {"s32": 8}, {"u8": 0}], ['keys_out'], P), {'keys_in': keys, '_n': nk, '_bit': bit})
    nf = 3000
    fl = [struct.unpack('<I', struct.pack('<f', rnd.randrange(-256, 256) / 64.0))[0] for _ in range(nf)]
    write(os.path.join(sd, 'inputs', 'floats64.bin'), fl, 'I')
    add(case('reduce_int_count', K['reduce_int'], (1, 1, 1), (256, 1, 1),
             [buf('in', 4 * nf, {"file": "inputs/floats64.bin"}), buf('out', 16, {"fill": 0})],
             [{"pointer": "in"}, {"pointer": "out"}, {"s32": nf}, {"u8": 0}, {"f32": 1.5}, {"u8": 0}], ['out'], P),
        {'in': fl, '_n': nf, '_init': 1.5})
    for c, inputs in refs:
        exp = cub_reference(c['name'], inputs)
        for b in c['expect']['buffers']:
            fn = 'expected/%s.%s.bin' % (c['name'], b['name'])
            os.makedirs(os.path.join(sd, 'expected'), exist_ok=True)
            with open(os.path.join(sd, fn), 'wb') as fh:
                fh.write(exp[b['name']])
            b['file'] = fn
    return sd, cs


def check(resdir):
    """compare oracle results (results.txt + SUITE.CASE.BUF.bin) to the cub reference"""
    bad = 0
    for l in open(os.path.join(root, 'cub', 'cases.jsonl')):
        c = json.loads(l)
        for b in c['expect'].get('buffers', []):
            hw = os.path.join(resdir, 'cub.%s.%s.bin' % (c['name'], b['name']))
            ref = open(os.path.join(root, 'cub', b['file']), 'rb').read()
            if not os.path.exists(hw):
                print('MISSING', c['name'], b['name']); bad += 1
            elif open(hw, 'rb').read() != ref:
                print('DIFFER', c['name'], b['name']); bad += 1
            else:
                print('same', c['name'], b['name'])
    return bad


if __name__ == '__main__':
    if len(sys.argv) > 2 and sys.argv[1] == '--check':
        sys.exit(1 if check(sys.argv[2]) else 0)
    for sd, cs in (ops(), cub()):
        os.makedirs(sd, exist_ok=True)
        with open(os.path.join(sd, 'cases.jsonl'), 'w') as fh:
            for c in cs:
                fh.write(json.dumps(c, separators=(",", ":")) + "\n")
        print(sd, len(cs), "cases")
