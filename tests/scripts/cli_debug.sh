#!/bin/sh
# cli_debug.sh — `ptxi debug` driven by command scripts on stdin (no TTY,
# no prompt): breakpoints by line/label/function, the stop report, info
# warps, registers in every lane, shared/global memory, mbarrier state,
# the TMA copy in flight before it lands and a watchpoint that sees it
# land, tensor-map decoding (a map inside a by-value struct parameter
# too), .b128 registers shown and set in all 128 bits, step/next/until over
# a call and a loop, a deadlock and a fault examined post mortem, the PASS/FAIL verdict and the
# exit status, command errors, and the command-line options.
# One PASS/FAIL line per check (tests/run.sh protocol).
PTXI=${PTXI:-build/ptxi}
T=${TMPDIR:-/tmp}/ptxi-cli-debug.$$
mkdir -p "$T"
trap '[ -n "$KEEP" ] || rm -rf "$T"' EXIT

ok() { echo "PASS debug/$1"; }
bad() { echo "FAIL debug/$1: $2"; }
TILE=samples/tma_tile2d.json
CALLS=tests/launch/debug/calls.json
WIDE=tests/launch/debug/wide.json
DEADLOCK=tests/launch/broken/missing_arrive.json
FAULT=tests/launch/broken/wrong_parity.json

# session NAME FILE [ptxi debug args...] < commands: output in $T/NAME.out, status in $T/NAME.rc
session() {
    name=$1; shift
    "$PTXI" debug "$@" > "$T/$name.out" 2>&1
    echo $? > "$T/$name.rc"
}
# has CHECK SESSION TEXT: the session's output contains TEXT (a fixed string, may span lines:
# then its lines must follow each other; grep -F alone would take each line as a pattern)
has() {
    if case "$3" in
           *"
"*) tr '\n' '\001' < "$T/$2.out" | grep -qF -- "$(printf '%s' "$3" | tr '\n' '\001')" ;;
           *) grep -qF -- "$3" "$T/$2.out" 2>/dev/null ;;
       esac
    then ok "$1"; else bad "$1" "output of '$2' lacks [$3]: $(head -c 600 "$T/$2.out")"; fi
}
lacks() {
    if grep -qF -- "$3" "$T/$2.out"; then bad "$1" "output of '$2' has [$3]"; else ok "$1"; fi
}
status() {
    rc=$(cat "$T/$2.rc")
    if [ "$rc" -eq "$3" ]; then ok "$1"; else bad "$1" "exit status $rc, want $3; output: $(tail -c 400 "$T/$2.out")"; fi
}

# ---- the sample: stop at the bar.sync after the TMA is issued ----------------------
session tile $TILE <<'EOF'
info warps
b 59
b WAIT_0
info breakpoints
run
info warps
info async
info mbarriers
p %r18
p %r5
p %p1
p %r18 5
p/x %r7[0]
x/4fw tile
x/2xw smem 0x400
info tmaps
info tmaps %rd4
info registers 5
list
step
info warps
delete
watch smem tile 4
continue
x/4fw tile
x/4fw smem 0x410
info mbarriers
continue
EOF
has before_run tile "The kernel is not running yet: no CTA is resident."
has break_line tile "Breakpoint 1 at tma_tile2d.ptx:59 (pc 15 of tma_tile2d)"
has break_label tile "Breakpoint 2 at tma_tile2d.ptx:65 (pc 17 of tma_tile2d)"
has info_breakpoints tile "2    breakpoint  y    tma_tile2d.ptx:65 (pc 17 of tma_tile2d)"
has break_hit tile "Breakpoint 1, CTA (0,0,0) warp 0 lanes 0-31 at tma_tile2d.ptx:59 (pc 15)
59		bar.sync 	0;"
has info_warps tile "* warp 0   lanes 0-31       pc 15   tma_tile2d.ptx:59    ready
  warp 1   lanes 0-31       pc 0    tma_tile2d.ptx:33    ready"
has async_in_flight tile "1 asynchronous operation in flight (completion deferred: copies land when no warp can run):
  #1 TMA load, 512 bytes: tensor at global 0x7f0000000000, box at {16, 8} -> smem 0x400 <tile>
     completes tx on mbarrier smem 0x600 <bar>
     issued by CTA slot 0 warp 0 lane 0 at tma_tile2d.ptx:55"
