#!/usr/bin/env python3
"""tests/diag/avail/ptxas_matrix.py — ptxi's .target/.version rules against ptxas.

Each form below (the TMA family and its companions: one instruction, or a
special-register read) is put in a one-kernel module for every target ptxas
knows and every PTX ISA version around the thresholds of ir/avail.def; the
module goes to `ptxi check` and to `ptxas -arch=<target>`, and the two must
agree: both accept, or both refuse.  Any disagreement is printed with both
tools' messages.  Not part of `make test` (some 30000 ptxas runs take a
quarter of an hour on two cores); run it after changing ir/avail.def or on a
new CUDA toolkit:

    python3 tests/diag/avail/ptxas_matrix.py [-j N] [--ptxas PATH] [--ptxi PATH] [FORM...]

Ends with "N agree, N disagree" (exit status 1 on a disagreement).
"""
import argparse
import concurrent.futures as cf
import os
import subprocess
import sys
import tempfile

TARGETS = ("sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_100a sm_100f sm_103 sm_103a sm_103f "
           "sm_110 sm_110a sm_110f sm_120 sm_120a sm_120f sm_121 sm_121a sm_121f").split()
# each threshold of ir/avail.def and the version before it
VERSIONS = "7.0 7.1 7.7 7.8 8.0 8.2 8.3 8.5 8.6 8.7 8.8 9.0".split()

