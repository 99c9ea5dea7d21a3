#!/usr/bin/env python3
"""Writes the wgmma layout suite: wgmma_sm90a.ptx (one kernel per case) and
cases.jsonl (ptxi-launch/1).  Run once; the expected bytes come from the H100
(oracle: plan.py, run.sh, collect.py).

Every kernel is the same harness around one wgmma.mma_async:
  - buffer `in` (hash32, seed per case): bytes [0, 48K) are copied word by word
    into a 48 KiB shared array, each word masked: w = (w & MI) | OI, so that the
    hash becomes small, exactly representable values of the operand type;
    [48K, 50K) hold the A fragment (4 words per thread, same mask) when A comes
    from registers; [50K, 114K) the accumulator input (nD words per thread,
    mask MC/OC); [114K, 114.5K) the sparse metadata word per thread (MM/OM).
  - fence.proxy.async, bar.sync, then the descriptors are the u64 parameters
    with the shared array's address (>>4) added to the start-address field.
  - the D registers are written out raw: out[tid*nD + i] = d[i], so the
    expected bytes pin the fragment layout without any interpretation.
The masks keep every product and partial sum exact in f32 (see mask table), so
a wrong layout, not rounding, is what a mismatch shows.
"""
import json, random

SMEM = 49152
A_OFF, C_OFF, M_OFF = 49152, 51200, 51200 + 65536
IN_BYTES = M_OFF + 512