has mbarrier_before_landing tile "CTA (0,0,0) smem 0x600 <bar>: phase parity 0, arrivals pending 0 of 1, tx-count 512 (bytes still expected)
    in flight: #1 TMA load, completes 512 bytes on it"
has reg_table tile "%r18 (.b32, warp 0):
  lanes  0-7 :  0  1  2  3  4  5  6  7
  lanes  8-15:  8  9 10 11 12 13 14 15"
has reg_uniform tile "%r5 (.b32, warp 0) = 16 (all 32 lanes)"
has reg_pred tile "%p1 (.pred, warp 0) = 1 in lanes 1-31; 0 in lane 0"
has reg_lane tile "%r18[5] (.b32) = 5"
has reg_hex_lane tile "%r7[0] (.b32) = 0x600"
has tile_before_landing tile "smem 0x400 <tile>:	0	0	0	0"
has x_hex tile "smem 0x400 <tile>:	0x00000000	0x00000000"
has tmap_launch tile "tensor map tm: encoded (CUDA_SUCCESS)
  kernel parameter 0 tma_tile2d_param_0: param 0x0 (generic 0x7c0000000000)
tensor map: tiled, FLOAT32 (32-bit elements), rank 2
  global address   0x7f0000000000"
has tmap_box tile "  box dim          {16, 8}"
has tmap_at_register tile "generic 0x7c0000000000:
tensor map: tiled, FLOAT32 (32-bit elements), rank 2"
has info_registers tile "CTA (0,0,0) warp 0 lane 5, in tma_tile2d:"
has info_registers_value tile "%r18 = 5"
has list_marks_current tile "=> 59		bar.sync 	0;"
has step_to_barrier tile "CTA (0,0,0) warp 0 lanes 0-31 at tma_tile2d.ptx:59 (pc 15), waiting at barrier 0 (bar.sync)"
has info_warps_waiting tile "* warp 0   lanes 0-31       pc 15   tma_tile2d.ptx:59    waiting at barrier 0 (bar.sync)"
has watch_landing tile "Watchpoint 3: smem 0x400 (4 bytes, CTA slot 0)