C2 = "{%r2, %r3}"
C3 = "{%r2, %r3, %r5}"
C5 = "{%r2, %r3, %r5, %r6, %r7}"
CT = "mbarrier::complete_tx::bytes"
T = "cp.async.bulk.tensor"
FORMS = {
    # tensor loads
    "t_tile_cluster": f"{T}.2d.shared::cluster.global.tile.{CT} [%r1], [%rd1, {C2}], [%r4];",
    "t_tile_cta": f"{T}.2d.shared::cta.global.tile.{CT} [%r1], [%rd1, {C2}], [%r4];",
    "t_tile_hint": f"{T}.2d.shared::cluster.global.tile.{CT}.L2::cache_hint [%r1], [%rd1, {C2}], [%r4], %rd2;",
    "t_tile_mc": f"{T}.2d.shared::cluster.global.tile.{CT}.multicast::cluster [%r1], [%rd1, {C2}], [%r4], %rs1;",
    "t_im2col": f"{T}.3d.shared::cluster.global.im2col.{CT} [%r1], [%rd1, {C3}], [%r4], {{%rs1}};",
    "t_im2col_cta": f"{T}.3d.shared::cta.global.im2col.{CT} [%r1], [%rd1, {C3}], [%r4], {{%rs1}};",
    "t_im2colw": f"{T}.3d.shared::cluster.global.im2col::w.{CT} [%r1], [%rd1, {C3}], [%r4], {{%rs1, %rs2}};",
    "t_im2colw_cta": f"{T}.3d.shared::cta.global.im2col::w.{CT} [%r1], [%rd1, {C3}], [%r4], {{%rs1, %rs2}};",
    "t_im2colw128": f"{T}.3d.shared::cluster.global.im2col::w::128.{CT} [%r1], [%rd1, {C3}], [%r4], {{%rs1, %rs2}};",
    "t_im2colw128_cta": f"{T}.3d.shared::cta.global.im2col::w::128.{CT} [%r1], [%rd1, {C3}], [%r4], {{%rs1, %rs2}};",
    "t_gather_cta": f"{T}.2d.shared::cta.global.tile::gather4.{CT} [%r1], [%rd1, {C5}], [%r4];",
    "t_gather_cluster": f"{T}.2d.shared::cluster.global.tile::gather4.{CT} [%r1], [%rd1, {C5}], [%r4];",
    "t_gather_mc": f"{T}.2d.shared::cluster.global.tile::gather4.{CT}.multicast::cluster [%r1], [%rd1, {C5}], [%r4], %rs1;",
    "t_cg1_cta": f"{T}.2d.shared::cta.global.tile.{CT}.cta_group::1 [%r1], [%rd1, {C2}], [%r4];",
    "t_cg2_cluster": f"{T}.2d.shared::cluster.global.tile.{CT}.cta_group::2 [%r1], [%rd1, {C2}], [%r4];",
    "t_cg2_mc": f"{T}.2d.shared::cluster.global.tile.{CT}.multicast::cluster.cta_group::2 [%r1], [%rd1, {C2}], [%r4], %rs1;",
    "t_cg1_gather": f"{T}.2d.shared::cta.global.tile::gather4.{CT}.cta_group::1 [%r1], [%rd1, {C5}], [%r4];",
    # tensor stores, reductions, prefetches
    "s_tile": f"{T}.2d.global.shared::cta.tile.bulk_group [%rd1, {C2}], [%r1];",
    "s_tile_hint": f"{T}.2d.global.shared::cta.tile.bulk_group.L2::cache_hint [%rd1, {C2}], [%r1], %rd2;",
    "s_im2col": f"{T}.3d.global.shared::cta.im2col_no_offs.bulk_group [%rd1, {C3}], [%r1];",
    "s_scatter": f"{T}.2d.global.shared::cta.tile::scatter4.bulk_group [%rd1, {C5}], [%r1];",
    "r_tile": f"cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {C2}], [%r1];",
    "r_im2col": f"cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col_no_offs.bulk_group [%rd1, {C3}], [%r1];",
    "r_scatter": f"cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile::scatter4.bulk_group [%rd1, {C5}], [%r1];",
    "p_tile": f"cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd1, {C2}];",
    "p_im2col": f"cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd1, {C3}], {{%rs1}};",
    "p_im2colw": f"cp.async.bulk.prefetch.tensor.3d.L2.global.im2col::w [%rd1, {C3}], {{%rs1, %rs2}};",
    "p_im2colw128": f"cp.async.bulk.prefetch.tensor.3d.L2.global.im2col::w::128 [%rd1, {C3}], {{%rs1, %rs2}};",
    "p_gather": f"cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [%rd1, {C5}];",
    # bulk copies and groups
    "b_g2cluster": f"cp.async.bulk.shared::cluster.global.{CT} [%r1], [%rd1], %r2, [%r4];",
    "b_g2cta": f"cp.async.bulk.shared::cta.global.{CT} [%r1], [%rd1], %r2, [%r4];",
    "b_mc": f"cp.async.bulk.shared::cluster.global.{CT}.multicast::cluster [%r1], [%rd1], %r2, [%r4], %rs1;",
    "b_s2s": f"cp.async.bulk.shared::cluster.shared::cta.{CT} [%r1], [%r2], %r3, [%r4];",
    "b_s2g": "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], %r2;",
    "b_s2g_mask": "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%r1], %r2, %rs1;",
    "br_s2s": f"cp.reduce.async.bulk.shared::cluster.shared::cta.{CT}.add.u32 [%r1], [%r2], %r3, [%r4];",
    "br_s2g": "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r1], %r2;",
    "br_f16": "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd1], [%r1], %r2;",
    "bp": "cp.async.bulk.prefetch.L2.global [%rd1], %r1;",
    "bp_hint": "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd1], %r1, %rd2;",
    "g_commit": "cp.async.bulk.commit_group;",
    "g_wait": "cp.async.bulk.wait_group 0;",
    "g_wait_read": "cp.async.bulk.wait_group.read 0;",
    "stbulk": "st.bulk.weak.shared::cta [%r1], %rd1, 0;",
    # mbarrier
    "m_init": "mbarrier.init.shared.b64 [%r1], %r2;",
    "m_init_cta": "mbarrier.init.shared::cta.b64 [%r1], %r2;",
    "m_init_gen": "mbarrier.init.b64 [%rd1], %r2;",
    "m_inval": "mbarrier.inval.shared.b64 [%r1];",
    "m_arrive": "mbarrier.arrive.shared.b64 %rd1, [%r1];",
    "m_arrive_cta": "mbarrier.arrive.shared::cta.b64 %rd1, [%r1];",
    "m_arrive_count": "mbarrier.arrive.shared.b64 %rd1, [%r1], %r2;",
    "m_arrive_nocomplete": "mbarrier.arrive.noComplete.shared.b64 %rd1, [%r1], %r2;",
    "m_arrive_drop": "mbarrier.arrive_drop.shared.b64 %rd1, [%r1];",
    "m_arrive_drop_count": "mbarrier.arrive_drop.shared.b64 %rd1, [%r1], %r2;",
    "m_arrive_drop_rel_cta": "mbarrier.arrive_drop.release.cta.shared::cta.b64 %rd1, [%r1];",
    "m_arrive_drop_relaxed": "mbarrier.arrive_drop.relaxed.cta.shared::cta.b64 %rd1, [%r1];",
    "m_arrive_drop_tx": "mbarrier.arrive_drop.expect_tx.shared::cta.b64 %rd1, [%r1], %r2;",
    "m_arrive_rel_cta": "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [%r1];",
    "m_arrive_rel_cluster": "mbarrier.arrive.release.cluster.shared::cta.b64 %rd1, [%r1];",
    "m_arrive_remote": "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];",
    "m_arrive_remote_nosem": "mbarrier.arrive.shared::cluster.b64 _, [%r1];",
    "m_arrive_relaxed": "mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [%r1];",
    "m_arrive_relaxed_remote": "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%r1];",
    "m_arrive_tx": "mbarrier.arrive.expect_tx.shared.b64 %rd1, [%r1], %r2;",
    "m_arrive_tx_rel": "mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 %rd1, [%r1], %r2;",
    "m_arrive_tx_relaxed": "mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 %rd1, [%r1], %r2;",
    "m_expect_tx": "mbarrier.expect_tx.shared::cta.b64 [%r1], %r2;",
    "m_expect_tx_relaxed": "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], %r2;",
    "m_expect_tx_cluster": "mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%r1], %r2;",
    "m_complete_tx": "mbarrier.complete_tx.shared::cta.b64 [%r1], %r2;",
    "m_complete_tx_relaxed": "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], %r2;",
    "m_test_wait": "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;",
    "m_test_wait_parity": "mbarrier.test_wait.parity.shared.b64 %p1, [%r1], %r2;",
    "m_test_wait_acq_cta": "mbarrier.test_wait.acquire.cta.shared::cta.b64 %p1, [%r1], %rd1;",
    "m_test_wait_acq": "mbarrier.test_wait.acquire.cluster.shared::cta.b64 %p1, [%r1], %rd1;",
    "m_test_wait_relaxed": "mbarrier.test_wait.relaxed.cta.shared::cta.b64 %p1, [%r1], %rd1;",
    "m_try_wait": "mbarrier.try_wait.shared.b64 %p1, [%r1], %rd1;",
    "m_try_wait_hint": "mbarrier.try_wait.shared::cta.b64 %p1, [%r1], %rd1, %r2;",
    "m_try_wait_parity": "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2;",
    "m_try_wait_acq": "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [%r1], %r2;",
    "m_try_wait_relaxed": "mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 %p1, [%r1], %r2;",
    "m_pending": "mbarrier.pending_count.b64 %r1, %rd1;",
    # tensor maps and fences
    "tm_addr": "tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd2;",
    "tm_rank_cta": "tensormap.replace.tile.rank.shared::cta.b1024.b32 [%r1], 2;",
    "tm_box": "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 0, 8;",
    "tm_elem_12": "tensormap.replace.tile.elemtype.global.b1024.b32 [%rd1], 12;",
    "tm_elem_13": "tensormap.replace.tile.elemtype.global.b1024.b32 [%rd1], 13;",
    "tm_elem_15": "tensormap.replace.tile.elemtype.global.b1024.b32 [%rd1], 15;",
    "tm_swz_3": "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd1], 3;",
    "tm_swz_4": "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd1], 4;",
    "tm_atom": "tensormap.replace.tile.swizzle_atomicity.global.b1024.b32 [%rd1], 1;",
    "tm_fill": "tensormap.replace.tile.fill_mode.global.b1024.b32 [%rd1], 1;",
    "tm_cp": "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [%r1], 128;",
    "fp_tm_rel": "fence.proxy.tensormap::generic.release.gpu;",
    "fp_tm_acq": "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;",
    "fp_async": "fence.proxy.async;",
    "fp_async_g": "fence.proxy.async.global;",
    "fp_async_cta": "fence.proxy.async.shared::cta;",
    "fp_async_cluster": "fence.proxy.async.shared::cluster;",
    "f_mbinit": "fence.mbarrier_init.release.cluster;",
    # cluster and warp primitives
    "elect": "elect.sync %r1|%p1, 0xffffffff;",
    "mapa": "mapa.shared::cluster.u32 %r1, %r2, %r3;",
    "mapa_gen": "mapa.u64 %rd1, %rd2, %r3;",
    "getctarank": "getctarank.shared::cluster.u32 %r1, %r2;",
    "getctarank_gen": "getctarank.u64 %r1, %rd2;",
    "bc_arrive": "barrier.cluster.arrive;",
    "bc_wait_al": "barrier.cluster.wait.aligned;",
    "bc_arrive_rel": "barrier.cluster.arrive.release;",
    "bc_arrive_relaxed": "barrier.cluster.arrive.relaxed.aligned;",
    "bc_wait_acq": "barrier.cluster.wait.acquire;",
    "sr_clusterid": "mov.u32 %r1, %clusterid.x;",
    "sr_nclusterid": "mov.u32 %r1, %nclusterid.y;",
    "sr_cluster_ctaid": "mov.u32 %r1, %cluster_ctaid.z;",
    "sr_cluster_nctaid": "mov.u32 %r1, %cluster_nctaid.x;",
    "sr_cluster_ctarank": "mov.u32 %r1, %cluster_ctarank;",
    "sr_cluster_nctarank": "mov.u32 %r1, %cluster_nctarank;",
    "sr_is_explicit_cluster": "mov.pred %p1, %is_explicit_cluster;",
}

