#!/bin/sh
# broken_kernels.sh — TMA kernels with the usual bugs stop with the right
# diagnostic at the right line, under every completion policy, and never hang.
#
# tests/launch/broken/broken.cu holds the kernels (real CUDA; broken.ptx is
# nvcc -arch=sm_90a -O3 -ptx output), one launch file NAME.json per bug.  The
# output of `ptxi run NAME.json` (stdout and stderr together, exit status 1)
# must equal NAME.expected byte for byte: the message, the thread, and the
# `at broken.ptx:LINE: instruction` line.  Policies:
#   deferred (the default)  NAME.expected
#   eager                   NAME.eager.expected if it exists (a bug that shows
#                           differently when every copy lands at issue: a race
#                           becomes a hang or goes unseen), else NAME.expected
#   random:1, random:2      either of the two
# A run that takes longer than 60 s counts as a hang.  To add a case: write
# the kernel, rebuild broken.ptx, add NAME.json, then NAME.expected from
#   build/ptxi run tests/launch/broken/NAME.json > tests/launch/broken/NAME.expected
# after reading it: it must name the bug and the line a user would fix.
PTXI=${PTXI:-build/ptxi}
dir=tests/launch/broken
# The name a race message gives the access ("ld.shared.f32") is left out of
# the comparison: the `at` line quotes the instruction anyway.
norm() { sed 's/data race: [^ ]* /data race: ACCESS /'; }
run() {   # run POLICY FILE -> $out, $rc
    out=$(timeout 60 "$PTXI" run --complete="$1" "$2" 2>&1); rc=$?
    out=$(printf '%s\n' "$out" | norm)
}
for f in "$dir"/*.json; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .json)
    base=$dir/$name
    if [ ! -f "$base.expected" ]; then
        echo "FAIL broken/$name: no $base.expected"
        continue
    fi
    want=$(norm < "$base.expected")
    want_eager=$want
    [ -f "$base.eager.expected" ] && want_eager=$(norm < "$base.eager.expected")
    for pol in deferred eager random:1 random:2; do
        run "$pol" "$f"
        case $pol in
            deferred) ok=$([ "$out" = "$want" ] && echo 1) ;;
            eager) ok=$([ "$out" = "$want_eager" ] && echo 1) ;;
            *) ok=$([ "$out" = "$want" ] || [ "$out" = "$want_eager" ] && echo 1) ;;
        esac
        wantrc=1
        case $out in PASS*) wantrc=0 ;; esac
        if [ "$rc" -eq 124 ]; then
            echo "FAIL broken/$name/$pol: hung (no result in 60 s)"
        elif [ "$rc" -ne "$wantrc" ]; then
            echo "FAIL broken/$name/$pol: exit status $rc, want $wantrc"
            printf '%s\n' "$out" | sed 's/^/    /' | head -8
        elif [ -z "$ok" ]; then
            echo "FAIL broken/$name/$pol: wrong diagnostic"
            printf '%s\n' "$out" | sed 's/^/    got:  /' | head -8
            [ "$pol" = eager ] && want1=$want_eager || want1=$want
            printf '%s\n' "$want1" | sed 's/^/    want: /' | head -8
        else
            echo "PASS broken/$name/$pol"
        fi
    done
done
