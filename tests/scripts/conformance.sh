#!/bin/sh
# conformance.sh — the hardware-verified suites through `ptxi test`.
#
# Runs every suite under tests/conformance/ (TMA behaviour read back from an
# H100; copied from ../shared/conformance) and tests/hw/ (numeric probes,
# general kernels and the instruction-family coverage suite `ops`, same
# origin; `cub`, whose expected bytes come from a Python reference that was
# checked against the H100 too), passing on ptxi test's PASS/FAIL line per
# case.  This is the real judge of the interpreter and the TMA engine.
#
#   CONFORMANCE_SUITES="tile_load reduce hw/corpus"   only these suites
#   CONFORMANCE_FILTER=SUBSTR                         only matching cases
#   CONFORMANCE_JOBS=N                                cases at once (default 2)
#   CONFORMANCE_COMPLETE=random:7                     completion policy
PTXI=${PTXI:-build/ptxi}
JOBS=${CONFORMANCE_JOBS:-2}
set --
[ -n "${CONFORMANCE_FILTER:-}" ] && set -- "$@" --filter "$CONFORMANCE_FILTER"
[ -n "${CONFORMANCE_COMPLETE:-}" ] && set -- "$@" --complete="$CONFORMANCE_COMPLETE"
status=0
total_p=0; total_f=0
for dir in tests/conformance/*/ tests/hw/*/; do
    [ -f "$dir/cases.jsonl" ] || continue
    suite=${dir%/}
    suite=${suite#tests/conformance/}
    suite=${suite#tests/}
    if [ -n "${CONFORMANCE_SUITES:-}" ]; then
        case " $(echo "$CONFORMANCE_SUITES" | tr ',' ' ') " in
            *" $suite "*) ;;
            *) continue ;;
        esac
    fi
    out=$("$PTXI" test -j "$JOBS" "$@" "${dir%/}/cases.jsonl" 2>&1); rc=$?  # not pending.jsonl
    # a filter that matches nothing in this suite is not a failure here
    case "$out" in *"--filter "*": no case name contains it"*) continue ;; esac
    printf '%s\n' "$out" | grep -v '^[0-9]* passed, [0-9]* failed$'
    line=$(printf '%s\n' "$out" | grep '^[0-9]* passed, [0-9]* failed$' | tail -1)
    if [ -n "$line" ]; then
        total_p=$((total_p + ${line%% passed*}))
        f=${line#*passed, }; total_f=$((total_f + ${f%% failed}))
    fi
    if [ "$rc" -ne 0 ]; then
        status=1
        # A crash leaves no closing line: say so, or the suite's remaining
        # cases would silently vanish from the count.
        printf '%s\n' "$out" | grep -q '^[0-9]* passed, [0-9]* failed$' ||
            echo "FAIL conformance/$suite: ptxi test exited with status $rc before finishing"
    fi
done
# Cases waiting for features that are not merged yet live in a suite's
# pending.jsonl (its PENDING file says what each waits for).  They run here
# but are not counted: a failure prints "PENDING", a pass prints a note that
# the case can move to cases.jsonl.  CONFORMANCE_PENDING=0 skips them.
if [ "${CONFORMANCE_PENDING:-1}" != 0 ] && [ -z "${CONFORMANCE_SUITES:-}" ]; then
    for f in tests/hw/*/pending.jsonl; do
        [ -f "$f" ] || continue
        suite=${f%/pending.jsonl}; suite=${suite#tests/}
        "$PTXI" test -j "$JOBS" "$@" "$f" 2>&1 | sed -n \
            -e "s|^PASS [^ ]* :: \([^ ]*\).*|NOTE $suite/\1 (pending) passes now: move its line to cases.jsonl|p" \
            -e "s|^FAIL [^ ]* :: \([^:]*\): \(.*\)|PENDING $suite/\1: \2|p"
    done
fi
# the total, for a run of this script alone (tests/run.sh counts the lines)
echo "conformance: $total_p passed, $total_f failed"
exit $status
