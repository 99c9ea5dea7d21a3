#!/bin/sh
# cli_run.sh — `ptxi run` / `ptxi test` from the user's side: the samples,
# the command-line launch form, --dump (raw, .npy, text), completion
# policies, -j, --filter, -q, --update, the tensor-coordinate diff, and the
# exact wording of command-line errors.
PTXI=${PTXI:-build/ptxi}
T=${TMPDIR:-/tmp}/ptxi-cli-run.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT

ok() { echo "PASS cli_run/$1"; }
bad() { echo "FAIL cli_run/$1: $2"; }
# expect NAME STATUS WANT-OUTPUT -- command...: exact output and exit status
expect() {
    name=$1 st=$2 want=$3; shift 4
    got=$("$@" 2>&1); rc=$?
    if [ "$rc" -ne "$st" ]; then bad "$name" "exit status $rc, want $st; output: $(printf '%s' "$got" | head -3)"
    elif [ "$got" != "$want" ]; then bad "$name" "got [$got] want [$want]"
    else ok "$name"; fi
}
# contains NAME STATUS SUBSTRING -- command...
contains() {
    name=$1 st=$2 want=$3; shift 4
    got=$("$@" 2>&1); rc=$?
    if [ "$rc" -ne "$st" ]; then bad "$name" "exit status $rc, want $st; output: $(printf '%s' "$got" | head -3)"
    else case "$got" in *"$want"*) ok "$name" ;; *) bad "$name" "output lacks [$want]: $(printf '%s' "$got" | head -5)" ;; esac; fi
}

S=samples
SAXPY="$S/saxpy.ptx --kernel saxpy --grid 4 --block 256 --buffer x:4000:file=$S/data/saxpy_x.bin
 --buffer y:4000:file=$S/data/saxpy_y.bin --param s32:1000 --param f32:2 --param ptr:x --param ptr:y"

expect samples 0 "PASS samples/saxpy.json :: saxpy
PASS samples/tma_tile2d.json :: tma_tile2d
PASS samples/tma_tile2d_edge.json :: tma_tile2d_edge
3 passed, 0 failed" -- "$PTXI" test $S
expect sample_run 0 "PASS tma_tile2d" -- "$PTXI" run $S/tma_tile2d.json
expect filter 0 "PASS samples/tma_tile2d_edge.json :: tma_tile2d_edge
1 passed, 0 failed" -- "$PTXI" test --filter edge $S
expect quiet 0 "3 passed, 0 failed" -- "$PTXI" test -q $S
# ptxas takes the mbarrier operand of a tensor load bare (`%r7`, not
# `[%r7]`): the same kernel gives the same bytes
mkdir -p "$T/bare" && cp -r $S/data $S/expected "$T/bare/"
sed 's/\], \[%r7\];/], %r7;/' $S/tma_tile2d.ptx > "$T/bare/tma_tile2d.ptx"
cp $S/tma_tile2d.json "$T/bare/"
if grep -q '}\], %r7;' "$T/bare/tma_tile2d.ptx"; then
    expect bare_mbar_operand 0 "PASS tma_tile2d" -- "$PTXI" run "$T/bare/tma_tile2d.json"
else bad bare_mbar_operand "the sed did not rewrite the sample's mbarrier operand"; fi
for pol in eager deferred random random:7; do
    expect "complete_$pol" 0 "PASS samples/saxpy.json :: saxpy
PASS samples/tma_tile2d.json :: tma_tile2d
PASS samples/tma_tile2d_edge.json :: tma_tile2d_edge
3 passed, 0 failed" -- "$PTXI" test -j 2 --complete=$pol $S
done
expect run_j2 0 "PASS saxpy" -- "$PTXI" run -j 2 $S/saxpy.json

# expect.buffers[].sha256 instead of a file (outputs too large to store)
mkdir -p "$T/sha" && cp -r $S/data $S/saxpy.ptx "$T/sha/"
ysum=$(sha256sum $S/expected/saxpy.y.bin | cut -d' ' -f1)
for v in good bad; do
    h=$ysum; [ $v = bad ] && h=$(printf '%s' "$ysum" | tr '0123456789abcdef' '123456789abcdef0')
    sed -e '/"file": "expected\/saxpy.y.bin"/s/"file": "expected\/saxpy.y.bin"/"sha256": "'"$h"'"/' \
        $S/saxpy.json > "$T/sha/$v.json"
