#!/bin/sh
# cli_debug_cuda.sh — CUDA source lines from .file/.loc (nvcc -lineinfo, and
# Triton's PTX, which carries its Python lines): `break k.cu:N`, list in
# .cu text, step/next by source line, disassemble /s, info source, and the
# .cu line beside the PTX line in every fault and deadlock report of run,
# test and debug.  The PTX under tests/launch/lineinfo was compiled from
# lineinfo.cu beside it (nvcc -lineinfo -arch=sm_90a -ptx); no CUDA needed.
PTXI=${PTXI:-build/ptxi}
T=${TMPDIR:-/tmp}/ptxi-cli-cuda.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
ok() { echo "PASS debug_cuda/$1"; }
bad() { echo "FAIL debug_cuda/$1: $2"; }
D=tests/launch/lineinfo
session() {
    name=$1; shift
    "$PTXI" debug "$@" > "$T/$name.out" 2>&1
    echo $? > "$T/$name.rc"
}
has() {
    if case "$3" in
           *"
"*) tr '\n' '\001' < "$T/$2.out" | grep -qF -- "$(printf '%s' "$3" | tr '\n' '\001')" ;;
           *) grep -qF -- "$3" "$T/$2.out" 2>/dev/null ;;
       esac
    then ok "$1"; else bad "$1" "output of '$2' lacks [$3]: $(head -c 1500 "$T/$2.out" | tr '\n' '|')"; fi
}
lacks() {
    if grep -qF -- "$3" "$T/$2.out"; then bad "$1" "output of '$2' has [$3]"; else ok "$1"; fi
}

session scale $D/scale.json <<'EOF'
info source
break lineinfo.cu:16
run
list
step
bt
finish
next
next
list 1,4
list
list lineinfo.ptx:62,63
disassemble /s _Z5twicef
set source ptx
list
step
set source cuda
break lineinfo.cu:99
break other.cu:3
EOF
has info_source scale "lineinfo.cu (60 lines)"
has info_source_view scale "Lines shown as CUDA source (set source cuda|ptx)."
has break_cu scale "Breakpoint 1 at lineinfo.ptx:71 (lineinfo.cu:16) (pc 15 of scale)"
has stop_shows_cu scale "Breakpoint 1, CTA (0,0,0) warp 0 lanes 0-31 at lineinfo.ptx:71 (lineinfo.cu:16) (pc 15)
16	        acc += twice(in[i]);
71		st.param.f32 	[param0+0], %f12;"
has list_cu scale "   15	    for (int k = 0; k < n; k++)
=> 16	        acc += twice(in[i]);
   17	    out[i] = acc;"
has step_into_call scale "at lineinfo.ptx:25 (lineinfo.cu:5) (pc 0 in _Z5twicef)"
has bt_cu scale "  #1  scale (pc 16) at lineinfo.ptx:73 (lineinfo.cu:16), in the call"
has finish_cu scale "Run till exit from #0 _Z5twicef"
has finish_value_as_read scale "Value returned is \$1 = 4.15604277e+12"
has next_by_line scale "(lineinfo.cu:15) (pc 18)
15	    for (int k = 0; k < n; k++)"
has list_cu_range scale "   1	// lineinfo.cu"
has list_cu_continues scale "   5	__device__ __noinline__ float twice(float x)"
has list_ptx_by_name scale "   62		.loc	1 13 5
   63		cvta.to.global.u64 	%rd4, %rd2;"
has disas_mixed scale "lineinfo.cu:7	    float y = x + x;
       1  27    add.f32 %f2, %f1, %f1;"
has set_source_ptx scale "=> 108		add.f32 	%f21, %f21, %f1;"
has stepi_in_ptx_mode scale "(pc 35)"
has break_cu_past_end scale "No instruction at or after line 99 of lineinfo.cu."
has break_unknown_file scale "No source file named other.cu"

# deadlock and fault reports name the .cu line: run, test and debug
"$PTXI" run $D/stuck.json > "$T/run_stuck.out" 2>&1
has run_deadlock_cu run_stuck "mbarrier wait at tests/launch/lineinfo/lineinfo.ptx:168 (lineinfo.cu:32): mbarrier.try_wait.parity"
"$PTXI" run $D/oob.json > "$T/run_oob.out" 2>&1
has run_fault_cu run_oob "at tests/launch/lineinfo/lineinfo.ptx:203 (lineinfo.cu:39): st.global.u32"
"$PTXI" test $D > "$T/test.out" 2>&1
has test_deadlock_cu test "(lineinfo.cu:32): mbarrier.try_wait"
has test_fault_cu test "(lineinfo.cu:39): st.global.u32"
session stuck $D/stuck.json <<'EOF'
run
bt
list
EOF
has debug_deadlock_cu stuck "Kernel stopped: deadlock: every thread waits and nothing in flight can wake one"
has debug_deadlock_line stuck "lineinfo.ptx:168 (lineinfo.cu:32): mbarrier.try_wait.parity.shared::cta.b64"
has debug_deadlock_list stuck "=> 32	                 \" @!p bra WAIT;"

# Triton's PTX: .loc names gen.py, which is not here: locations still say gen.py:N, list shows PTX
session triton tests/hw/triton/cases.jsonl --filter tma_scale <<'EOF'
info source
break gen.py:30
run
list
EOF
has triton_not_at_hand triton ".file 1 /work/main/tri_probe/gen.py: not at hand (list shows PTX lines)"
has triton_break triton "Breakpoint 1 at tma_scale.ptx:95 (gen.py:30) (pc 36 of tma_scale)"
has triton_list_ptx triton "=> 95		fma.rn.f16x2 	%r23, %r17, %r22, %r21;"

# a PTX without .loc: nothing changes
session plain samples/tma_tile2d.json <<'EOF'
info source
break tma_tile2d.cu:3
EOF
has no_loc plain "No .loc directives: the PTX carries no CUDA source lines (compile with nvcc -lineinfo)."
has no_loc_file plain "No source file named tma_tile2d.cu"

# a data race (a TMA destination read before the wait): both the read and the copy name their .cu lines
session racy $D/racy.json <<'EOF'
run
EOF
has race_cu racy "at tests/launch/lineinfo/lineinfo.ptx:256 (lineinfo.cu:59): ld.shared.f32"
has race_copy_cu racy "at tests/launch/lineinfo/lineinfo.ptx:246 (lineinfo.cu:56): cp.async.bulk.tensor.2d"
"$PTXI" test $D/racy.json > "$T/test_racy.out" 2>&1
has race_expected test_racy "PASS"
