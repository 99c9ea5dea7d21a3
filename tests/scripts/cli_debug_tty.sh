#!/bin/sh
# cli_debug_tty.sh — `ptxi debug` at a real terminal, driven through tmux
# (send-keys / capture-pane): Ctrl-C at the prompt abandons the line and
# keeps the session; Ctrl-C interrupts `continue` and `step N`; tab
# completes commands, info subcommands, labels, registers and buffers;
# line editing (cursor keys); `set history save on` writes the history
# and the next session reads it back (Up arrow).
# Needs tmux; without it the test says so and checks nothing.
PTXI=${PTXI:-build/ptxi}
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP debug_tty: tmux is not installed (apt-get install tmux); the terminal behaviour is not checked"
    exit 0
fi
T=${TMPDIR:-/tmp}/ptxi-tty.$$
mkdir -p "$T"
SOCK="ptxi-tty-$$"
tm() { tmux -L "$SOCK" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT
ok() { echo "PASS debug_tty/$1"; }
bad() { echo "FAIL debug_tty/$1: $2"; }
PTXI_ABS=$(cd "$(dirname "$PTXI")" && pwd)/$(basename "$PTXI")

# start NAME LAUNCH: a session in a fresh tmux window (history in $T/hist)
start() {
    tm kill-session -t "$1" 2>/dev/null
    tm new-session -d -s "$1" -x 160 -y 50 \
        "cd '$PWD' && PTXI_HISTFILE='$T/hist' '$PTXI_ABS' debug $2; echo SESSION-ENDED; sleep 30"
    wait_for "$1" "(ptxi)" 20
}
screen() { tm capture-pane -t "$1" -p -S -200 2>/dev/null; }
# wait_for SESSION TEXT SECONDS: until the screen shows TEXT (polling, so a slow sanitizer build waits longer)
wait_for() {
    i=0
    while [ "$i" -lt $(($3 * 10)) ]; do
        screen "$1" | grep -qF -- "$2" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# check NAME SESSION TEXT [SECONDS]
check() {
    if wait_for "$2" "$3" "${4:-20}"; then ok "$1"; else bad "$1" "the screen lacks [$3]: $(screen "$2" | tail -15 | tr '\n' '|')"; fi
}
check_not() {
    if screen "$2" | grep -qF -- "$3"; then bad "$1" "the screen shows [$3]: $(screen "$2" | tail -15 | tr '\n' '|')"; else ok "$1"; fi
}
keys() { s=$1; shift; tm send-keys -t "$s" "$@"; }

CALLS=tests/launch/debug/calls.json
SPIN=tests/launch/debug/spin.json

# ---- Ctrl-C at the prompt, completion, line editing -------------------------------
start a "$CALLS" || bad start "no prompt: $(screen a | tr '\n' '|')"
keys a "abc"; wait_for a "(ptxi) abc" 10; keys a C-c
check ctrlc_prompt_quit a "Quit"
keys a "echo alive-after-ctrl-c\\n" Enter
check ctrlc_keeps_session a "alive-after-ctrl-c"
check_not ctrlc_clears_line a "abcecho"
check_not ctrlc_not_ended a "SESSION-ENDED"
keys a "backt" Tab; check complete_command a "(ptxi) backtrace" 10; keys a C-u
keys a "info mbar" Tab; check complete_info a "(ptxi) info mbarriers" 10; keys a C-u
keys a "info cuda thr" Tab; check complete_info_cuda a "(ptxi) info cuda threads" 10; keys a C-u
keys a "break LO" Tab; check complete_label a "(ptxi) break LOOP" 10; keys a Enter
check complete_label_works a "Breakpoint 1 at calls.ptx:40"
keys a "run" Enter; wait_for a "Breakpoint 1, CTA" 20
keys a "p %rd" Tab Tab; check complete_registers a "%rd3" 10; keys a C-u
keys a "x/2xw ou" Tab; check complete_buffer a "(ptxi) x/2xw out" 10; keys a C-u
keys a "p %r6 + 12" Left Left "3"; keys a Enter
check line_editing a "\$1 = 312"
keys a "set history save on" Enter "quit" Enter
check quit_ends a "SESSION-ENDED"
check_not no_sanitizer_report a "Sanitizer"
if [ -s "$T/hist" ] && grep -q "history" "$T/hist"; then ok history_saved; else bad history_saved "no history file $T/hist after set history save on"; fi

# ---- the history comes back; Ctrl-C interrupts running commands ----------------------
start b "$SPIN" || bad start_spin "no prompt: $(screen b | tr '\n' '|')"
keys b Up; check history_read b "(ptxi) quit" 10; keys b C-u
keys b "run" Enter; wait_for b "Starting kernel spin" 20; sleep 0.3; keys b C-c
check ctrlc_interrupts_continue b "Interrupted."
check ctrlc_interrupted_where b "at spin.ptx:"
keys b "step 100000000" Enter; sleep 0.5; keys b C-c
check ctrlc_interrupts_step b "Interrupted after"
keys b "echo still-here\\n" Enter
check ctrlc_step_keeps_session b "still-here"
check_not ctrlc_step_not_ended b "SESSION-ENDED"
keys b "quit" Enter
check quit_ends_b b "SESSION-ENDED"
check_not no_sanitizer_report_b b "Sanitizer"