done
if grep -q sha256 "$T/sha/good.json"; then
    expect expect_sha256 0 "PASS saxpy" -- "$PTXI" run "$T/sha/good.json"
    contains expect_sha256_differs 1 "buffer y: sha256 $ysum, want " -- "$PTXI" run "$T/sha/bad.json"
else bad expect_sha256 "the sed did not put a sha256 into the launch file"; fi

# The command-line form of the same launch.
expect cmdline_expect 0 "PASS saxpy" -- "$PTXI" run $SAXPY --expect y=$S/expected/saxpy.y.bin
expect cmdline_dump_raw 0 "PASS saxpy" -- "$PTXI" run $SAXPY --dump y="$T/y.bin"
if cmp -s "$T/y.bin" $S/expected/saxpy.y.bin; then ok dump_raw_bytes; else bad dump_raw_bytes "differs from the expected y"; fi
expect cmdline_dump_npy 0 "PASS saxpy" -- "$PTXI" run $SAXPY --dump y:f32:10x100="$T/y.npy"
hdr=$(head -c 128 "$T/y.npy" | tr -d '\000')
case "$hdr" in "$(printf '\223NUMPY\001')"*"{'descr': '<f4', 'fortran_order': False, 'shape': (10, 100), }"*) ok npy_header ;; *) bad npy_header "[$hdr]" ;; esac
if [ "$(wc -c < "$T/y.npy")" -eq $((128 + 4000)) ] && tail -c 4000 "$T/y.npy" | cmp -s - $S/expected/saxpy.y.bin
then ok npy_data; else bad npy_data "size or bytes wrong"; fi
contains dump_text 0 "00000000: 1000 1000 1000 1000" -- "$PTXI" run $SAXPY --dump y:f32=-
contains dump_tile_text 0 "00000000: 816 817 818 819 820 821 822 823" -- "$PTXI" run $S/tma_tile2d.json --dump dst:f32=-
expect dump_bad_shape 1 "FAIL tma_tile2d: --dump failed
    --dump dst: cannot write $T/d.npy: shape (3, 3) of f32 holds 36 bytes, but the buffer has 512" \
    -- "$PTXI" run $S/tma_tile2d.json --dump dst:f32:3x3="$T/d.npy"
expect dump_unknown_buffer 1 "FAIL tma_tile2d: --dump failed
    --dump nope: no buffer named \"nope\" in tma_tile2d" -- "$PTXI" run $S/tma_tile2d.json --dump nope="$T/x"

# A mismatch speaks in tensor coordinates when a map describes the buffer.
expect tensor_diff 1 "FAIL tensor_diff: 1 buffer differs
    buffer tensor differs from tensor_wrong.bin in 2 bytes:
    tensor+0x51d (1309): got 0x80, want 0x90
    tensor+0x908 (2312): got 0x00, want 0x01
    first difference: offset 1309 is element of tensor map tm (7, 5) [FLOAT32, dims 64 x 32, innermost first]" \
    -- "$PTXI" run tests/launch/diff/tensor_diff.json
contains test_counts_failures 1 "3 passed, 1 failed" -- "$PTXI" test -q $S tests/launch/diff