Old value = 0x00000000 (0)
New value = 0x444c0000 (1145831424)
(written by asynchronous operation #1 landing)"
has tile_after_landing tile "smem 0x400 <tile>:	816	817	818	819"
has tile_row_after_landing tile "smem 0x410 <tile+16>:	820	821	822	823"
has mbarrier_after_landing tile "CTA (0,0,0) smem 0x600 <bar>: phase parity 1, arrivals pending 1 of 1, tx-count 0"
has waiters tile "    waited on by warp 0 lanes 0-31 for phase parity 0"
has finished tile "Kernel tma_tile2d finished after"
has verdict_pass tile "PASS tma_tile2d"
lacks no_prompt tile "(ptxi)"
status exit_pass tile 0

# ---- completion policy: eager lands the copy at issue ---------------------------------
session eager $TILE --complete=eager <<'EOF'
b 59
r
info async
info mbarriers
EOF
has eager_nothing_in_flight eager "No asynchronous operations in flight."
has eager_phase_done eager "smem 0x600 <bar>: phase parity 1"
status eager_quit_before_end eager 0

# ---- a deadlock, examined post mortem -------------------------------------------------
session deadlock $DEADLOCK <<'EOF'
run
info warps
info mbarriers
warp 1
p %r13
continue
EOF
has deadlock_report deadlock "Kernel stopped: deadlock: every thread waits and nothing in flight can wake one"
has deadlock_where deadlock "CTA (0,0,0) warp 0 lanes 0-31 at broken.ptx:412 (pc 19), waiting on mbarrier smem 0x600 <bar> for phase parity 0"
has deadlock_verdict deadlock "FAIL missing_arrive: deadlock: every thread waits"
has deadlock_warps deadlock "  warp 1   lanes 0-31       pc 19   broken.ptx:412       waiting on mbarrier smem 0x600 <bar> for phase parity 0"
has deadlock_mbarrier deadlock "CTA (0,0,0) smem 0x600 <bar>: phase parity 0, arrivals pending 1 of 1, tx-count 0
    waited on by warp 0 lanes 0-31 for phase parity 0
    waited on by warp 1 lanes 0-31 for phase parity 0"
has deadlock_select deadlock "Switched to CTA (0,0,0) warp 1 lanes 0-31 at broken.ptx:412"
has deadlock_register deadlock "%r13 (.b32, warp 1) = 1536 (all 32 lanes)"
has deadlock_no_continue deadlock "The kernel is not running (it has stopped). Use \`run\` to start it again."
status deadlock_exit deadlock 1

# ---- a fault: the faulting warp is selected, the copy is still in flight ---------------
session fault $FAULT <<'EOF'
r
info async
x/4fw smem 0x480
EOF
has fault_report fault "Kernel stopped: fault: data race [copy-not-waited]: "
has fault_report_what fault "reads 4 byte(s) at shared 0x480 of CTA rank 0 that an asynchronous copy writes"
has fault_selects_culprit fault "CTA (0,0,0) warp 1 lanes 0-31 at broken.ptx:249 (pc 28)
249		ld.shared.f32 	%f1, [%r17];"
has fault_async fault "  #1 TMA load, 512 bytes: tensor at global 0x7f0000000000, box at {16, 8} -> smem 0x400 <tile>"
has fault_smem_unwritten fault "smem 0x480 <tile+128>:	0	0	0	0"
status fault_exit fault 1

# ---- calls, loops, watchpoints on instructions, tbreak, set var -----------------------
session calls $CALLS <<'EOF'
b 31
r
next
run
step
info registers
p %t1
finish_is_not_a_command
n 3
n
delete
watch smem acc+12
c
tbreak 42
c
info breakpoints
until
delete
b 48
c
set var %r7[1] = 1000
delete
c
EOF
has next_over_call calls "CTA (0,0,0) warp 0 lanes 0-31 at calls.ptx:32 (pc 4)"
has restart calls "Restarting calls from the beginning (buffers re-initialised)."
has step_into_call calls "CTA (0,0,0) warp 0 lanes 0-31 at calls.ptx:12 (pc 0 in twice)"
has regs_in_callee calls "CTA (0,0,0) warp 0 lane 0, in twice:"
has undefined_command calls 'Undefined command: "finish_is_not_a_command" (try `help`).'
has back_in_caller calls "at calls.ptx:32 (pc 4)
32		ld.param.b32 	%r2, [rv0];"
has tbreak_hit calls "Temporary breakpoint 3, CTA (0,0,0) warp 0 lanes 0-31 at calls.ptx:42 (pc 12)"
has tbreak_deleted calls "Num  Type        Enb  Where
2    watchpoint  y    smem 0x40c (4 bytes, CTA slot 0), hit 1 time"
has until_leaves_loop calls "CTA (0,0,0) warp 0 lanes 0-31 at calls.ptx:43 (pc 13)"
has watch_store calls "Watchpoint 2: smem 0x40c (4 bytes, CTA slot 0)

Old value = 0x00000000 (0)
New value = 0x00000006 (6)"
has set_var calls "%r7[1] (.b32) = 1000"
has verdict_fail calls "FAIL calls: 1 buffer differs
    buffer out differs from calls.out.bin in 2 bytes:
    out+0x84 (132): got 0xe8, want 0x42"
status exit_fail calls 1

# ---- .b128 registers: all 128 bits; a tensor map inside a by-value struct ---------------
# %q1 = {lo 0x1122334455667788, hi 0x99aabbccddeeff00}; %q2's high half
# adds the lane.  The map tm is field struct[1].struct[1] of wide_args
# (param 0x40): a nested {u8, map} at 64, the map 64 bytes into it.
session wide $WIDE <<'EOF'
b STORE
run
p %q1
p %q2
p %q2 3
p/u %q1[0]
p/d %q1[0]
p/o %q1[0]
info registers 3
set var %q2[3] = 0x0123456789abcdef00112233445566ff
set var %q1 = -1
set var %q1[2] = 0x1ffffffffffffffffffffffffffffffff
set var %q1[2] = 5
step
p/x %rd7[3]
p/x %rd6[3]
info tmaps
info tmaps param 0xc0
continue
EOF
has b128_uniform wide "%q1 (.b128, warp 0) = 0x99aabbccddeeff001122334455667788 (all 32 lanes)"
has b128_table wide "%q2 (.b128, warp 0):
  lanes  0-3 : 0x99aabbccddeeff001122334455667788 0x99aabbccddeeff011122334455667788"
has b128_lane wide "%q2[3] (.b128) = 0x99aabbccddeeff031122334455667788"
has b128_unsigned wide "%q1[0] (.b128) = 204258382862869200743700091125539174280"
has b128_signed wide "%q1[0] (.b128) = -136023984058069262719674516306229037176"
has b128_octal wide "%q1[0] (.b128) = 02315253571467367377000104421464212531473610"
has b128_info_registers wide "%q1 = 0x99aabbccddeeff001122334455667788  %q2 = 0x99aabbccddeeff031122334455667788"
has b128_info_registers_zero wide "%q0 = 0x00000000000000000000000000000000"
has b128_set wide "%q2[3] (.b128) = 0x0123456789abcdef00112233445566ff"
has b128_set_negative wide "%q1 (.b128, warp 0) = 0xffffffffffffffffffffffffffffffff (all 32 lanes)"
has b128_set_too_wide wide '"0x1ffffffffffffffffffffffffffffffff" is not a value for a .b128 register (an integer of at most 128 bits).'
has b128_set_clears_high wide "%q1[2] (.b128) = 0x00000000000000000000000000000005"
# the kernel sees what set var wrote: mov.b128 {%rd6, %rd7}, %q2 unpacks it
has b128_set_high_half_runs wide "%rd7[3] (.b64) = 0x123456789abcdef"
has b128_set_low_half_runs wide "%rd6[3] (.b64) = 0x112233445566ff"
has tmap_in_struct wide "tensor map tm: encoded (CUDA_SUCCESS)
  kernel parameter 1 wide_args at byte 128 (params[1].struct[1].struct[1]): param 0xc0 (generic 0x7c00000000c0)
tensor map: tiled, FLOAT32 (32-bit elements), rank 2"
has tmap_in_struct_decodes wide "param 0xc0:
tensor map: tiled, FLOAT32 (32-bit elements), rank 2"
has b128_verdict_sees_set wide "FAIL wide: 1 buffer differs"
session wide_run $WIDE <<'EOF'
run
EOF
has b128_kernel_passes wide_run "PASS wide"

# ---- errors are messages, never crashes ------------------------------------------------
session errors $TILE <<'EOF'
foo
b
b 9999
b nosuch
b other.ptx:59
b *999
delete 77
p
p/z %r1
x/4xw smem 0x400
x/4xw 0x400
x/4qw tensor
x/fb tensor
x/4fw tensor+8188
watch param 0
info nosuch
list 9999
step 0
continue 3
b 59
r
warp 9
warp 1,0,0 0
lane 40
p %nosuch
p %r5 40
x/4xw smem 0xfffffff0
info mbarriers global 0x10
info tmaps smem tile
x/2fw tensor+8
s/x
help zz
q
p %r5
EOF
has err_undefined errors 'Undefined command: "foo" (try `help`).'
has err_break_arg errors "Argument required (a location: LINE, FILE:LINE, FUNCTION, LABEL or *PC)."
has err_break_line errors "No instruction at or after line 9999 of tma_tile2d.ptx."
has err_break_name errors 'No line, function or label named "nosuch".'
has err_break_file errors "No source file named other.ptx (the kernel's source is tma_tile2d.ptx)."
has err_break_pc errors "tma_tile2d has 34 instructions; there is no pc 999."
has err_delete errors "No breakpoint or watchpoint number 77."
has err_print_fmt errors 'Bad format "/z": print takes /x /d /u /o /t /f or /c.'
has err_smem_not_started errors "Cannot read 16 bytes: no CTA is resident (the kernel has not started)."
has err_global_hint errors "global 0x400 is not in any buffer (info launch lists them; for shared memory say \`smem 0x400\`)"
has err_x_letter errors "Bad format letter 'q'"
has err_x_float_byte errors "x/f needs a size of h (f16), w (f32) or g (f64)."
has err_x_past_buffer errors "runs past the end of buffer tensor"
has err_watch_space errors "watch: only shared (smem ADDRESS) and global memory can be watched."
has err_info errors 'Undefined info subcommand "nosuch" (try `info`).'
has err_list errors "Line number 9999 out of range; tma_tile2d.ptx has 91 lines."
has err_count errors '"0" is not a positive count.'
has err_continue_arg errors "continue takes no argument here"
has err_warp errors 'Warp "9" is not 0..3.'
has err_cta errors "CTA (1,0,0) is outside the grid (1,1,1)"
has err_lane errors "Usage: lane N (0..31) | lane auto"
has err_reg errors "No register %nosuch in tma_tile2d"
has err_reg_lane errors "Lane 40 is outside the warp (lanes 0-31)."
has err_smem_range errors "is outside the CTA's shared memory (0x680 bytes, the first 0x400 reserved)."
has err_mbar_space errors "An mbarrier lives in shared memory"
has err_not_a_tmap errors "The 128 bytes at smem 0x400 are not a valid tensor map:"
has x_global_float errors "global 0x7f0000000008 <tensor+8>:	2	3"
has err_step_fmt errors "step takes no /FORMAT."
has err_help errors 'Undefined command "zz" (try `help`).'
lacks quit_stops_reading errors "%r5 (.b32"
status errors_exit errors 0

# ---- gdb's vocabulary: stack, expressions, displays, conditions, commands, scripting ----------
printf 'echo sourced-file-ran\\n\np 40 + 2\n' > "$T/sourced"
session gdb $CALLS <<EOF
break 3
info breakpoints
delete
break twice
run
bt
up
p %r1 + 100
info frame
down
where
finish
p \$pc
p /x %r1 * 16
p/d -5 + 2
p %r1 == 0 && %tid.x < 32
p 7 / 2.0
p \$1 + 1
p (3 + 4) * 2 << 1
p 1 / 0
p %nosuch + 1
display %r2
display/x %r1
next
info display
undisplay 1
next
up
delete
tbreak LOOP if %r6 == 2 && %tid.x == 33
info breakpoints
continue
p %r6
info breakpoints
break 42
condition 4 %r6 == 1
ignore 4 1
commands 4
echo in-commands\\n
p %r6 * 10
end
info breakpoints
run
delete
cuda
cuda thread 40
cuda block 0,0,0 thread 5
cta 0,0,0 1
info threads
echo done-echo\\n
shell echo shell-ran
source $T/sourced
list 40,42
list
finish
EOF
has break_before_first gdb "Breakpoint 1 at calls.ptx:12 (pc 0 of twice)"
has bt_two_frames gdb "* #0  twice (pc 0) at calls.ptx:12
  #1  calls (pc 3) at calls.ptx:31, in the call"
has up_selects_caller gdb "#1  calls (pc 3) at calls.ptx:31, in the call
31		call.uni (rv0), twice, (arg0);"
has caller_register gdb "\$1 = 100"
has info_frame gdb "Stack level 1 of lane 0 (warp 0), frame of calls:"
has where_after_down gdb "* #0  twice (pc 0)"
has finish_returns gdb "Run till exit from #0 twice
CTA (0,0,0) warp 0 lanes 0-31 at calls.ptx:32 (pc 4)
32		ld.param.b32 	%r2, [rv0];
Value returned is \$2 = 0"
has print_pc gdb "\$3 = 4"
has print_hex_space gdb "\$4 = 0x0"
has print_signed gdb "\$5 = -3"
has print_logic gdb "\$6 = 1"
has print_float gdb "\$7 = 3.5"
has print_history gdb "\$8 = 101"
has print_shift gdb "\$9 = 28"
has print_div_zero gdb "division by zero."
has print_no_reg gdb "no register %nosuch in the function lane 0 runs."
has display_shows gdb "1: %r2 = 0"
has display_after_next gdb "34		shl.b32 	%r3, %r1, 2;
1: %r2 = 0"
has info_display gdb "1   y   %r2
2   y   /x %r1"
has up_outermost gdb "Initial frame selected; you cannot go up (lane 0 has 1 frame)."
has tbreak_cond gdb "Temporary breakpoint 3 at calls.ptx:40 (pc 10 of calls), if %r6 == 2 && %tid.x == 33"
has cond_stop gdb "Temporary breakpoint 3, CTA (0,0,0) warp 1 lanes 0-31 at calls.ptx:40 (pc 10)"
has cond_lane gdb "(the condition holds in lane 1, now selected)"
has cond_value gdb "%r6 (.b32, warp 1) = 2 (all 32 lanes)"
lacks tbreak_deleted gdb "3    tbreakpoint y    calls.ptx:40 (pc 10 of calls), hit"
has condition_set gdb "Breakpoint 4 stops only if %r6 == 1."
has ignore_set gdb "Will ignore next 1 crossing of breakpoint 4."
has info_cond gdb "        stop only if %r6 == 1
        will ignore next 1 crossing"
has info_commands gdb "        echo in-commands\n
        p %r6 * 10"
has commands_ran gdb "Breakpoint 4, CTA (0,0,0) warp 1 lanes 0-31 at calls.ptx:42 (pc 12)
42		@%p1 bra 	LOOP;
(the condition holds in lane 0, now selected)
2: /x %r1 = 0x20
in-commands
\$10 = 10"
has cuda_focus gdb "kernel calls, block (0,0,0), thread (32,0,0), warp 1, lane 0"
has cuda_thread gdb "[Switching focus to CUDA kernel calls, block (0,0,0), thread (40,0,0): warp 1 lane 8]"
has cuda_block_thread gdb "thread (5,0,0): warp 0 lane 5]"
has cta_warp gdb "thread (32,0,0): warp 1 lane 0]"
has info_threads gdb "* warp 1"
has echo gdb "done-echo"
has shell gdb "shell-ran"
has source_file gdb "sourced-file-ran
\$11 = 42"
has list_range gdb "   40		add.s32 	%r6, %r6, 1;
   41		setp.lt.u32 	%p1, %r6, 3;"
has list_continues gdb "   43		bar.sync 	0;"
has finish_outermost gdb '"finish" not meaningful in the outermost frame'

# cuda-gdb's info cuda views
session infocuda $CALLS <<'EOF'
info cuda kernels
info cuda threads
b LOOP
run
info cuda blocks
info cuda threads
info cuda lanes
info cuda bogus
EOF
has info_cuda_kernels infocuda "* 0      calls     (1,1,1) (64,1,1) (1,1,1) not started"
has info_cuda_not_resident infocuda "No CTA is resident (use \`run\` first)."
has info_cuda_blocks infocuda "* (0,0,0) 0     2      running"
has info_cuda_threads infocuda "* (0,0,0) (0,0,0) -> (31,0,0) 0     0-31     32  10    calls.ptx:40         ready
  (0,0,0) (32,0,0) -> (63,0,0) 1     0-31     32  0     calls.ptx:25         ready"
has info_cuda_usage infocuda "Usage: info cuda kernels|blocks|warps|lanes|threads"

# advance leaves no temporary breakpoint behind when something else stops first
session advance $CALLS <<'EOF'
break LOOP
run
delete
break 42
advance 46
info breakpoints
EOF
has advance_stopped_elsewhere advance "Breakpoint 2, CTA (0,0,0) warp 0 lanes 0-31 at calls.ptx:42"
lacks advance_no_leftover advance "tbreakpoint"

# a waiting warp: list/disas mark the instruction it waits at (the stop report's line)
session waiting $TILE <<'EOF'
b 59
run
step
list
disas
EOF
has waiting_report waiting "waiting at barrier 0 (bar.sync)"
has waiting_list_marker waiting "=> 59		bar.sync 	0;"
has waiting_disas_marker waiting "=>*   15  59    bar.sync 0;"

# typed watchpoints: floats, an mbarrier decoded; outside shared memory refused
session typed $TILE <<'EOF'
watch smem 0x100000 4
b 59
run
watch/f smem tile 8
watch smem bar 8
delete 1
x/xg bar
continue
x/2fw tile
x/2f tile
EOF
has x_mbarrier_decoded typed "smem 0x600 <bar>:	0x4002000000100000
  smem 0x600 <bar>: mbarrier phase parity 0, 0 of 1 arrivals pending, tx-count 512"
has watch_outside typed "watch: smem 0x100000 + 4 bytes is outside the CTA's shared memory (0x400..0x680; the first KiB is reserved)."
has watch_floats typed "Old value = 0 0
New value = 816 817"
has watch_mbarrier typed "Old value = mbarrier phase parity 0, 0 of 1 arrivals pending, tx-count 512 (0x4002000000100000)
New value = mbarrier phase parity 1, 1 of 1 arrivals pending, tx-count 0"
has x_float_words typed "smem 0x400 <tile>:	816	817"

# a large grid: a condition on %ctaid stops in CTA 200 only; focus runs until a CTA is resident
session large tests/launch/lineinfo/large.json <<'EOF'
break lineinfo.cu:17 if %ctaid.x == 200 && %tid.x == 37
run
p %ctaid.x
delete
warp 230,0,0 1
cta 240
cta 3,0,0
cta 999
EOF
has large_cond_stop large "Breakpoint 1, CTA (200,0,0) warp 1 lanes 0-31 at lineinfo.ptx:118 (lineinfo.cu:17) (pc 39)"
has large_cond_lane large "(the condition holds in lane 5, now selected)"
has large_ctaid large "%ctaid.x (warp 1) = 200 (all 32 lanes)"
has large_warp_focus large "Running until CTA (230,0,0) is resident..."
has large_warp_selected large "Switched to CTA (230,0,0) warp 1"
has large_cta_focus large "[Switching focus to CUDA kernel scale, block (240,0,0), thread (0,0,0): warp 0 lane 0]"
has large_cta_done large "CTA (3,0,0) has already run to its end"
has large_cta_outside large "CTA (999,0,0) is outside the grid (256,1,1)."

# a launch error: focus and symbols do not crash the debugger; the error is the verdict
session badcluster tests/launch/debug/badcluster.json <<'EOF'
cta 0,0,0
run
bt
info threads
EOF
has launch_error_reported badcluster "Kernel stopped: launch error: grid (1,1,1) is not a multiple of the cluster (3,1,1)"
has launch_error_no_stack badcluster "No stack: the kernel has exited."
status launch_error_exit badcluster 0

# ---- command line ---------------------------------------------------------------------------
"$PTXI" debug $TILE -ex 'b 59' -ex run -ex 'info async' --batch > "$T/batch.out" 2>&1; echo $? > "$T/batch.rc"
has batch_ex batch "#1 TMA load, 512 bytes"
lacks batch_no_banner batch "help\` lists the commands"
status batch_exit batch 0
printf 'b 59\nr\n' > "$T/cmds"
printf 'info async\n' | "$PTXI" debug $TILE -x "$T/cmds" --echo > "$T/xfile.out" 2>&1; echo $? > "$T/xfile.rc"
has x_file_then_stdin xfile "(ptxi) b 59
Breakpoint 1 at tma_tile2d.ptx:59 (pc 15 of tma_tile2d)
(ptxi) r"
has stdin_after_x xfile "(ptxi) info async
1 asynchronous operation in flight"
printf 'c\n' | "$PTXI" debug --filter tight tests/launch/async/cases.jsonl > "$T/filter.out" 2>&1; echo $? > "$T/filter.rc"
has filter_case filter "PASS poll_bound_tight"
status filter_exit filter 0
"$PTXI" debug tests/launch/async/cases.jsonl < /dev/null > "$T/many.out" 2>&1; echo $? > "$T/many.rc"
has many_cases many "holds 2 cases; pick one with --filter NAME: poll_bound_tight poll_token_bulk"
status many_exit many 2
"$PTXI" debug --filter nothing tests/launch/async/cases.jsonl < /dev/null > "$T/nomatch.out" 2>&1; echo $? > "$T/nomatch.rc"
has filter_no_match nomatch 'no case of tests/launch/async/cases.jsonl has a name containing "nothing"'
"$PTXI" debug samples/tma_tile2d.ptx < /dev/null > "$T/ptx.out" 2>&1; echo $? > "$T/ptx.rc"
has ptx_input ptx "give a launch file"
status ptx_exit ptx 2
"$PTXI" debug $TILE --bogus < /dev/null > "$T/opt.out" 2>&1; echo $? > "$T/opt.rc"
has unknown_option opt "ptxi debug: unknown option '--bogus'"
status unknown_option_exit opt 2
printf 'help\n' | "$PTXI" debug $TILE > "$T/help.out" 2>&1; echo $? > "$T/help.rc"
for c in "run, r" "continue, c" "step, s" "next, n" "stepi, si" "finish, fin" "break, b" "tbreak" "condition" \
         "ignore" "commands" "watch" "delete, d" "disable" "info, i" "warp" "cta" "cuda" "backtrace, bt" "where" \
         "frame, f" "up" "down" "list, l" "print, p" "x " "display" "undisplay" "echo" "shell" "source" "quit, q"; do
    has "help_lists_${c%%,*}" help "  $c"
done
status eof_quits help 0
