#!/usr/bin/env python3
"""measured.txt from one or more GPU runs (rounds) of ../src/tma_order.cu (job output
folders: summary.json from tma_order_analyze.py, raw/ the head of each
configuration's records).  Usage: summarize.py OUT_DIR... > measured.txt
(round 1 first).  Inversions come from summary.json when it has them (all
records, 400 CTA runs), else from the raw heads.

A line per configuration: the box (rows and bytes of a row, 0 for a plain
bulk copy), the CTA runs the inversion figures come from, the fraction of
chunk pairs 1, 4, 16 and 64 rows of 256 bytes apart (in shared memory)
that landed in reverse order (the higher one's first sighting before the
lower one's last miss), the largest such distance seen, and the landing
steps seen by the polling warps: how many split a 32-byte global sector
(round 2: step boundaries inside a sector; round 1: single-chunk steps;
plain bulk copies had random 16-byte aligned sources) and how many steps."""
import json, struct, sys, os
import numpy as np

GEOM = {  # rows, row bytes of each configuration (order.cu's table)
    't2d': (256, 256), 't2d_sw128': (256, 128), 't5d': (1024, 64), 't2d_row64': (256, 64),
    't2d_row48': (256, 48), 'bulk': (1, 0), 'mc2d': (256, 256), 't2d_off16': (256, 256),
    't2d_row48_off16': (256, 48), 't2d_half': (256, 256), 't2d_m16': (256, 256)}


def geom(name):
    base = name
    for suf in ('_warm_solo', '_warm_p4', '_warm', '_cold'):
        if base.endswith(suf):
            base = base[:-len(suf)]
            break
    return GEOM.get(base, (0, 0))


def raw_runs(fn):
    b = open(fn, 'rb').read()
    kind, rank, tx, expect, grid, npoll, cold, geo = struct.unpack_from('8i', b, 0)
    off, runs = 32, []
    try:
        while off + 64 <= len(b):
            cr = struct.unpack_from('16i', b, off); off += 64
            ws = []
            for _ in range(npoll):
                region, n, nn, _x = struct.unpack_from('4i', b, off); off += 16
                if off + 20 * nn > len(b):
                    raise EOFError
                ws.append((region, np.frombuffer(b, np.int32, 5 * nn, off).reshape(nn, 5))); off += 20 * nn
            runs.append((cr, ws))
    except (EOFError, struct.error):
        pass
    return kind, runs


def inversions(fn):
    kind, runs = raw_runs(fn)
    hinv = np.zeros(300, np.int64); htot = np.zeros(300, np.int64); used = 0
    for cr, ws in runs:
        if kind == 2 and cr[3] == 1:
            continue  # multicast: the issuing CTA's view
        ch, lo, hi = [], [], []
        for region, r in ws:
            l = np.full(32, 1 << 40); h = np.full(32, 1 << 40)
            for rec in r:
                f = int(rec[3]) & 0xffffffff
                for ln in range(32):
                    if (f >> ln) & 1 and h[ln] == 1 << 40:
                        l[ln], h[ln] = rec[0], rec[1]
            ch += list(region * 32 + np.arange(32)); lo += list(l); hi += list(h)
        ch, lo, hi = np.array(ch), np.array(lo), np.array(hi)
        d = (ch[None, :] - ch[:, None]) * 16 // 256
        pos = ch[None, :] > ch[:, None]
        inv = pos & (hi[None, :] <= lo[:, None])
        hinv += np.bincount(d[inv], minlength=300)[:300]
        htot += np.bincount(d[pos], minlength=300)[:300]
        used += 1
    fr = {k: (hinv[k] / htot[k] if htot[k] else None) for k in (1, 4, 16, 64)}
    nz = np.where(hinv > 0)[0]
    return used, fr, int(nz.max()) if len(nz) else -1


def main():
    print('# round name rows row_bytes phase runs inv1 inv4 inv16 inv64 max_inv_rows split_steps steps')
    print('# phase: where a box row starts in global memory, mod 32 bytes (shared: 0 mod 32)')
    for rnd, d in enumerate(sys.argv[1:], 1):
        for r in json.load(open(os.path.join(d, 'summary.json'))):
            if 'error' in r:
                continue
            g = r.get('all') or r.get('rank0')
            rows, rb = geom(r['name'])
            al = g['landing_step_alignment_chunks']
            steps = sum(al.values())
            # a split sector: a step boundary inside a 32-byte global sector
            # (round 2 counts those); round 1: steps of a single chunk
            split = g['step_boundaries_inside_sector'] if 'step_boundaries_inside_sector' in g else al.get('1', 0)
            fn = os.path.join(d, 'raw', 'raw_%s.bin' % r['name'])
            if 'inversion_frac_by_distance_256B' in g:  # from all the records (400 CTA runs)
                used = min(400, r['cta_runs'])
                fr = {k: g['inversion_frac_by_distance_256B'].get(str(k)) for k in (1, 4, 16, 64)}
                mx = g['inversion_max_distance_256B']
            else:
                used, fr, mx = inversions(fn) if os.path.exists(fn) else (0, {}, -1)
            f = lambda k: '-' if fr.get(k) is None else '%.3f' % fr[k]
            phase = 16 if 'off16' in r['name'] else 0
            print('r%d %s %d %d %d %d %s %s %s %s %d %d %d' % (rnd, r['name'], rows, rb, phase, used, f(1), f(4), f(16),
                                                             f(64), mx, split, steps))


if __name__ == '__main__':
    main()
