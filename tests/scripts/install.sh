#!/bin/sh
# install.sh — `make install` into a DESTDIR, as a package build does, then
# from a fresh directory: build and run a program against the installed
# header, library (shared and static) and pkg-config file; the installed
# binary's --version; `man -l` on the installed page; `make uninstall`
# leaves nothing behind.
B=${B:-build}
T=${TMPDIR:-/tmp}/ptxi-install.$$
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/work"
ok() { echo "PASS install/$1"; }
bad() { echo "FAIL install/$1: $2"; }
ROOT="$T/root"
PREFIX=/usr/local
if make -s --no-print-directory B="$B" DESTDIR="$ROOT" PREFIX=$PREFIX install > "$T/install.log" 2>&1; then
    ok make_install
else
    bad make_install "$(tail -5 "$T/install.log")"; exit 1
fi
for f in bin/ptxi lib/libptxi.a lib/libptxi.so lib/libptxi.so.0 include/ptxi.h lib/pkgconfig/ptxi.pc \
         share/man/man1/ptxi.1 share/bash-completion/completions/ptxi; do
    if [ -e "$ROOT$PREFIX/$f" ]; then ok "file/$f"; else bad "file/$f" "not installed"; fi
done
# the shared library exports the API and nothing else
other=$(nm -D --defined-only "$ROOT$PREFIX/lib/libptxi.so" | awk '{print $3}' | grep -v '^ptxi_' | grep -v '^_' | head -3)
if [ -z "$other" ]; then ok exports_only_ptxi; else bad exports_only_ptxi "also exports: $other"; fi
v=$("$ROOT$PREFIX/bin/ptxi" --version)
case "$v" in "ptxi "[0-9]*) ok version ;; *) bad version "got [$v]" ;; esac
# a sanitizer build's library needs the sanitizer runtime in the program too
SAN=
if nm "$B/libptxi.a" 2>/dev/null | grep -q __asan_report; then SAN="-fsanitize=address,undefined"; fi
cp tests/install/saxpy_api.c "$T/work/"
SAXPY=$(pwd)/samples/saxpy.ptx SPIN=$(pwd)/tests/launch/ci/ci.ptx
export PKG_CONFIG_PATH="$ROOT$PREFIX/lib/pkgconfig"
PC="pkg-config --define-variable=prefix=$ROOT$PREFIX"
if (cd "$T/work" && cc $SAN -std=c17 -Wall -Werror $($PC --cflags ptxi) -o api saxpy_api.c $($PC --libs ptxi) -lm) \
        > "$T/cc.log" 2>&1; then
    ok build_shared
    (cd "$T/work" && LD_LIBRARY_PATH="$ROOT$PREFIX/lib" ./api "$SAXPY" "$SPIN") | sed 's#install/api/#install/api_shared/#'
else
    bad build_shared "$(head -5 "$T/cc.log")"
fi
if (cd "$T/work" && cc $SAN -std=c17 -Wall -Werror $($PC --cflags ptxi) -o api_static saxpy_api.c \
        "$ROOT$PREFIX/lib/libptxi.a" $($PC --static --libs-only-l ptxi | sed 's/-lptxi//') -lm) > "$T/cc2.log" 2>&1; then
    ok build_static
    (cd "$T/work" && ./api_static "$SAXPY" "$SPIN") | sed 's#install/api/#install/api_static/#'
else
    bad build_static "$(head -5 "$T/cc2.log")"
fi
if command -v man > /dev/null 2>&1; then
    out=$(MANWIDTH=80 man -l "$ROOT$PREFIX/share/man/man1/ptxi.1" 2> "$T/man.err")
    case "$out" in *"--shard"*"--junit"*) ok man_page ;; *) bad man_page "man -l: $(head -3 "$T/man.err")" ;; esac
else
    echo "SKIP install/man_page: man is not installed"
fi
make -s --no-print-directory B="$B" DESTDIR="$ROOT" PREFIX=$PREFIX uninstall > /dev/null 2>&1
left=$(find "$ROOT" -type f -o -type l | head -3)
if [ -z "$left" ]; then ok uninstall; else bad uninstall "left behind: $left"; fi