KERNEL = """.version %s
.target %s
.address_size 64
.visible .entry k()
{
\t.reg .b32 %%r<20>;
\t.reg .b64 %%rd<20>;
\t.reg .pred %%p<4>;
\t.reg .b16 %%rs<4>;
\t%s
\tret;
}
"""


def one(args, tmp, form, target, version):
    path = os.path.join(tmp, "%s_%s_%s.ptx" % (form, target, version))
    with open(path, "w") as f:
        f.write(KERNEL % (version, target, FORMS[form]))
    a = subprocess.run([args.ptxi, "check", path], capture_output=True, text=True)
    b = subprocess.run([args.ptxas, "-arch=" + target, path, "-o", os.devnull],
                       capture_output=True, text=True)
    os.unlink(path)
    return form, target, version, a.returncode == 0, b.returncode == 0, a.stderr, b.stdout + b.stderr


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--ptxas", default=os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas"))
    ap.add_argument("--ptxi", default=os.path.join(here, "..", "..", "..", "build", "ptxi"))
    ap.add_argument("forms", nargs="*")
    args = ap.parse_args()
    forms = args.forms or list(FORMS)
    jobs = [(f, t, v) for f in forms for t in TARGETS for v in VERSIONS]
    agree = disagree = 0
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(args.j) as ex:
        for form, t, v, ok_i, ok_a, err_i, err_a in ex.map(lambda j: one(args, tmp, *j), jobs):
            if ok_i == ok_a:
                agree += 1
                continue
            disagree += 1
            print("DISAGREE %s .target %s .version %s: ptxi %s, ptxas %s" %
                  (form, t, v, "accepts" if ok_i else "refuses", "accepts" if ok_a else "refuses"))
            for ln in (err_i + err_a).splitlines():
                if "error" in ln:
                    print("    " + ln.split(": error: ")[-1].split("error   : ")[-1])
    print("%d agree, %d disagree" % (agree, disagree))
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
