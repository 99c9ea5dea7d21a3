#!/bin/sh
# tma_pieces.sh — --complete=random lands a TMA tensor load in pieces.
#
# The kernel is tx_probe (tests/hw/tx_interleave/txprobe.ptx): one 3D tile
# load of 8 x 4 x 2 FLOAT32 elements (16 chunks, 256 bytes, 64B swizzle)
# on an mbarrier armed with expect_tx = 272, so that the phase never
# completes and the deadlock report lists every landing on the barrier.
#   - deferred and eager: one landing of 256 bytes;
#   - random:1..20: the landings are multiples of 32 bytes (whole 32-byte
#     sectors, as on the H100: tests/hw/tma_order) adding up to 256, and at
#     least 5 seeds split the load (a seed lands the same way twice);
#   - expect_tx = 128: the phase completes when half the chunks have landed,
#     and the kernel's read of the tile is reported as a race under every
#     policy (the rest of the load counts into the next phase).
PTXI=${PTXI:-build/ptxi}
T=${TMPDIR:-/tmp}/ptxi-pieces.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
PTX=$(pwd)/tests/hw/tx_interleave/txprobe.ptx
mk() { # mk FILE EXPECT_TX
    cat > "$1" <<JSON
{"format": "ptxi-launch/1", "name": "pieces", "ptx": "$PTX", "kernel": "tx_probe",
 "grid": [1,1,1], "block": [32,1,1], "dynamic_shared_bytes": 2048,
 "buffers": [{"name": "tensor", "bytes": 4096, "init": {"hash32": 7}},
             {"name": "dst", "bytes": 512, "init": {"fill": 90}}, {"name": "status", "bytes": 4}],
 "tensor_maps": [{"name": "tm", "encode": "tiled", "data_type": "FLOAT32", "rank": 3,
   "global_address": {"buffer": "tensor", "offset": 0}, "global_dim": [16, 8, 4], "global_strides": [64, 512],
   "box_dim": [8, 4, 2], "element_strides": [1, 1, 1], "interleave": "NONE", "swizzle": "64B",
   "l2_promotion": "NONE", "oob_fill": "NONE"}],
 "params": [{"tensor_map": "tm"}, {"s32": 3}, {"s32": 8}, {"s32": 2}, {"s32": 1}, {"s32": 0}, {"s32": 0},
            {"u32": $2}, {"u32": 3}, {"u64": 200000}, {"u32": 512}, {"pointer": "dst"}, {"pointer": "status"}]}
JSON
}
mk "$T/hang.json" 272
mk "$T/half.json" 128
landings() { grep -o 'landed on it: #1 TMA load, [0-9]* bytes' "$1" | awk '{print $7}' | tr '\n' ' '; }
for pol in deferred eager; do
    "$PTXI" run "$T/hang.json" --complete=$pol > "$T/out" 2>&1
    got=$(landings "$T/out")
    if [ "$got" = "256 " ]; then echo "PASS pieces/$pol: the load lands whole"
    else echo "FAIL pieces/$pol: landings '$got', want one of 256 bytes"; fi
done
split=0; bad=
for s in $(seq 1 20); do
    "$PTXI" run "$T/hang.json" --complete=random:$s > "$T/out" 2>&1
    "$PTXI" run "$T/hang.json" --complete=random:$s > "$T/out2" 2>&1
    got=$(landings "$T/out")
    sum=0; n=0; odd=0
    for b in $got; do sum=$((sum + b)); n=$((n + 1)); [ $((b % 32)) -eq 0 ] || odd=1; done
    [ "$n" -gt 1 ] && split=$((split + 1))
    if ! grep -q 'deadlock' "$T/out"; then bad="$bad random:$s no deadlock report;"
    elif [ "$sum" -ne 256 ] || [ "$odd" -ne 0 ]; then bad="$bad random:$s landings '$got';"
    elif ! cmp -s "$T/out" "$T/out2"; then bad="$bad random:$s differs between two runs;"; fi
