#!/usr/bin/env python3
"""Compress the probe's arrays into OUTDIR within a size budget: datasets in
priority order, subsampled (every k-th element, each plane alike) when the
full set does not fit.  pack.txt records the stride chosen per dataset."""
import lzma, os, sys, time
from multiprocessing import Pool
src, dst, budget, deadline = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
man = [l.split(' ', 2) for l in open(os.path.join(src, 'manifest.txt')).read().splitlines() if l]
info = {m[0]: m[2] for m in man}
prio = ['vdiff_', 'h_', 'v_', 'd_', 'c_rcp.ftz_1_2', 'c_ex2.ftz_1_2', 'b_', 'c_rsqrt', 'c_sqrt', 'c_lg2',
        'c_ex2.ftz_m1_m2', 'c_ex2.ftz_05_1', 'c_tanh_05_1', 'c_tanh_1_2', 'c_sin.ftz_1_2', 'c_cos.ftz_1_2', 'c_sin.ftz_05_1']
names = []
for p in prio:
    names += sorted(n for n in info if n.startswith(p) and n not in names)
names += [n for n in info if n not in names]

def comp(args):
    name, k = args
    data = open(os.path.join(src, name), 'rb').read()
    inf = info[name]
    if k > 1:
        es = int(inf[6]) if inf.startswith('planes') else 1
        n = len(data) // es
        data = b''.join(data[b * n:(b + 1) * n][::k] for b in range(es))
    return name, k, lzma.compress(data, format=lzma.FORMAT_XZ, preset=6)

log = open(os.path.join(dst, 'pack.txt'), 'w')
pool = Pool(14)
pend = {n: pool.apply_async(comp, ((n, 1),)) for n in names}
left = budget
for n in names:
    try:
        _, k, c = pend[n].get(max(1, deadline - time.time()))
    except Exception as e:
        log.write('%s skipped: %r\n' % (n, e))
        continue
    full = len(c)
    while len(c) > left and k < 64 and time.time() < deadline:
        k2 = k * 2
        while full / k2 > left * 0.95 and k2 < 64:
            k2 *= 2
        try:
            _, k, c = pool.apply_async(comp, ((n, k2),)).get(max(1, deadline - time.time()))
        except Exception as e:
            break
    if len(c) > left:
        log.write('%s skipped: %d bytes do not fit in %d\n' % (n, len(c), left))
        continue
    open(os.path.join(dst, n + '.xz'), 'wb').write(c)
    left -= len(c)
    log.write('%s stride %d: %d bytes (left %d)\n' % (n, k, len(c), left))
    log.flush()
log.close()
pool.terminate()
