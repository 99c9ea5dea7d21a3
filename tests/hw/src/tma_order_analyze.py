#!/usr/bin/env python3
"""Aggregate order.cu's records: per configuration, when each 16-byte chunk of
the destination first held its data, relative to the issue (%clock64 of the
same SM), how chunks land together, and whether the order repeats."""
import json
import struct
import sys
import glob
import os
import numpy as np

INF = np.int64(1 << 40)


def parse(fn):
    b = open(fn, 'rb').read()
    hd = struct.unpack_from('8i', b, 0)
    kind, rank, tx, expect, grid, npoll, cold, geo = hd
    off = 32
    ctas = []
    wobs = []     # (cta_index, region, n, nn, rec_start)
    recs = []
    nrec = 0
    while off < len(b):
        cr = struct.unpack_from('16i', b, off)
        off += 64
        ci = len(ctas)
        ctas.append(cr)
        for w in range(npoll):
            region, n, nn, _ = struct.unpack_from('4i', b, off)
            off += 16
            wobs.append((ci, region, n, nn, nrec))
            if nn:
                recs.append(np.frombuffer(b, dtype=np.int32, count=5 * nn, offset=off).reshape(nn, 5))
            off += 20 * nn
            nrec += nn
    recs = np.concatenate(recs) if recs else np.zeros((0, 5), np.int32)
    return dict(geo=geo, kind=kind, rank=rank, tx=tx, expect=expect, grid=grid, npoll=npoll, cold=cold,
                ctas=np.array(ctas, np.int64), wobs=np.array(wobs, np.int64), recs=recs)


def unswz128(chunk):
    """smem chunk index -> box chunk index for SWIZZLE_128B (16-byte chunks)."""
    a = chunk * 16
    return (a ^ (((a >> 7) & 7) << 4)) // 16


def spearman(x, y):
    rx = np.argsort(np.argsort(x)).astype(float)
    ry = np.argsort(np.argsort(y)).astype(float)
    return float(np.corrcoef(rx, ry)[0, 1])


