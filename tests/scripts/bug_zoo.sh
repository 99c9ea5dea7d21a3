#!/bin/sh
# bug_zoo.sh — the happens-before checker's bug zoo (tests/launch/zoo):
# every broken kernel of zoo.cu, zoo2.cu (the wgmma pipelines), zoo3.cu
# (clusters, device-side tensor maps, epilogues, intra-warp races),
# zoo_warp.cu (partial __syncwarp masks, bulk groups waited by one lane)
# and zoo6.cu (CTAs of different clusters writing the same global bytes:
# the grid-wide write check) is reported with the right rule at the right
# source line, and its correct twin (NAME_ok) runs clean, under deferred,
# eager and random:1..20.
#
# zoo.cu marks the line of each bug `// BUG NAME RULE[|RULE...]` (several
# markers of one kernel are alternatives).  RULE is the bracketed tag of
# the report ("[copy-not-waited]"), `deadlock`, or `fault` (a fault with no
# tag).  A report locates the bug when it carries that rule and names that
# line: each `zoo.ptx:N` it mentions (the faulting instruction, the other
# side, the expect_tx or init of a hang) is mapped to zoo.cu through the
# .loc line info nvcc wrote (-lineinfo): the .loc line itself in a kernel
# body, its inlined_at line inside the small helpers at the top.
#   ZOO_LINES_ONLY=1  ignore the rule (to measure an older ptxi)
#   ZOO_POLICIES="deferred eager"  other policies
#   ZOO_FILES="zoo3"  only these files
PTXI=${PTXI:-build/ptxi}
dir=tests/launch/zoo
tmp=${TMPDIR:-/tmp}/bug_zoo.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
for z in ${ZOO_FILES:-zoo zoo2 zoo3 zoo_warp zoo6}; do
    # the first kernel body: helpers are above it
    body=$(grep -n '^template <bool BUG>' "$dir/$z.cu" | head -1 | cut -d: -f1)
    # ptx line -> cu line
    awk -v B="$body" '
    /^[ \t]*\.loc[ \t]/ {
        split($0, f, /[ \t,]+/)
        cur = f[4]
        if (cur < B && match($0, /inlined_at [0-9]+ [0-9]+/)) {
            split(substr($0, RSTART, RLENGTH), g, " ")
            cur = g[3]
        }
    }
    { print NR, cur + 0 }' "$dir/$z.ptx" > "$tmp/map"
    # markers: NAME RULES LINE
    grep -n '// BUG ' "$dir/$z.cu" | awk -F: -v B="$body" '$1 >= B' | sed 's/^\([0-9]*\):.*\/\/ BUG \([^ ]*\) \([^ ]*\).*/\2 \3 \1/' > "$tmp/marks"
    names=$(cut -d' ' -f1 "$tmp/marks" | sort -u)
    # the report of case n: its PASS/FAIL line ("PASS NAME" or, from a .jsonl,
    # "PASS FILE:LINE :: NAME") and the indented lines after it
    pick='/^(PASS|FAIL) / { k = ($3 == "::") ? $4 : $2; sub(/:$/, "", k); on = (k == n) } on'
    policies=${ZOO_POLICIES:-"deferred eager $(seq -f random:%g 1 20 | tr '\n' ' ')"}
    for pol in $policies; do
        timeout 300 "$PTXI" test "$dir/$z.jsonl" --complete="$pol" > "$tmp/out" 2>&1
        rc=$?
        if [ "$rc" -eq 124 ]; then
            echo "FAIL $z/$pol: ptxi test hung (no result in 300 s)"
            continue
        fi
        located=0; total=0
        for n in $names; do
            total=$((total + 1))
            awk -v n="$n" "$pick" "$tmp/out" > "$tmp/case"
            if ! head -1 "$tmp/case" | grep -q "^FAIL \(.* :: \)\?$n: "; then
                echo "FAIL zoo/$n/$pol: not reported"
                sed 's/^/    /' "$tmp/case" | head -4
                continue
            fi
            first=$(head -1 "$tmp/case")
            rule=$(printf '%s\n' "$first" | sed -n 's/^[^[]*\[\([a-z-]*\)\].*/\1/p')
            if [ -z "$rule" ]; then
                case $first in
                    *": deadlock: "*) rule=deadlock ;;
                    *) rule=fault ;;
                esac
            fi
            grep -o "$z\\.ptx:[0-9]*" "$tmp/case" | cut -d: -f2 | sort -u > "$tmp/plines"
            culines=$(awk 'NR == FNR { want[$1] = 1; next } ($1 in want) { print $2 }' "$tmp/plines" "$tmp/map" | sort -u)
            ok=
            while read -r mn mrules mline; do
                [ "$mn" = "$n" ] || continue
                for l in $culines; do
                    [ "$l" = "$mline" ] || continue
                    if [ -n "$ZOO_LINES_ONLY" ]; then ok=1; fi
                    for r in $(printf '%s\n' "$mrules" | tr '|' ' '); do
                        [ "$r" = "$rule" ] && ok=1
                    done
                done
            done < "$tmp/marks"
            if [ -n "$ok" ]; then
                located=$((located + 1))
                echo "PASS zoo/$n/$pol"
            else
                echo "FAIL zoo/$n/$pol: reported as [$rule] at $z.cu line(s) $(echo $culines), want:" \
                     "$(awk -v n="$n" '$1 == n { printf "[%s] line %s; ", $2, $3 }' "$tmp/marks")"
                sed 's/^/    /' "$tmp/case" | head -6
            fi
            if grep -q "^PASS \(.* :: \)\?${n}_ok\$" "$tmp/out"; then
                echo "PASS zoo/${n}_ok/$pol"
            else
                echo "FAIL zoo/${n}_ok/$pol: the correct twin does not run clean"
                awk -v n="${n}_ok" "$pick" "$tmp/out" | sed 's/^/    /' | head -6
            fi
        done
        echo "$z: $pol: $located of $total broken kernels located"
    done
done
