#!/bin/sh
# tc_warp_forms.sh — ptxi accepts exactly the warp-level matrix forms
# (mma.sync dense and .sp with each selector, wmma.load/store/mma with each
# state space and stride, ldmatrix/stmatrix/movmatrix) that ptxas
# -arch=sm_90a accepts: tests/tc/warp_forms.txt is ptxas's verdict (written
# by tests/tc/warp_forms.py where CUDA is installed); every one of the 14106
# forms tried goes through `ptxi check`.
PTXI=${PTXI:-build/ptxi}
exec python3 tests/tc/warp_forms.py --check "$PTXI"