# --update writes a golden suite's expected files from the run.
mkdir -p "$T/suite" && cp -r $S/* "$T/suite/"
printf 'stale' > "$T/suite/expected/saxpy.y.bin"
rm -f "$T/suite/expected/tma_tile2d.dst.bin"
contains update_fails_before 1 "1 passed, 2 failed" -- "$PTXI" test -q "$T/suite"
contains update_writes 0 ":: saxpy (updated 1 expected file)" -- "$PTXI" test --update "$T/suite"
expect update_then_passes 0 "3 passed, 0 failed" -- "$PTXI" test -q "$T/suite"
if cmp -s "$T/suite/expected/tma_tile2d.dst.bin" $S/expected/tma_tile2d.dst.bin; then ok update_bytes; else bad update_bytes "rewritten file differs"; fi

# Command-line errors: exact text, status 2 (usage) or 1 (launch).
expect err_param_range 2 'ptxi: --param u8:300: "300" is not a u8 value' -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --param u8:300
expect err_param_kind 2 'ptxi: --param u31:3: expected TYPE:VALUE (u8..u64, s8..s64, f32, f64), ptr:BUFFER[+OFFSET] or struct:FIELD,FIELD,...' -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --param u31:3
expect err_struct_field 2 'ptxi: --param struct:u32:1,x:2: struct field "x:2": expected TYPE:VALUE (u8..u64, s8..s64, f32, f64), ptr:BUFFER[+OFFSET] or pad:BYTES' -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --param struct:u32:1,x:2
expect err_struct_pad_outside 2 'ptxi: --param pad:4: expected TYPE:VALUE (u8..u64, s8..s64, f32, f64), ptr:BUFFER[+OFFSET] or struct:FIELD,FIELD,...' -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --param pad:4
expect err_struct_ptr_unknown 2 'ptxi: --param ptr:nope: no --buffer named "nope"' -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --param struct:u8:1,ptr:nope
expect err_struct_too_long 1 "FAIL saxpy: params[0].struct[2]: u8 field at bytes 4..4 does not fit in kernel saxpy's parameter saxpy_param_0, .u32 (4 bytes)" -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --buffer x:4 --param struct:u16:1,pad:2,u8:3 --param f32:2 --param ptr:x --param ptr:x
# A struct that fills the s32 exactly is that s32: saxpy with n = 1000 given as {u16 1000, u16 0}
expect cmdline_struct_scalar 0 "PASS saxpy" -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 4 --block 256 \
    --buffer x:4000:file=$S/data/saxpy_x.bin --buffer y:4000:file=$S/data/saxpy_y.bin \
    --param struct:u16:1000,u16:0 --param f32:2 --param ptr:x --param ptr:y --expect y=$S/expected/saxpy.y.bin
# CUB's DeviceReduceKernel with its by-value GridEvenShare<unsigned> (.b8[40]) from the command line
# (tests/hw/cub: reduce_even_share_int, expected sums computed by gen_reduce.py)
CUB_REDUCE=_ZN3cub17CUB_300001_SM_9006detail6reduce18DeviceReduceKernelINS2_10policy_hubIfjN4cuda3std3__44plusIvEEE10Policy1000EPfjS9_fNS7_10__identityEEEvT0_PT3_T1_NS0_13GridEvenShareISH_EET2_T4_
expect cmdline_struct_cub 0 "PASS $CUB_REDUCE" -- "$PTXI" run tests/hw/ptx/general_sm90a.ptx --kernel $CUB_REDUCE \
    --grid 3 --block 256 --buffer in:85032:file=tests/hw/cub/inputs/reduce_int.bin --buffer out:16:fill=255 \
    --param ptr:in --param ptr:out --param u32:21257 \
    --param struct:s32:6,s32:0,u32:12288,u32:8192,u32:0,u32:21257,s32:3,u32:21257,u32:21257,u32:0 \
    --param u8:0 --param u8:0 --expect out=tests/hw/cub/expected/reduce_even_share_int.out.bin
expect err_ptr_unknown 2 'ptxi: --param ptr:nope: no --buffer named "nope"' -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --param ptr:nope
expect err_grid 2 'ptxi: --grid: "0,1" is not X[,Y[,Z]] with positive integers' -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 0,1 --block 1
expect err_need_kernel 2 'ptxi run: a .ptx input needs --kernel NAME, --grid X,Y,Z and --block X,Y,Z' -- "$PTXI" run $S/saxpy.ptx --grid 1 --block 1
expect err_buffer_spec 2 'ptxi: --buffer x:12:fill=999: "fill=999" is not fill=0..255, hash32=SEED, file=PATH or align=POW2' -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --buffer x:12:fill=999
expect err_complete 2 'ptxi: --complete: "soon" is not eager, deferred or random[:SEED]' -- "$PTXI" run --complete=soon $S/saxpy.json
expect err_flags_on_json 2 'ptxi run: --kernel/--grid/--block/--buffer/--param/--expect go with a .ptx input; samples/saxpy.json is a launch file' -- "$PTXI" run $S/saxpy.json --grid 2
expect err_param_count 1 'FAIL saxpy: params: kernel saxpy has 4 parameters but the launch gives 1' -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --param s32:0
expect err_param_size 1 "FAIL saxpy: params[1]: kernel saxpy's parameter saxpy_param_1 is .f32 (4 bytes) but the launch gives f64" -- "$PTXI" run $S/saxpy.ptx --kernel saxpy --grid 1 --block 1 --buffer x:4 --param s32:0 --param f64:2 --param ptr:x --param ptr:x
contains err_no_file 1 'ptxi: nope.json: cannot read: No such file or directory' -- "$PTXI" run nope.json
contains err_test_path 1 'ptxi test: nope: No such file or directory' -- "$PTXI" test nope
exit 0