# operand masks (MI, OI) per type: sign, one exponent bit, two mantissa bits
MASK = {
    "f16": (0x8F008F00, 0x38003800),   # +-{0.5..0.875, 1..1.75}
    "bf16": (0x80E080E0, 0x3F003F00),
    "tf32": (0x80E00000, 0x3F000000),
    "e4m3": (0x8E8E8E8E, 0x30303030),  # +-{0.5..0.875, 1..1.75}
    "e5m2": (0x87878787, 0x38383838),
    "s8": (0xFFFFFFFF, 0), "u8": (0xFFFFFFFF, 0), "b1": (0xFFFFFFFF, 0),
}
CMASK = {"f32": (0x80E00000, 0x3F000000), "f16": (0x8F008F00, 0x38003800), "s32": (0xFFFFFFFF, 0)}
KOF = {"f16": 16, "bf16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32, "s8": 32, "u8": 32, "b1": 256}
SWZ = {"none": 0, "128": 1, "64": 2, "32": 3}


def desc(start, lbo, sbo, swz, base=0):
    assert start % 16 == 0 and lbo % 16 == 0 and sbo % 16 == 0
    return ((start >> 4) & 0x3FFF) | (((lbo >> 4) & 0x3FFF) << 16) | (((sbo >> 4) & 0x3FFF) << 32) \
        | ((base & 7) << 49) | (SWZ[swz] << 62)


def nregs(dtype, n):
    return n // 4 if dtype == "f16" else n // 2


def kernel(c):
    name, n, at, bt, dt = c["name"], c["n"], c["at"], c["bt"], c["dt"]
    nd = nregs(dt, n)
    sp = c.get("sp")
    k = KOF[at] * (2 if sp is not None else 1)
    rk = "f" if dt in ("f32",) else "d"
    L = []
    L.append(".visible .entry k_%s(.param .u64 pin, .param .u64 pout, .param .u64 pda, .param .u64 pdb," % name)
    L.append("  .param .u32 pmi, .param .u32 poi, .param .u32 pmc, .param .u32 poc, .param .u32 pmm, .param .u32 pom, .param .u32 psd)")
    L.append("{")
    L.append("  .reg .b32 %r<16>; .reg .b64 %rd<16>; .reg .pred %p<4>;")
    L.append("  .reg .b32 %a<4>; .reg .b32 %d<{0}>; .reg .f32 %f<{0}>;".format(nd))
    L.append("  ld.param.u64 %rd1, [pin]; cvta.to.global.u64 %rd1, %rd1;")
    L.append("  ld.param.u64 %rd2, [pout]; cvta.to.global.u64 %rd2, %rd2;")
    L.append("  ld.param.u32 %r10, [pmi]; ld.param.u32 %r11, [poi];")
    L.append("  ld.param.u32 %r12, [pmc]; ld.param.u32 %r13, [poc];")
    L.append("  mov.u32 %r1, %tid.x;")
    L.append("  mov.u32 %r4, smem;")
    L.append("  mov.u32 %r2, %r1;")
    L.append("$Lcopy:")
    L.append("  mul.wide.u32 %rd5, %r2, 4; add.u64 %rd6, %rd1, %rd5; ld.global.u32 %r3, [%rd6];")
    L.append("  and.b32 %r3, %r3, %r10; or.b32 %r3, %r3, %r11;")
    L.append("  shl.b32 %r5, %r2, 2; add.u32 %r5, %r5, %r4; st.shared.u32 [%r5], %r3;")
    L.append("  add.u32 %%r2, %%r2, 128; setp.lt.u32 %%p1, %%r2, %d; @%%p1 bra $Lcopy;" % (SMEM // 4))
    if c["asrc"] == "regs":
        L.append("  mul.wide.u32 %%rd7, %%r1, 16; add.u64 %%rd7, %%rd7, %%rd1; add.u64 %%rd7, %%rd7, %d;" % A_OFF)
        L.append("  ld.global.v4.u32 {%a0,%a1,%a2,%a3}, [%rd7];")
        for i in range(4):
            L.append("  and.b32 %%a%d, %%a%d, %%r10; or.b32 %%a%d, %%a%d, %%r11;" % (i, i, i, i))
    L.append("  mul.wide.u32 %%rd8, %%r1, %d; add.u64 %%rd8, %%rd8, %%rd1; add.u64 %%rd8, %%rd8, %d;" % (nd * 4, C_OFF))
    for i in range(nd):
        L.append("  ld.global.u32 %%d%d, [%%rd8+%d]; and.b32 %%d%d, %%d%d, %%r12; or.b32 %%d%d, %%d%d, %%r13;" % (i, 4 * i, i, i, i, i))
        if rk == "f":
            L.append("  mov.b32 %%f%d, %%d%d;" % (i, i))
    if sp is not None:
        L.append("  ld.param.u32 %r6, [pmm]; ld.param.u32 %r7, [pom];")
        L.append("  mul.wide.u32 %%rd9, %%r1, 4; add.u64 %%rd9, %%rd9, %%rd1; ld.global.u32 %%r8, [%%rd9+%d];" % M_OFF)
        L.append("  and.b32 %r8, %r8, %r6; or.b32 %r8, %r8, %r7;")
    L.append("  fence.proxy.async.shared::cta;")
    L.append("  bar.sync 0;")
    L.append("  shr.u32 %r9, %r4, 4; cvt.u64.u32 %rd10, %r9;")
    L.append("  ld.param.u64 %rd11, [pda]; add.u64 %rd11, %rd11, %rd10;")
    L.append("  ld.param.u64 %rd12, [pdb]; add.u64 %rd12, %rd12, %rd10;")
    L.append("  ld.param.u32 %r14, [psd]; setp.ne.u32 %p2, %r14, 0;")
    dregs = "{" + ", ".join("%%%s%d" % (rk, i) for i in range(nd)) + "}"
    aop = "%rd11" if c["asrc"] == "desc" else "{%a0, %a1, %a2, %a3}"
    spop = ", %%r8, %d" % sp if sp is not None else ""
    isfloat = at in ("f16", "bf16", "tf32", "e4m3", "e5m2")
    tail = ""
    if isfloat:
        tail = ", %d, %d" % (c.get("na", 1), c.get("nb", 1))
        if at in ("f16", "bf16"):
            tail += (", %d, %d" % (c.get("ta", 0), c.get("tb", 0))) if c["asrc"] == "desc" else ", %d" % c.get("tb", 0)
    mods = ".sp" if sp is not None else ""
    shape = "m64n%dk%d" % (n, k)
    if at == "b1":
        ty = ".s32.b1.b1.and.popc"
    elif at in ("s8", "u8"):
        ty = "%s.s32.%s.%s" % (".satfinite" if c.get("sat") else "", at, bt)
    else:
        ty = ".%s.%s.%s" % (dt, at, bt)
    L.append("  wgmma.fence.sync.aligned;")
    chain = c.get("chain", [(0, 0)])
    for i, (oa, ob) in enumerate(chain):
        a_i, b_i = aop, "%rd12"
        if oa or ob:
            L.append("  add.u64 %%rd14, %%rd11, %d; add.u64 %%rd15, %%rd12, %d;" % (oa, ob))
            a_i = "%rd14" if c["asrc"] == "desc" else aop
            b_i = "%rd15"
        sd = "%p2" if i == 0 else "1"
        L.append("  wgmma.mma_async%s.sync.aligned.%s%s %s, %s, %s%s, %s%s;" % (mods, shape, ty, dregs, a_i, b_i, spop, sd, tail))
        if c.get("pipe"):
            L.append("  wgmma.commit_group.sync.aligned;")
    if not c.get("pipe"):
        L.append("  wgmma.commit_group.sync.aligned;")
    else:
        L.append("  wgmma.wait_group.sync.aligned %d;" % (len(chain) - 1))
    L.append("  wgmma.wait_group.sync.aligned 0;")
    L.append("  mul.wide.u32 %%rd13, %%r1, %d; add.u64 %%rd13, %%rd13, %%rd2;" % (nd * 4))
    for i in range(nd):
        L.append("  st.global.b32 [%%rd13+%d], %%%s%d;" % (4 * i, rk, i))
    L.append("  ret;")
    L.append("}")
    return "\n".join(L)


def case_json(c, seed, ptx="wgmma_sm90a.ptx"):
    nd = nregs(c["dt"], c["n"])
    mi, oi = c.get("imask", MASK[c["at"]])
    mc, oc = c.get("cmask", CMASK[c["dt"]])
    mm, om = c.get("meta", (0, 0))
    return {"format": "ptxi-launch/1", "name": c["name"], "description": c["desc"],
            "ptx": ptx, "kernel": "k_" + c["name"], "grid": [1, 1, 1], "block": [128, 1, 1],
            "buffers": [{"name": "in", "bytes": IN_BYTES, "init": {"hash32": seed}},
                        {"name": "out", "bytes": 128 * nd * 4, "init": {"fill": 165}}],
            "params": [{"pointer": "in"}, {"pointer": "out"}, {"u64": "0x%016x" % c["da"]}, {"u64": "0x%016x" % c["db"]},
                       {"u32": mi}, {"u32": oi}, {"u32": mc}, {"u32": oc}, {"u32": mm}, {"u32": om},
                       {"u32": c.get("sd", 1)}],
            "expect": {"buffers": [{"name": "out", "file": "expected/%s.out.bin" % c["name"]}]}}


B0 = 16384  # B's region


def kmaj(swz, start, rows, lbo=None, sbo=None, base=0):
    """K-major descriptor with the canonical strides unless given."""
    w = {"none": 16, "32": 32, "64": 64, "128": 128}[swz]
    if swz == "none":
        lbo = 128 * (rows // 8) if lbo is None else lbo  # the 2nd 16B K chunk after all row groups
        sbo = 128 if sbo is None else sbo
    else:
        lbo = 0 if lbo is None else lbo
        sbo = 8 * w if sbo is None else sbo
    return desc(start, lbo, sbo, swz, base)


def mnmaj(swz, start, mn, lbo=None, sbo=None, base=0, kgroups=2):
    """MN-major (16-bit types): interleave: 16B MN chunks at SBO, 8-K groups at
    LBO; swizzled: W-byte MN rows, MN blocks at LBO, 8-K groups at SBO."""
    if swz == "none":
        sbo = 128 if sbo is None else sbo
        lbo = 128 * (mn // 8) if lbo is None else lbo
    else:
        w = {"32": 32, "64": 64, "128": 128}[swz]
        sbo = 8 * w if sbo is None else sbo
        lbo = 8 * w * kgroups if lbo is None else lbo
    return desc(start, lbo, sbo, swz, base)


def cases():
    C = []

    def add(name, d, **kw):
        c = dict(name=name, desc=d, n=16, at="f16", bt="f16", dt="f32", asrc="desc")
        c.update(kw)
        C.append(c)
    # f16, every swizzle, K-major A and B (desc) and A from registers
    for s in ("none", "32", "64", "128"):
        add("f16_k_sw%s" % s, "f16->f32 m64n16k16, A and B K-major, swizzle %s" % s,
            da=kmaj(s, 0, 64), db=kmaj(s, B0, 16))
        add("f16_areg_sw%s" % s, "f16->f32 m64n16k16, A from registers, B K-major swizzle %s" % s,
            asrc="regs", da=0, db=kmaj(s, B0, 16))
    # MN-major A and B (imm-trans)
    for s in ("none", "32", "64", "128"):
        add("f16_mn_sw%s" % s, "f16->f32 m64n64k16, A and B MN-major (trans 1,1), swizzle %s" % s,
            n=64, ta=1, tb=1, da=mnmaj(s, 0, 64), db=mnmaj(s, B0, 64))
    add("f16_mnA_sw128", "f16 m64n32k16, A MN-major 128B, B K-major 128B", n=32, ta=1,
        da=mnmaj("128", 0, 64), db=kmaj("128", B0, 32))
    add("f16_mnB_sw64", "f16 m64n32k16, A K-major 64B, B MN-major 64B", n=32, tb=1,
        da=kmaj("64", 0, 64), db=mnmaj("64", B0, 32))
    add("f16_areg_mnB_sw32", "f16 m64n32k16, A from registers, B MN-major 32B", n=32, tb=1, asrc="regs",
        da=0, db=mnmaj("32", B0, 32))
    # LBO/SBO variants
    add("f16_k_none_lbo_sbo1", "K-major interleave, LBO 1024 SBO 128 (K chunks far apart)",
        da=kmaj("none", 0, 64, lbo=2048, sbo=256), db=kmaj("none", B0, 16, lbo=4096, sbo=384))
    add("f16_k_none_lbo_sbo2", "K-major interleave, SBO 1040 LBO 144 (padded)",
        da=kmaj("none", 0, 64, lbo=144, sbo=1040), db=kmaj("none", B0, 16, lbo=272, sbo=2080))
    add("f16_k_sw128_sbo2048", "K-major 128B, SBO 2048, LBO field 0x100 (ignored?)",
        da=kmaj("128", 0, 64, lbo=4096, sbo=2048), db=kmaj("128", B0, 16, lbo=16, sbo=3072))
    add("f16_k_sw64_sbo768", "K-major 64B, SBO 768",
        da=kmaj("64", 0, 64, lbo=48, sbo=768), db=kmaj("64", B0, 16, sbo=1536))
    add("f16_k_sw32_sbo512", "K-major 32B, SBO 512 and 272",
        da=kmaj("32", 0, 64, sbo=512), db=kmaj("32", B0, 16, sbo=272))
    add("f16_mn_none_var", "MN-major interleave, SBO 256 LBO 2048", n=32, ta=1, tb=1,
        da=mnmaj("none", 0, 64, sbo=256, lbo=2048), db=mnmaj("none", B0, 32, sbo=384, lbo=1536))
    add("f16_mn_sw128_var", "MN-major 128B, SBO 2048 (K groups) LBO 4096", n=64, ta=1, tb=1,
        da=mnmaj("128", 0, 64, sbo=2048, lbo=4096), db=mnmaj("128", B0, 64, sbo=3072, lbo=8192))
    add("f16_mn_sw64_var", "MN-major 64B, N 128: two MN blocks at LBO", n=128, ta=1, tb=1,
        da=mnmaj("64", 0, 64, sbo=512, lbo=1024), db=mnmaj("64", B0, 128, sbo=512, lbo=1024))
    add("f16_mn_sw32_var", "MN-major 32B, N 64", n=64, ta=1, tb=1,
        da=mnmaj("32", 0, 64, sbo=256, lbo=512), db=mnmaj("32", B0, 64, sbo=256, lbo=512))
    # K offset inside a swizzle row (start address +32/+64/+96: the next K block)
    for s, kk in (("128", 1), ("128", 3), ("64", 1), ("32", 0)):
        add("f16_k_sw%s_kblk%d" % (s, kk), "K-major %sB, start +%d bytes (K block %d)" % (s, 32 * kk, kk),
            da=kmaj(s, 32 * kk, 64), db=kmaj(s, B0 + 32 * kk, 16))
    add("f16_mn_sw128_kblk1", "MN-major 128B, start + 2048 (K block 1)", n=64, ta=1, tb=1,
        da=mnmaj("128", 2048, 64), db=mnmaj("128", B0 + 2048, 64))
    # base offset: start not on the 1024-byte pattern boundary
    for j, b in ((1, 0), (1, 1), (3, 0), (3, 3), (5, 2), (0, 4)):
        add("f16_base_sw128_r%d_b%d" % (j, b), "K-major 128B, start +%d rows (x128B), base offset %d" % (j, b),
            da=kmaj("128", 128 * j, 64, base=b), db=kmaj("128", B0 + 128 * j, 16, base=b))
    for j, b in ((2, 0), (2, 2), (1, 1)):
        add("f16_base_sw64_r%d_b%d" % (j, b), "K-major 64B, start +%d rows (x128B), base offset %d" % (j, b),
            da=kmaj("64", 128 * j, 64, base=b), db=kmaj("64", B0 + 128 * j, 16, base=b))
    add("f16_base_sw32_r1_b1", "K-major 32B, start +128, base offset 1",
        da=kmaj("32", 128, 64, base=1), db=kmaj("32", B0 + 128, 16, base=1))
    add("f16_base_mn128_r2_b2", "MN-major 128B, start +256, base offset 2", n=64, ta=1, tb=1,
        da=mnmaj("128", 256, 64, base=2), db=mnmaj("128", B0 + 256, 64, base=2))
    # N variants
    for n in (8, 24, 40, 56, 72, 136, 200, 256):
        add("f16_n%d" % n, "f16->f32 m64n%dk16 K-major 128B" % n, n=n, da=kmaj("128", 0, 64), db=kmaj("128", B0, n))
    # f16 accumulator
    for n in (16, 64):
        add("f16_d16_n%d" % n, "f16->f16 m64n%dk16 (packed D)" % n, n=n, dt="f16", da=kmaj("128", 0, 64), db=kmaj("128", B0, n))
    add("f16_d16_areg", "f16->f16 A from registers", dt="f16", asrc="regs", da=0, db=kmaj("64", B0, 16))
    # scale-d and negation
    add("f16_scaled0", "scale-d = 0 (C ignored)", sd=0, da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("f16_nega", "imm-scale-a = -1", na=-1, da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("f16_negb_areg", "imm-scale-b = -1, A from registers", nb=-1, asrc="regs", da=0, db=kmaj("128", B0, 16))
    add("f16_negab_mn", "imm-scale-a = imm-scale-b = -1, MN-major", na=-1, nb=-1, ta=1, tb=1, n=64,
        da=mnmaj("128", 0, 64), db=mnmaj("128", B0, 64))
    # bf16
    add("bf16_k_sw128", "bf16->f32 K-major 128B", at="bf16", bt="bf16", n=32, da=kmaj("128", 0, 64), db=kmaj("128", B0, 32))
    add("bf16_mn_sw64", "bf16->f32 MN-major 64B", at="bf16", bt="bf16", n=32, ta=1, tb=1,
        da=mnmaj("64", 0, 64), db=mnmaj("64", B0, 32))
    add("bf16_areg_none", "bf16 A from registers, B interleave", at="bf16", bt="bf16", asrc="regs", da=0, db=kmaj("none", B0, 16))
    # tf32
    for s in ("none", "32", "64", "128"):
        add("tf32_k_sw%s" % s, "tf32->f32 m64n16k8 swizzle %s" % s, at="tf32", bt="tf32",
            da=kmaj(s, 0, 64), db=kmaj(s, B0, 16))
    add("tf32_areg", "tf32 A from registers", at="tf32", bt="tf32", asrc="regs", da=0, db=kmaj("128", B0, 16))
    add("tf32_n8_neg", "tf32 m64n8k8, imm-scale-a -1 b -1", at="tf32", bt="tf32", n=8, na=-1, nb=-1,
        da=kmaj("128", 0, 64), db=kmaj("128", B0, 8))
    # fp8
    for at, bt in (("e4m3", "e4m3"), ("e4m3", "e5m2"), ("e5m2", "e4m3"), ("e5m2", "e5m2")):
        add("%s_%s" % (at, bt), "%s x %s -> f32 m64n16k32 K-major 128B" % (at, bt), at=at, bt=bt,
            da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("e4m3_sw32_areg", "e4m3 A from registers, B 32B", at="e4m3", bt="e4m3", asrc="regs", da=0, db=kmaj("32", B0, 16))
    add("e4m3_none", "e4m3 interleave", at="e4m3", bt="e4m3", da=kmaj("none", 0, 64), db=kmaj("none", B0, 16))
    add("e5m2_d16", "e5m2 -> f16 D", at="e5m2", bt="e5m2", dt="f16", da=kmaj("64", 0, 64), db=kmaj("64", B0, 16))
    # integers
    for at, bt in (("s8", "s8"), ("s8", "u8"), ("u8", "s8"), ("u8", "u8")):
        add("%s_%s" % (at, bt), "%s x %s -> s32 m64n16k32, C = raw hash (wraps)" % (at, bt), at=at, bt=bt, dt="s32",
            da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("s8_sat", "s8 satfinite, C = raw hash near the limits", at="s8", bt="s8", dt="s32", sat=1,
        cmask=(0xFFFFFFFF, 0x7FFF0000), da=kmaj("64", 0, 64), db=kmaj("64", B0, 16))
    add("u8_sat_neg", "u8 x s8 satfinite, C near -2^31", at="u8", bt="s8", dt="s32", sat=1,
        cmask=(0x8000FFFF, 0x80000000), da=kmaj("32", 0, 64), db=kmaj("32", B0, 16))
    add("s8_areg", "s8 A from registers, B interleave", at="s8", bt="s8", dt="s32", asrc="regs", da=0, db=kmaj("none", B0, 16))
    add("b1_and", "b1 and.popc m64n16k256", at="b1", bt="b1", dt="s32", da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("b1_none", "b1 and.popc interleave", at="b1", bt="b1", dt="s32", da=kmaj("none", 0, 64), db=kmaj("none", B0, 16))
    add("f16_mn_n24_sw32", "B MN-major 32B with N 24 (1.5 MN blocks)", n=24, tb=1,
        da=kmaj("32", 0, 64), db=mnmaj("32", B0, 24, sbo=256, lbo=1024))
    add("f16_mnB_none_n8", "B MN-major interleave N 8", n=8, tb=1, da=kmaj("none", 0, 64), db=mnmaj("none", B0, 8, lbo=640))
    add("bf16_areg_mnB128", "bf16 A from registers, B MN-major 128B N 64", at="bf16", bt="bf16", n=64, tb=1, asrc="regs",
        da=0, db=mnmaj("128", B0, 64))
    add("tf32_lowbits", "tf32 with the low 13 bits of every operand random", at="tf32", bt="tf32",
        da=kmaj("128", 0, 64), db=kmaj("128", B0, 16), imask=(0x80E01FFF, 0x3F000000))
    add("s8_none_var", "s8 interleave, LBO 2048 SBO 256", at="s8", bt="s8", dt="s32",
        da=kmaj("none", 0, 64, lbo=2048, sbo=256), db=kmaj("none", B0, 16, lbo=4096, sbo=640))
    # sparse: A is 64 x K/2 (32 bytes a row), B is N x K (64 bytes a row)
    m_f16 = (0x55555555, 0x88888888)  # every nibble: i0 in {0,1}, i1 in {2,3}
    for sel in (0, 1):
        add("sp_f16_sel%d" % sel, "sparse f16 m64n16k32, selector %d" % sel, sp=sel, meta=m_f16,
            da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("sp_f16_areg", "sparse f16, A from registers", sp=0, meta=m_f16, asrc="regs", da=0, db=kmaj("128", B0, 16))
    add("sp_f16_mn", "sparse f16, A and B MN-major 128B", sp=0, meta=m_f16, n=64, ta=1, tb=1,
        da=mnmaj("128", 0, 64), db=mnmaj("128", B0, 64, kgroups=4))
    add("sp_f16_none", "sparse f16 interleave", sp=1, meta=m_f16, da=kmaj("none", 0, 64), db=kmaj("none", B0, 16))
    add("sp_bf16", "sparse bf16", at="bf16", bt="bf16", sp=0, meta=m_f16, da=kmaj("64", 0, 64), db=kmaj("64", B0, 16))
    add("sp_tf32_4", "sparse tf32, metadata 0x4 nibbles", at="tf32", bt="tf32", sp=0, meta=(0, 0x44444444),
        da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("sp_tf32_mix", "sparse tf32, metadata 0x4/0xE nibbles per thread", at="tf32", bt="tf32", sp=1,
        meta=(0xAAAAAAAA, 0x44444444), da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("sp_e4m3", "sparse e4m3 m64n16k64", at="e4m3", bt="e4m3", sp=0, meta=m_f16, da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("sp_s8", "sparse s8 m64n16k64", at="s8", bt="s8", dt="s32", sp=0, meta=m_f16, da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("sp_e5m2_sel1", "sparse e5m2 x e4m3", at="e5m2", bt="e4m3", sp=0, meta=m_f16, da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("sp_u8_areg", "sparse u8 A from registers", at="u8", bt="u8", dt="s32", sp=0, meta=m_f16, asrc="regs", da=0, db=kmaj("64", B0, 16))
    return C


def cases2():
    """round 2 of the layout questions (second module, so the first stays as the H100 ran it)"""
    C = []

    def add(name, d, **kw):
        c = dict(name=name, desc=d, n=16, at="f16", bt="f16", dt="f32", asrc="desc")
        c.update(kw)
        C.append(c)
    add("chain4_sw128", "4 chained wgmmas (K 64), K-major 128B, start +32 bytes per K block, one group",
        chain=[(0, 0), (2, 2), (4, 4), (6, 6)], da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("pipe2_mn", "2 wgmmas in 2 groups, wait_group 1 then 0, MN-major 128B, next K block +2048",
        pipe=1, n=64, ta=1, tb=1, chain=[(0, 0), (128, 128)], da=mnmaj("128", 0, 64), db=mnmaj("128", B0, 64))
    add("chain2_areg_sd0", "A from registers, first wgmma scale-d 0, second accumulates", asrc="regs", sd=0,
        chain=[(0, 0), (0, 2)], da=0, db=kmaj("64", B0, 16))
    m_f16 = (0x55555555, 0x88888888)
    add("sp_f16_sw32_lbo", "sparse f16, B K-major 32B (64-byte rows) LBO 4096", sp=0, meta=m_f16,
        da=kmaj("32", 0, 64), db=kmaj("32", B0, 16, lbo=4096))
    add("sp_f16_sw32_lbo0", "sparse f16, B K-major 32B, LBO 0", sp=1, meta=m_f16,
        da=kmaj("32", 0, 64), db=kmaj("32", B0, 16))
    add("sp_bf16_mnA", "sparse bf16, A MN-major 64B, B K-major 128B", at="bf16", bt="bf16", sp=1, meta=m_f16, ta=1,
        da=mnmaj("64", 0, 64), db=kmaj("128", B0, 16))
    add("sp_tf32_areg", "sparse tf32, A from registers", at="tf32", bt="tf32", sp=1, meta=(0xAAAAAAAA, 0x44444444),
        asrc="regs", da=0, db=kmaj("64", B0, 16))
    add("sp_s8_none", "sparse s8, interleave", at="s8", bt="s8", dt="s32", sp=0, meta=m_f16,
        da=kmaj("none", 0, 64), db=kmaj("none", B0, 16))
    add("f16_k_sw32_lbo", "dense K-major 32B with LBO 8192 (ignored?)", da=kmaj("32", 0, 64, lbo=8192),
        db=kmaj("32", B0, 16, lbo=8192))
    add("e4m3_none_var", "e4m3 interleave LBO 2048 SBO 384", at="e4m3", bt="e4m3",
        da=kmaj("none", 0, 64, lbo=2048, sbo=384), db=kmaj("none", B0, 16, lbo=3072, sbo=256))
    add("b1_areg", "b1 and.popc, A from registers", at="b1", bt="b1", dt="s32", asrc="regs", da=0, db=kmaj("64", B0, 16))
    add("s8_sat_areg", "s8 satfinite, A from registers, C near 2^31", at="s8", bt="s8", dt="s32", sat=1,
        cmask=(0x8000FFFF, 0x7FFF0000), asrc="regs", da=0, db=kmaj("128", B0, 16))
    add("f16_d16_sd0_areg", "f16 D, scale-d 0, A from registers", dt="f16", sd=0, asrc="regs", da=0, db=kmaj("128", B0, 16))
    add("e4m3_nega_d16", "e4m3 -> f16 D, imm-scale-a -1", at="e4m3", bt="e4m3", dt="f16", na=-1,
        da=kmaj("128", 0, 64), db=kmaj("128", B0, 16))
    add("f16_d16_negb_mn", "f16 D, imm-scale-b -1, MN-major", dt="f16", nb=-1, ta=1, tb=1, n=64,
        da=mnmaj("64", 0, 64), db=mnmaj("64", B0, 64))
    add("f16_base_sw128_r7_b7", "K-major 128B, start +7 rows, base offset 7", da=kmaj("128", 896, 64, base=7),
        db=kmaj("128", B0 + 896, 16, base=7))
    add("f16_base_sw128_r0_b3_k", "K-major 128B, start aligned +32 (K block), base offset 3",
        da=kmaj("128", 32, 64, base=3), db=kmaj("128", B0 + 32, 16, base=3))
    add("f16_base_mn64_r1_b1", "MN-major 64B, start +128, base offset 1", n=32, ta=1, tb=1,
        da=mnmaj("64", 128, 64, base=1), db=mnmaj("64", B0 + 128, 32, base=1))
    add("f16_start_odd", "K-major interleave, start +16 bytes (unaligned to 128)", da=kmaj("none", 16, 64),
        db=kmaj("none", B0 + 48, 16))
    return C


if __name__ == "__main__":
    import sys
    cs = cases()
    head = ".version 8.4\n.target sm_90a\n.address_size 64\n\n.shared .align 1024 .b8 smem[%d];\n\n" % SMEM
    open("wgmma_sm90a.ptx", "w").write(head + "\n\n".join(kernel(c) for c in cs) + "\n")
    cs2 = cases2()
    open("wgmma2_sm90a.ptx", "w").write(head + "\n\n".join(kernel(c) for c in cs2) + "\n")
    with open("cases.jsonl", "w") as f:
        for i, c in enumerate(cs):
            f.write(json.dumps(case_json(c, 1000 + i), separators=(",", ":")) + "\n")
        for i, c in enumerate(cs2):
            f.write(json.dumps(case_json(c, 2000 + i, "wgmma2_sm90a.ptx"), separators=(",", ":")) + "\n")
    cs = cs + cs2
    tot = sum(128 * nregs(c["dt"], c["n"]) * 4 for c in cs)
    print(len(cs), "cases,", tot, "expected bytes")
