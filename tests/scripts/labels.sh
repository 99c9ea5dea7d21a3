#!/bin/sh
# tests/scripts/labels.sh — block-scoped labels (tests/launch/labels): sibling
# blocks defining one label name, an inner label shadowing an outer one, and
# CUTLASS's inline-asm mbarrier wait inlined twice, under every completion
# policy.  The malformed cases (duplicate in one block, use outside the
# defining block) are in tests/diag/label_*.
PTXI=${PTXI:-build/ptxi}
for pol in eager deferred random:3 random:7; do
    out=$("$PTXI" test --complete=$pol tests/launch/labels 2>&1)
    printf '%s\n' "$out" | grep -E '^(PASS|FAIL) ' | sed "s/^\(PASS\|FAIL\) /\1 labels[$pol] /"
done
