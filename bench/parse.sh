#!/bin/sh
# bench/parse.sh — `make bench-parse`: front-end throughput (lexing alone,
# parse to IR) over the shared corpus, >= 50 MB in one process, one core.
B=${B:-build}
make -s B="$B" "$B/bench/bench_parse" || exit 1
C=../shared/corpus
[ -d "$C" ] || C=/work/shared/corpus
CF=../shared/conformance/ptx
[ -d "$CF" ] || CF=/work/shared/conformance/ptx
exec "$B/bench/bench_parse" "$C"/*.ptx "$CF"/*.ptx