done
if [ -z "$bad" ]; then echo "PASS pieces/random: 20 seeds, 32-byte multiples adding up to 256 bytes, each seed repeatable"
else echo "FAIL pieces/random:$bad"; fi
if [ "$split" -ge 5 ]; then echo "PASS pieces/random: $split of 20 seeds land the load in pieces"
else echo "FAIL pieces/random: only $split of 20 seeds land the load in pieces (want >= 5)"; fi
bad=
for pol in deferred eager random:1 random:2 random:3 random:4 random:5 random:6; do
    "$PTXI" run "$T/half.json" --complete=$pol > "$T/out" 2>&1
    grep -q 'data race \[copy-not-waited\]: ld.shared' "$T/out" || bad="$bad $pol"
done
if [ -z "$bad" ]; then echo "PASS pieces/half-expect_tx: the read of the unfinished tile is a race under every policy"
else echo "FAIL pieces/half-expect_tx: no copy-not-waited race under$bad"; fi
# A plain cp.async.bulk of 256 bytes (bulk_probe below) on a barrier armed
# with expect_tx = 272: under random:1..20 it lands in 32-byte sectors when
# its source starts on one (the H100 never split those), in 16-byte chunks
# when the source is 16 bytes into a sector (the H100 split sectors there,
# tests/hw/tma_order); every seed's landings add up to 256 bytes.
cat > "$T/bulk.ptx" <<'PTX'
.version 8.0
.target sm_90a
.address_size 64
.visible .entry bulk_probe(.param .u64 src, .param .u32 off)
{
    .reg .b64 %rd<4>;
    .reg .b32 %r<6>;
    .reg .pred %p;
    .shared .align 128 .b8 buf[512];
    .shared .align 8 .b64 bar;
    ld.param.u64 %rd1, [src];
    ld.param.u32 %r1, [off];
    cvta.to.global.u64 %rd1, %rd1;
    cvt.u64.u32 %rd2, %r1;
    add.u64 %rd1, %rd1, %rd2;
    mov.u32 %r3, bar;
    mov.u32 %r4, buf;
    mbarrier.init.shared::cta.b64 [%r3], 1;
    mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r3], 272;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd1], 256, [%r3];
WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 %p, [%r3], 0;
    @!%p bra WAIT;
    ret;
}
PTX
mkb() { # mkb FILE OFFSET
    cat > "$1" <<JSON
{"format": "ptxi-launch/1", "name": "bulkpieces", "ptx": "$T/bulk.ptx", "kernel": "bulk_probe",
 "grid": [1,1,1], "block": [1,1,1],
 "buffers": [{"name": "src", "bytes": 1024, "init": {"hash32": 9}}],
 "params": [{"pointer": "src"}, {"u32": $2}]}
JSON
}
mkb "$T/b0.json" 0
mkb "$T/b16.json" 16
blandings() { grep -o 'landed on it: #1 bulk copy global->shared::cluster, [0-9]* bytes' "$1" | awk '{print $8}' | tr '\n' ' '; }
for c in 0 16; do
    bad=; split=0; odd=0
    for s in $(seq 1 20); do
        "$PTXI" run "$T/b$c.json" --complete=random:$s > "$T/out" 2>&1
        got=$(blandings "$T/out")
        sum=0; n=0
        for b in $got; do
            sum=$((sum + b)); n=$((n + 1))
            [ $((b % 32)) -eq 0 ] || odd=$((odd + 1))
        done
        [ "$n" -gt 1 ] && split=$((split + 1))
        [ "$sum" -eq 256 ] || bad="$bad random:$s landings '$got';"
    done
    if [ -n "$bad" ]; then echo "FAIL pieces/bulk+$c:$bad"
    elif [ "$split" -lt 5 ]; then echo "FAIL pieces/bulk+$c: only $split of 20 seeds land the copy in pieces"
    elif [ "$c" -eq 0 ] && [ "$odd" -ne 0 ]; then echo "FAIL pieces/bulk+0: $odd landings split a 32-byte sector"
    elif [ "$c" -eq 16 ] && [ "$odd" -eq 0 ]; then echo "FAIL pieces/bulk+16: no landing of an odd number of 16-byte chunks"
    else echo "PASS pieces/bulk+$c: $split of 20 seeds land in pieces, of $([ "$c" -eq 0 ] && echo 32-byte sectors || echo 16-byte chunks), 256 bytes in all"; fi
done