def analyze(name, d, out):
    ctas, wobs, recs = d['ctas'], d['wobs'], d['recs']
    tx = d['tx']
    nch = tx // 16
    res = dict(name=name, kind=d['kind'], rank=d['rank'], tx=tx, expect=d['expect'], grid=d['grid'],
               npoll=d['npoll'], cold=d['cold'], cta_runs=int(len(ctas)), warp_obs=int(len(wobs)),
               records=int(len(recs)))
    st = ctas[:, 4]
    res['phase0_completed'] = int(np.sum(st & 1))
    res['phase1_completed'] = int(np.sum((st >> 1) & 1))
    res['overflow_or_timeout'] = int(np.sum((wobs[:, 2] != (wobs[:, 2] & 0x7fffffff)) | ((wobs[:, 2] & 0x7fffffff) > wobs[:, 3])))
    res['issue_cycles_median'] = float(np.median(ctas[:, 5]))
    # per record: owning warp obs
    nn = wobs[:, 3]
    owner = np.repeat(np.arange(len(wobs)), nn)
    full = recs[:, 3].astype(np.uint32)
    anyb = recs[:, 2].astype(np.uint32)
    bits = ((full[:, None] >> np.arange(32, dtype=np.uint32)) & 1).astype(bool)
    abits = ((anyb[:, None] >> np.arange(32, dtype=np.uint32)) & 1).astype(bool)
    tn = recs[:, 1].astype(np.int64)
    tp = recs[:, 0].astype(np.int64)
    ok = nn > 0
    starts = wobs[:, 4] - 0
    starts = np.cumsum(np.concatenate([[0], nn[:-1]]))
    # first time each lane is full: min over the owner's records of tn where bit set
    tfull = np.where(bits, tn[:, None], INF)
    tfirst = np.full((len(wobs), 32), INF)
    tfirst[ok] = np.minimum.reduceat(tfull, starts[ok], axis=0)
    tlow = np.full((len(wobs), 32), INF)
    tfl = np.where(bits, tp[:, None], INF)
    tlow[ok] = np.minimum.reduceat(tfl, starts[ok], axis=0)
    # record index at which each lane became full (within its obs)
    ridx = np.arange(len(recs)) - np.repeat(starts, nn)
    rfull = np.where(bits, ridx[:, None], 1 << 20)
    rfirst = np.full((len(wobs), 32), 1 << 20)
    rfirst[ok] = np.minimum.reduceat(rfull, starts[ok], axis=0)
    # torn chunks: seen changed in some word but not all four
    torn = abits & ~bits
    res['torn_observations'] = int(torn.sum())
    res['torn_lane_records_of'] = int(abits.sum())
    crank = ctas[wobs[:, 0], 3]
    groups = [('all', np.ones(len(wobs), bool))]
    if d['kind'] == 2:
        groups = [('rank0', crank == 0), ('rank1', crank == 1)]
    for gname, gm in groups:
        g = {}
        chunk = (wobs[gm, 1][:, None] * 32 + np.arange(32)[None, :]).ravel()
        t = tfirst[gm].ravel()
        valid = t < INF
        chunk, t = chunk[valid], t[valid]
        cnt = np.bincount(chunk, minlength=nch)
        order = np.argsort(chunk, kind='stable')
        cs, ts = chunk[order], t[order]
        bounds = np.searchsorted(cs, np.arange(nch + 1))
        med = np.full(nch, np.nan); p10 = np.full(nch, np.nan); p90 = np.full(nch, np.nan)
        for c in range(nch):
            v = ts[bounds[c]:bounds[c + 1]]
            if len(v):
                med[c] = np.median(v); p10[c] = np.percentile(v, 10); p90[c] = np.percentile(v, 90)
        g['obs_per_chunk_min'] = int(cnt.min()); g['obs_per_chunk_median'] = float(np.median(cnt))
        vm = ~np.isnan(med)
        g['first_chunk_median_cycles'] = float(np.nanmin(med)); g['last_chunk_median_cycles'] = float(np.nanmax(med))
        g['chunk_p90_minus_p10_median'] = float(np.nanmedian(p90 - p10))
        idx = np.arange(nch)
        g['spearman_time_vs_smem_address'] = spearman(med[vm], idx[vm])
        if d['kind'] != 1:
            box = unswz128(idx)
            g['spearman_time_vs_box_index_if_sw128'] = spearman(med[vm], box[vm])
        # medians by 512-byte region, and by 128-byte line inside the first regions
        g['region_median_cycles'] = [round(float(np.nanmedian(med[r * 32:(r + 1) * 32])), 1) for r in range(nch // 32)]
        g['line_median_cycles_first8regions'] = [round(float(np.nanmedian(med[l * 8:(l + 1) * 8])), 1) for l in range(min(32, nch // 8))]
        g['chunk_median_cycles_first64'] = [None if np.isnan(x) else round(float(x), 1) for x in med[:64]]
        np.savez_compressed(os.path.join(out, f'{name}_{gname}_chunks.npz'), med=med, p10=p10, p90=p90, cnt=cnt)
        # inside a region: the landing steps (which lanes became full together)
        W = np.where(gm & ok)[0]
        stepsz = {}
        align = {}
        monotone = 0
        pats = {}
        for w in W[:8000]:
            rf = rfirst[w]
            if (rf >= (1 << 20)).any():
                continue
            ranks = tuple(np.unique(rf, return_inverse=True)[1].tolist())
            pats[ranks] = pats.get(ranks, 0) + 1
            if np.all(np.diff(rf) >= 0):
                monotone += 1
            for r in np.unique(rf):
                lanes = np.where(rf == r)[0]
                m = 0
                for l in lanes:
                    m |= 1 << int(l)
                stepsz[len(lanes)] = stepsz.get(len(lanes), 0) + 1
                a = 1
                for gsz in (2, 4, 8, 16, 32):
                    gm_ = (1 << gsz) - 1
                    okg = all(((m >> s) & gm_) in (0, gm_) for s in range(0, 32, gsz))
                    if okg:
                        a = gsz
                align[a] = align.get(a, 0) + 1
        g['region_obs_used'] = int(min(len(W), 8000))
        g['region_lane_order_monotone'] = monotone
        g['landing_step_sizes_chunks'] = {str(k): v for k, v in sorted(stepsz.items())}
        g['landing_step_alignment_chunks'] = {str(k): v for k, v in sorted(align.items())}
        top = sorted(pats.items(), key=lambda kv: -kv[1])[:8]
        g['distinct_region_patterns'] = len(pats)
        g['top_region_patterns'] = [[v, ''.join('%x' % min(x, 15) for x in k)] for k, v in top]
        # order of regions inside one CTA run: Kendall-like agreement with address order
        rt = np.where(tfirst < INF, tfirst, np.nan)
        rstart = np.nanmin(rt, axis=1)
        rend = np.nanmax(rt, axis=1)
        agree = tot = 0
        cw = wobs[:, 0]
        sel = np.where(gm & ok)[0]
        byc = {}
        for w in sel:
            byc.setdefault(int(cw[w]), []).append(w)
        pair_before = {}
        for c, ws in byc.items():
            for i in range(len(ws)):
                for j in range(i + 1, len(ws)):
                    a, b = ws[i], ws[j]
                    ra, rb = wobs[a, 1], wobs[b, 1]
                    if ra == rb or np.isnan(rstart[a]) or np.isnan(rstart[b]):
                        continue
                    if rend[a] < rstart[b] or rend[b] < rstart[a]:
                        tot += 1
                        first_low = (ra < rb) == (rend[a] < rstart[b])
                        agree += first_low
        g['region_pairs_disjoint_in_time'] = tot
        g['region_pairs_lower_address_first'] = int(agree)
        # phase completion vs data
        td = ctas[:, 6]
        last_obs = {}
        for c, ws in byc.items():
            last_obs[c] = np.nanmax(rend[ws])
        dd = [td[c] - v for c, v in last_obs.items() if td[c] >= 0 and not np.isnan(v)]
        if dd:
            g['phase_done_minus_last_observed_chunk_cycles_median'] = float(np.median(dd))
            g['phase_done_minus_last_observed_chunk_cycles_p10_p90'] = [float(np.percentile(dd, 10)), float(np.percentile(dd, 90))]
        g['phase0_done_cycles_median'] = float(np.median(td[td >= 0])) if (td >= 0).any() else None
        if d['expect'] < tx:
            # at the first record where this warp saw the phase complete: chunks full then
            ph = recs[:, 4]
            firstph = np.full(len(wobs), -1)
            idxs = np.where(ph == 1)[0]
            o = owner[idxs]
            # first per owner
            uo, fi = np.unique(o, return_index=True)
            firstph[uo] = idxs[fi]
            sel2 = np.where(gm & (firstph >= 0))[0]
            fulls = full[firstph[sel2]]
            pc = np.array([bin(int(x)).count('1') for x in fulls])
            regs = wobs[sel2, 1]
            g['short_obs'] = int(len(sel2))
            g['short_frac_chunks_present_at_phase'] = float(pc.sum() / (32 * len(sel2))) if len(sel2) else None
            g['short_regions_all_present'] = int((pc == 32).sum())
            g['short_regions_none_present'] = int((pc == 0).sum())
            g['short_regions_partial'] = int(((pc > 0) & (pc < 32)).sum())
            nr = nch // 32
            fr = []
            for r in range(nr):
                m = regs == r
                fr.append(round(float(pc[m].mean() / 32), 3) if m.any() else None)
            g['short_present_frac_by_region'] = fr
            # the same, from times: chunks whose first-full time <= waiter's phase-done time
            tdw = ctas[wobs[sel, 0], 6]
            tf = tfirst[sel]
            g['short_frac_chunks_before_waiter_saw_phase'] = float(np.mean(tf <= tdw[:, None]))
        # step boundaries between smem-adjacent chunks of one row: at a
        # 32-byte global sector boundary, or inside a sector (a split sector)
        geo = d['geo']
        rowb, goff, swz = geo & 0x7fff, geo >> 16, (geo >> 15) & 1
        if not swz:
            at = inside = 0
            sel3 = np.where(gm & ok)[0]
            for w in sel3[:8000]:
                rf = rfirst[w]
                if (rf >= (1 << 20)).any():
                    continue
                base = wobs[w, 1] * 32
                srco = ctas[wobs[w, 0], 13] if d['kind'] == 1 else 0
                for l in range(1, 32):
                    if rf[l] == rf[l - 1]:
                        continue
                    c = base + l
                    if d['kind'] == 1:
                        gb = srco + 16 * c
                    else:
                        if (c * 16) % rowb == 0:
                            continue  # a new box row
                        gb = goff + (c * 16) % rowb
                    if gb % 32 == 0:
                        at += 1
                    else:
                        inside += 1
            g['step_boundaries_at_sector_edge'] = at
            g['step_boundaries_inside_sector'] = inside
        # inversions by distance: chunk b above a (address) surely landed before a
        rng_ = np.random.default_rng(5)
        cts = list(byc.keys())
        rng_.shuffle(cts)
        hinv = np.zeros(512, np.int64); htot = np.zeros(512, np.int64)
        for cc in cts[:400]:
            ws = byc[cc]
            ch = (wobs[ws, 1][:, None] * 32 + np.arange(32)[None, :]).ravel()
            lo = tlow[ws].ravel(); hi = tfirst[ws].ravel()
            m = hi < INF
            ch, lo, hi = ch[m], lo[m], hi[m]
            dd = (ch[None, :] - ch[:, None]) * 16 // 256
            pos = ch[None, :] > ch[:, None]
            inv = pos & (hi[None, :] <= lo[:, None])
            hinv += np.bincount(dd[inv].ravel(), minlength=512)[:512]
            htot += np.bincount(dd[pos].ravel(), minlength=512)[:512]
        nz = np.where(hinv > 0)[0]
        g['inversion_max_distance_256B'] = int(nz.max()) if len(nz) else -1
        g['inversion_frac_by_distance_256B'] = {str(k): round(float(hinv[k] / htot[k]), 4) for k in
                                                 [0, 1, 2, 4, 8, 16, 32, 64, 96, 128, 192, 224, 255] if htot[k]}
        res[gname] = g
    return res


def one(fn, pre, out):
    name = os.path.basename(fn)[len(os.path.basename(pre)) + 1:-4]
    try:
        d = parse(fn)
        r = analyze(name, d, out)
    except Exception as e:  # keep going, say why
        import traceback
        traceback.print_exc()
        r = dict(name=name, error=repr(e))
    print(json.dumps(r)[:2000], flush=True)
    return r


def main():
    pre, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    fns = sorted(glob.glob(pre + '_*.bin'))
    import multiprocessing
    with multiprocessing.Pool(min(12, max(1, len(fns)))) as pool:
        allres = pool.starmap(one, [(fn, pre, out) for fn in fns])
    json.dump(allres, open(os.path.join(out, 'summary.json'), 'w'), indent=1)


if __name__ == '__main__':
    main()
