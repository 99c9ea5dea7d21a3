#!/bin/sh
# parallel_jobs.sh — `-j N` runs clusters on N host threads; the results must
# not depend on N (issue #3, point 5).  Each launch below runs with -j 1, 2, 3
# and 4; every buffer it writes is dumped and must be byte-identical across
# the four runs (and a launch file's own expectations must pass each time).
# The launches have many clusters and talk across them: global atomics,
# a decoupled look-back scan whose tiles spin on their predecessors' status
# words, an atomically claimed tile counter (onesweep), and distributed
# shared memory with cluster barriers inside each cluster.
PTXI=${PTXI:-build/ptxi}
T=${TMPDIR:-/tmp}/ptxi-jobs.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
OPS=tests/hw/ptx/ops_sm90a.ptx

# same NAME BUFFERS -- ptxi-run-arguments...
same() {
    name=$1 bufs=$2; shift 3
    for j in 1 2 3 4; do
        dumps=""
        for b in $bufs; do dumps="$dumps --dump $b=$T/$name.$j.$b"; done
        out=$(timeout 300 "$PTXI" run -j $j "$@" $dumps 2>&1); rc=$?
        if [ "$rc" -ne 0 ]; then
            echo "FAIL jobs/$name: -j $j exited with status $rc"
            printf '%s\n' "$out" | sed 's/^/    /' | head -6
            return
        fi
    done
    for b in $bufs; do
        for j in 2 3 4; do
            if ! cmp -s "$T/$name.1.$b" "$T/$name.$j.$b"; then
                echo "FAIL jobs/$name: buffer $b differs between -j 1 and -j $j: $(cmp "$T/$name.1.$b" "$T/$name.$j.$b" 2>&1 | head -1)"
                return
            fi
        done
    done
    echo "PASS jobs/$name"
}

# distributed shared memory: 12 clusters of 4 CTAs (mapa, atom/red/st.shared::cluster, barrier.cluster)
same dsmem out -- $OPS --kernel ops_cluster --grid 48 --block 64 --cluster 4 --buffer out:196608 --param ptr:out
# special registers of a 3-D grid of 2x2x2 clusters: 64 CTAs, 8 clusters
same sreg_3d out -- $OPS --kernel ops_sreg --grid 8,4,2 --block 16,2,1 --cluster 2,2,2 --smem 16 --buffer out:655360 --param ptr:out
# 16 clusters of one CTA: warp collectives, named barriers, calls, a global counter
same warp_16 "out flag" -- $OPS --kernel ops_warp --grid 16 --block 128 --buffer in:8192:hash32=3 \
    --buffer out:458752 --buffer flag:4 --param ptr:in --param ptr:out --param ptr:flag
# H100-checked launches, run through their launch files
same atomics "g old sout cnt" -- tests/hw/ops/cases.jsonl --filter ops_atom
same scan_lookback "out state" -- tests/hw/cub/cases.jsonl --filter scan_multi_tile
same onesweep keys_out -- tests/hw/cub/cases.jsonl --filter onesweep
same histogram bins -- tests/hw/cub/cases.jsonl --filter radix_histogram
same cluster_dsmem out -- tests/hw/corpus/cases.jsonl --filter cluster_dsmem

# A fault in every cluster: the report is the one -j 1 gives (lowest cluster first).
out1=$("$PTXI" run -j 1 tests/launch/faults/faults.ptx --kernel global_misaligned --grid 16 --block 32 \
       --buffer buf:256 --param ptr:buf --param u32:2 2>&1)
bad=""
for j in 2 3 4; do
    outj=$("$PTXI" run -j $j tests/launch/faults/faults.ptx --kernel global_misaligned --grid 16 --block 32 \
           --buffer buf:256 --param ptr:buf --param u32:2 2>&1)
    [ "$outj" = "$out1" ] || bad="$bad -j$j"
done
case $out1 in *"by CTA (0,0,0)"*) ;; *) bad="$bad (-j 1 does not name CTA 0)" ;; esac
if [ -z "$bad" ]; then echo "PASS jobs/first_fault"; else echo "FAIL jobs/first_fault: report differs:$bad"; printf '%s\n' "$out1" | sed 's/^/    /' | head -4; fi
