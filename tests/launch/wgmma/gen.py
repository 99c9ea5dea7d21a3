#!/usr/bin/env python3
"""Writes wgmma_rules.ptx: one kernel per ordering rule of wgmma, broken
(NAME) and fixed (NAME_ok), and their launch files.  Each kernel: 128
threads copy A (64x16 f16, K-major, no swizzle: core matrices of 8 rows x 16
bytes, LBO 1024, SBO 128) and B (8x16) from `in` to shared memory, run one
m64n8k16 f16->f32 wgmma and store the 4 accumulators per thread to `out`."""
import json

HEAD = """.version 8.4
.target sm_90a
.address_size 64

.shared .align 1024 .b8 tile[4096];
"""

def kernel(name, body_mod):
    """body_mod: dict of hooks -> PTX text inserted at that point"""
    h = lambda k: body_mod.get(k, "")
    fence_proxy = "" if body_mod.get("no_proxy_fence") else "  fence.proxy.async.shared::cta;\n"
    wg_fence = "" if body_mod.get("no_wg_fence") else "  wgmma.fence.sync.aligned;\n"
    a_opd = "{%a0, %a1, %a2, %a3}" if body_mod.get("a_regs") else "%rd5"
    tail = ", 1, 1, 0" if body_mod.get("a_regs") else ", 1, 1, 0, 0"
    mma = "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, " + a_opd + ", %rd6, 1" + tail + ";\n"
    mma2 = body_mod.get("mma_alt", "")
    return (""".visible .entry %s(.param .u64 pin, .param .u64 pout)
{
  .reg .b32 %%r<16>; .reg .b64 %%rd<16>; .reg .f32 %%f<4>; .reg .b32 %%a<4>; .reg .pred %%p<4>;
  ld.param.u64 %%rd1, [pin];
  ld.param.u64 %%rd2, [pout];
  mov.u32 %%r1, %%tid.x;
  mov.u32 %%r2, tile;
  mov.u32 %%r3, %%r1;
$Lcopy:
  mul.wide.u32 %%rd3, %%r3, 4;
  add.u64 %%rd4, %%rd1, %%rd3;
  ld.global.u32 %%r4, [%%rd4];
  and.b32 %%r4, %%r4, 0x8F008F00;
  or.b32 %%r4, %%r4, 0x38003800;
  shl.b32 %%r5, %%r3, 2;
  add.u32 %%r5, %%r5, %%r2;
  st.shared.u32 [%%r5], %%r4;
  add.u32 %%r3, %%r3, 128;
  setp.lt.u32 %%p1, %%r3, 640;
  @%%p1 bra $Lcopy;
  mul.wide.u32 %%rd7, %%r1, 16;
  add.u64 %%rd7, %%rd7, %%rd1;
  ld.global.v4.u32 {%%a0, %%a1, %%a2, %%a3}, [%%rd7+4096];
%s%s  bar.sync 0;
  shr.u32 %%r6, %%r2, 4;
  cvt.u64.u32 %%rd5, %%r6;
  or.b64 %%rd5, %%rd5, 0x0000000800400000;
  add.u64 %%rd6, %%rd5, 128;
  mov.f32 %%f0, 0f00000000;
  mov.f32 %%f1, 0f00000000;
  mov.f32 %%f2, 0f00000000;
  mov.f32 %%f3, 0f00000000;
%s%s%s%s  wgmma.commit_group.sync.aligned;
%s  wgmma.wait_group.sync.aligned 0;
%s  mul.wide.u32 %%rd8, %%r1, 16;
  add.u64 %%rd8, %%rd8, %%rd2;
  st.global.v4.f32 [%%rd8], {%%f0, %%f1, %%f2, %%f3};
  ret;
}
""" % (name, h("after_copy"), fence_proxy, wg_fence, h("before_mma"), mma2 or mma, h("after_mma"),
       h("before_wait"), h("after_wait")))

RULES = [
    # name, description, broken hooks, fixed hooks
    ("acc_in_flight", "reads an accumulator of a wgmma in flight (before wait_group)",
     {"before_wait": "  add.f32 %f1, %f0, %f0;\n"}, {"after_wait": "  add.f32 %f1, %f1, %f1;\n"}),
    ("a_in_flight", "overwrites an A-fragment register of a wgmma in flight",
     {"a_regs": 1, "before_wait": "  mov.b32 %a2, 0;\n"}, {"a_regs": 1, "after_wait": "  mov.b32 %a2, 0;\n"}),
    ("no_wgmma_fence", "no wgmma.fence between zeroing the accumulators and the first mma_async",
     {"no_wg_fence": 1}, {}),
    ("no_proxy_fence", "st.shared writes the tiles and the wgmma reads them without fence.proxy.async",
     {"no_proxy_fence": 1}, {}),
    ("smem_overwrite", "overwrites B's tile while the wgmma may still read it",
     {"before_wait": "  st.shared.u32 [%r2+1040], %r1;\n"}, {"after_wait": "  st.shared.u32 [%r2+1040], %r1;\n"}),
    ("diverged", "warp 1 issues a different wgmma.mma_async instruction than the other warps",
     {"mma_alt": "  shr.u32 %r7, %r1, 5;\n  setp.eq.u32 %p3, %r7, 1;\n  @%p3 bra $Lw1;\n"
      "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd5, %rd6, 1, 1, 1, 0, 0;\n"
      "  bra $Ljoin;\n$Lw1:\n"
      "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd5, %rd6, 1, -1, 1, 0, 0;\n$Ljoin:\n"},
     {}),
    ("missing_warp", "warp 2 exits before the wgmma.mma_async the other warps issue and wait for",
     {"before_mma": "  shr.u32 %r7, %r1, 5;\n  setp.eq.u32 %p3, %r7, 2;\n  @%p3 exit;\n"}, {}),
]

if __name__ == "__main__":
    ptx = [HEAD]
    for name, desc, bad, good in RULES:
        ptx.append(kernel(name, bad))
        ptx.append(kernel(name + "_ok", good))
        for k in (name, name + "_ok"):
            j = {"format": "ptxi-launch/1", "name": k, "description": desc if k == name else "fixed twin: " + desc,
                 "ptx": "wgmma_rules.ptx", "kernel": k, "grid": [1, 1, 1], "block": [128, 1, 1],
                 "buffers": [{"name": "in", "bytes": 8192, "init": {"hash32": 3}},
                             {"name": "out", "bytes": 2048, "init": {"fill": 0}}],
                 "params": [{"pointer": "in"}, {"pointer": "out"}]}
            json.dump(j, open(k + ".json", "w"), indent=1)
    open("wgmma_rules.ptx", "w").write("\n".join(ptx))
