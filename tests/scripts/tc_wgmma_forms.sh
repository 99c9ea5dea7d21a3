#!/bin/sh
# tc_wgmma_forms.sh — ptxi accepts exactly the wgmma.mma_async forms that
# ptxas -arch=sm_90a accepts: tests/tc/wgmma_forms.txt is ptxas's verdict
# (written by tests/tc/wgmma_forms.py where CUDA is installed); here every
# one of the 21216 forms tried is run through `ptxi check`.
PTXI=${PTXI:-build/ptxi}
exec python3 tests/tc/wgmma_forms.py --check "$PTXI"
