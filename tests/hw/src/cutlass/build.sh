#!/bin/sh
# build.sh CUTLASS_DIR OUT_DIR — build the two capture programs of
# tests/hw/cutlass for sm_90a (nvcc 13; no GPU needed) and keep their PTX.
#   CUTLASS_DIR: a checkout of github.com/NVIDIA/cutlass (include/,
#                tools/util/include/, examples/cute/tutorial/hopper/)
#   OUT_DIR/cutlass_gemm, OUT_DIR/cute_tutorial: run on the H100 as
#                `PROGRAM DIR` (writes DIR/CASE/meta.json and buffers);
#   OUT_DIR/*.ptx: the modules (nvcc --keep's .compute_90a.ptx), which
#                `../capture_cases.py cutlass DIR OUT_DIR SUITE` pairs with
#                the captures.
set -e
C=$1 O=$2 S=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$O"
for p in cutlass_gemm cute_tutorial; do
    mkdir -p "$O/$p.keep"
    nvcc -std=c++17 -O2 -arch=sm_90a --expt-relaxed-constexpr -I"$C/include" -I"$C/tools/util/include" \
        -I"$C/examples/cute/tutorial/hopper" -I"$S" --keep --keep-dir "$O/$p.keep" \
        -cudart static -lcuda -L/usr/local/cuda/lib64/stubs -o "$O/$p" "$S/$p.cu"
    cp "$O/$p.keep/$p.compute_90a.ptx" "$O/$p.ptx"
done
