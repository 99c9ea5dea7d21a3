#!/bin/sh
# fuzz/build.sh — build the libFuzzer target (clang only) into build-fuzz/,
# with its seed corpus: the front end's fixtures and, when present, the
# shared corpus split into one small module per function.
set -e
cd "$(dirname "$0")/.."
B=${B:-build-fuzz}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# the library gets libFuzzer's coverage instrumentation too (fuzzer-no-link):
# without it the fuzzer is blind.  Objects are rebuilt, the corpus is kept.
find "$B" -name '*.o' -delete 2>/dev/null || true
rm -f "$B/libptxi.a"
make -s B="$B" CC=clang OPT="-O1 -g $SAN -fsanitize=fuzzer-no-link" LDFLAGS="$SAN" "$B/libptxi.a"
clang -std=c17 -D_GNU_SOURCE -O1 -g $SAN -fsanitize=fuzzer -I. -I"$B/gen" \
    fuzz/fuzz_parse.c "$B/libptxi.a" -ljansson -ledit -lpthread -lm -o "$B/fuzz_parse"
mkdir -p "$B/seeds"
python3 fuzz/mutate.py --split-only "$B/seeds"
echo "built $B/fuzz_parse; run: $B/fuzz_parse -max_total_time=300 -timeout=10 $B/corpus $B/seeds"
