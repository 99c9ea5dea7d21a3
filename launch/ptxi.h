/* ptxi.h — ptxi as a library: run PTX kernels on the CPU, bit-exact with an
 * H100 for the tensor-memory instructions.
 *
 * The whole public C API.  Link with `pkg-config --cflags --libs ptxi`
 * (libptxi.so or libptxi.a).  Every name begins with ptxi_ / PTXI_;
 * handles are opaque.  Functions that can fail return a ptxi_status and
 * leave a message on their handle: ptxi_module_errmsg(), ptxi_launch_errmsg().
 *
 *   ptxi_module *m;
 *   if (ptxi_module_load("k.ptx", &m) != PTXI_OK) { puts(ptxi_module_errmsg(m)); ... }
 *   ptxi_launch *l = ptxi_launch_new(m, "saxpy");
 *   unsigned grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
 *   ptxi_launch_shape(l, grid, block, NULL, 0);
 *   ptxi_launch_buffer(l, "x", sizeof x, x);         // device buffer from host bytes
 *   ptxi_launch_buffer(l, "y", sizeof y, y);
 *   ptxi_launch_param(l, "s32", 1000);               // parameters in .param order
 *   ptxi_launch_param_f32(l, 2.0f);
 *   ptxi_launch_param_pointer(l, "x", 0);
 *   ptxi_launch_param_pointer(l, "y", 0);
 *   if (ptxi_launch_run(l) != PTXI_OK) puts(ptxi_launch_report(l));
 *   ptxi_launch_read(l, "y", y, sizeof y);           // the buffer after the run
 *   ptxi_launch_free(l); ptxi_module_free(m);
 *
 * Thread safety: distinct handles may be used from distinct threads; one
 * handle from one thread at a time, except ptxi_launch_interrupt().
 */
#ifndef PTXI_H
#define PTXI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libptxi.so exports these names only (the library is built with
 * -fvisibility=hidden). */
#if defined(__GNUC__) && !defined(PTXI_STATIC_HIDDEN)
#define PTXI_API __attribute__((visibility("default")))
#else
#define PTXI_API
#endif

#define PTXI_VERSION "0.1.0"
#define PTXI_VERSION_NUMBER 1000   /* major * 1000000 + minor * 1000 + patch */

/* The library's version ("0.1.0"); may differ from the header's PTXI_VERSION. */
PTXI_API const char *ptxi_version(void);

typedef enum ptxi_status {
    PTXI_OK = 0,            /* success; after a run: the kernel ran to completion
                               and every expectation held */
    PTXI_ERROR,             /* bad argument or input (PTX that does not parse, an
                               unknown buffer, a bad tensor map...): see the errmsg */
    PTXI_NOMEM,             /* out of memory */
    PTXI_FAIL,              /* ran to completion, but an expectation of a launch
                               file failed (buffer bytes, encode status) */
    PTXI_FAULT,             /* the kernel stopped: memory or mbarrier rule broken */
    PTXI_DEADLOCK,          /* every thread waits and nothing can wake one */
    PTXI_UNSUPPORTED,       /* an instruction or form ptxi does not execute */
    PTXI_TRAP,              /* trap / brkpt */
    PTXI_LAUNCH_ERROR,      /* bad launch: shape beyond CUDA's limits, shared memory,
                               parameter block */
    PTXI_STEP_LIMIT,        /* more warp instructions than ptxi_launch_limits allows */
    PTXI_INTERRUPTED        /* the time limit, or ptxi_launch_interrupt() */
} ptxi_status;

/* "ok", "error", "nomem", "fail", "fault", "deadlock", "unsupported",
 * "trap", "launch_error", "step_limit", "interrupted". */
PTXI_API const char *ptxi_status_name(int status);

/* ---- modules --------------------------------------------------------------- */

typedef struct ptxi_module ptxi_module;

/* Parse and validate a .ptx file (ptxi_module_load) or PTX text
 * (ptxi_module_load_text; `name` is used in messages).  *out is set even
 * on PTXI_ERROR, so that ptxi_module_errmsg() can give the diagnostics
 * (file:line:col each); free it with ptxi_module_free().  *out is NULL
 * only with PTXI_NOMEM. */
PTXI_API int ptxi_module_load(const char *path, ptxi_module **out);
PTXI_API int ptxi_module_load_text(const char *text, const char *name, ptxi_module **out);
PTXI_API const char *ptxi_module_errmsg(const ptxi_module *m);   /* "" when none */
/* Kernel entries: ptxi_module_entry(m, i) for i < ptxi_module_nentries(m). */
PTXI_API int ptxi_module_nentries(const ptxi_module *m);
PTXI_API const char *ptxi_module_entry(const ptxi_module *m, int i);
/* Parameters of entry `kernel`: their count (-1: no such entry), and the
 * i-th one's PTX type ("u32", "f32", "b64", "b8" for a byte array) and size
 * in bytes (a tensor map by value is "b8", 128).  `is_ptr` is set for a
 * .ptr parameter.  Returns PTXI_ERROR when out of range. */
PTXI_API int ptxi_module_nparams(const ptxi_module *m, const char *kernel);
PTXI_API int ptxi_module_param(const ptxi_module *m, const char *kernel, int i, const char **type,
                               uint64_t *bytes, int *is_ptr);
PTXI_API void ptxi_module_free(ptxi_module *m);

/* ---- launches -------------------------------------------------------------- */

typedef struct ptxi_launch ptxi_launch;

/* A launch of entry `kernel` of `m` (which must outlive it): grid, block
 * and cluster {1,1,1}, no buffers, no parameters.  NULL only when out of
 * memory.  An unknown kernel is reported by ptxi_launch_run. */
PTXI_API ptxi_launch *ptxi_launch_new(ptxi_module *m, const char *kernel);
/* Case `index` (0-based) of a launch file (ptxi-launch/1, .json or .jsonl):
 * its module, buffers, tensor maps, parameters and expectations.  *out is
 * set even on PTXI_ERROR (for the message), NULL only with PTXI_NOMEM. */
PTXI_API int ptxi_launch_from_file(const char *path, size_t index, ptxi_launch **out);
/* Number of cases in a launch file, or -1 (errno set) if unreadable. */
PTXI_API long ptxi_launch_file_count(const char *path);

/* A whole launch file read once: its cases as launch handles, which the
 * file owns (do not ptxi_launch_free them).  A line that cannot be read
 * (JSON syntax, an unknown key) is a case too: ptxi_launch_broken() is 1,
 * its errmsg says why with the JSON path, and running it fails.  *out is
 * set even on PTXI_ERROR (unreadable or empty file; the errmsg), NULL only
 * with PTXI_NOMEM.  Modules named by several cases are parsed once per
 * process. */
typedef struct ptxi_file ptxi_file;
PTXI_API int ptxi_file_open(const char *path, ptxi_file **out);
PTXI_API const char *ptxi_file_errmsg(const ptxi_file *f);
PTXI_API size_t ptxi_file_count(const ptxi_file *f);
PTXI_API ptxi_launch *ptxi_file_launch(ptxi_file *f, size_t i);
/* 1 if the file's first object declares "format": "ptxi-launch/..." */
PTXI_API int ptxi_file_is_launch(const char *path);
PTXI_API void ptxi_file_close(ptxi_file *f);

/* The case's name and where it comes from ("cases.jsonl:12", or "api"). */
PTXI_API const char *ptxi_launch_name(const ptxi_launch *l);
PTXI_API const char *ptxi_launch_origin(const ptxi_launch *l);
PTXI_API int ptxi_launch_broken(const ptxi_launch *l);
PTXI_API void ptxi_launch_free(ptxi_launch *l);

/* Launch shape; cluster may be NULL ({1,1,1}, or the entry's
 * .reqnctapercluster).  Shapes beyond CUDA's limits are refused at run
 * time (PTXI_LAUNCH_ERROR) with the limit named. */
PTXI_API int ptxi_launch_shape(ptxi_launch *l, const unsigned grid[3], const unsigned block[3],
                      const unsigned cluster[3], unsigned dynamic_shared_bytes);

/* A device buffer of `bytes` bytes (256-byte aligned), initialised from
 * `data` (copied now; NULL = zeros).  Buffers are allocated in the order
 * given. */
PTXI_API int ptxi_launch_buffer(ptxi_launch *l, const char *name, uint64_t bytes, const void *data);

/* A tensor map, given as the JSON object of a launch file's "tensor_maps"
 * entry (the driver's cuTensorMapEncode* arguments; "global_address"
 * names a buffer added before).  Encoded at run time; an encode failure
 * makes the run return PTXI_ERROR with the driver's rule in the errmsg. */
PTXI_API int ptxi_launch_tensor_map(ptxi_launch *l, const char *json);

/* Parameters, in the order of the entry's .param list.  `type` is one of
 * u8 u16 u32 u64 s8 s16 s32 s64 (value: the integer, two's complement) or
 * f32 f64 (value: the IEEE bits; see the _f32/_f64 helpers). */
PTXI_API int ptxi_launch_param(ptxi_launch *l, const char *type, uint64_t value);
PTXI_API int ptxi_launch_param_f32(ptxi_launch *l, float value);
PTXI_API int ptxi_launch_param_f64(ptxi_launch *l, double value);
PTXI_API int ptxi_launch_param_pointer(ptxi_launch *l, const char *buffer, uint64_t offset);
PTXI_API int ptxi_launch_param_tensor_map(ptxi_launch *l, const char *tensor_map);
/* Any parameter as a launch file writes it, e.g. a by-value struct:
 * {"struct": [{"u32": 5}, {"pad": 4}, {"pointer": "x"}]}. */
PTXI_API int ptxi_launch_param_json(ptxi_launch *l, const char *json);

/* The command line's forms (what `ptxi run` takes): `what` "buffer"
 * (NAME:BYTES[:fill=N|:hash32=SEED|:file=PATH][:align=N]), "param"
 * (TYPE:VALUE, ptr:BUF[+OFF], struct:F,F,...) or "expect" (NAME=FILE: the
 * buffer must equal FILE afterwards).  Pointer names are checked by
 * ptxi_launch_check (buffers may come later). */
PTXI_API int ptxi_launch_spec(ptxi_launch *l, const char *what, const char *spec);
PTXI_API int ptxi_launch_check(ptxi_launch *l);

/* Options, by name (value as text):
 *   "ptx"          PATH: the module (parsed once per process), for a launch
 *                  made with a NULL module
 *   "jobs"         N: interpreter threads over clusters (default 1)
 *   "complete"     eager | deferred | random[:SEED]: when async copies land
 *   "check"        full | none: the happens-before checker (default full)
 *   "contract"     on | off: fuse each multiply and the add after it into
 *                  one fma where ptxas does (default on, as the GPU runs
 *                  the kernel); off rounds every PTX instruction on its own
 *   "max-steps", "timeout"   as ptxi_launch_limits
 *   "update"       1: write a launch file's expected buffers from this run
 *   "quiet"        1: a passing report is the PASS line alone
 *   "keep-failed"  DIR: failing buffers' bytes (.bin, .npy when typed)
 *   "dump"         NAME[:DTYPE[:SHAPE]]=FILE: write a buffer after each run
 *                  (FILE.npy, FILE.svg / FILE.png: a heat map, raw, or "-":
 *                  its values into the report)
 *   "trace"        FILE.json: write a Chrome/Perfetto timeline of each run
 *                  (warps, copies, mbarrier phases; one host thread); "" none
 *   "keep-memory"  0: free the device memory after a run (no ptxi_launch_read)
 * PTXI_ERROR for an unknown name or a bad value (the errmsg says which). */
PTXI_API int ptxi_launch_option(ptxi_launch *l, const char *name, const char *value);

/* Limits: warp instructions (0 = none) and seconds of wall time (0 =
 * none).  Defaults: 4e9 instructions, 600 s, so that a runaway kernel
 * stops.  Either stop returns PTXI_STEP_LIMIT / PTXI_INTERRUPTED, with a
 * report of where every warp is. */
PTXI_API int ptxi_launch_limits(ptxi_launch *l, uint64_t max_steps, double timeout_seconds);
/* Stop a run in progress (from another thread or a signal handler). */
PTXI_API void ptxi_launch_interrupt(ptxi_launch *l);

/* Run the kernel (again: buffers start over from their initial contents).
 * Returns PTXI_OK or why it stopped or failed. */
PTXI_API int ptxi_launch_run(ptxi_launch *l);
/* Stepping instead of running: ptxi_launch_start sets the launch up
 * (buffers, tensor maps, parameters) without executing anything;
 * ptxi_launch_step then executes up to `steps` warp instructions (one host
 * thread, the scheduler's order) and returns PTXI_OK with *done = 0 while
 * the kernel has not ended, or how it ended with *done = 1 (PTXI_OK when
 * every thread exited).  ptxi_launch_read works between steps; the report
 * says where a stop happened.  A launch file's expectations are checked by
 * ptxi_launch_run only. */
PTXI_API int ptxi_launch_start(ptxi_launch *l);
PTXI_API int ptxi_launch_step(ptxi_launch *l, uint64_t steps, int *done);

/* The last run's report: "PASS name" or "FAIL name: why", details (where
 * a fault happened, every warp's place, differing elements) and the
 * kernel's printf lines indented below.  "" before any run. */
PTXI_API const char *ptxi_launch_report(const ptxi_launch *l);
/* The message of the last failed call (or the report's first line). */
PTXI_API const char *ptxi_launch_errmsg(const ptxi_launch *l);
/* Warp instructions the last run executed. */
PTXI_API uint64_t ptxi_launch_steps(const ptxi_launch *l);
/* The last run: thread instructions (per warp instruction, the lanes that
 * issued it) and wall time of the execution in nanoseconds; clusters
 * started so far (readable from another thread while it runs). */
PTXI_API void ptxi_launch_stats(const ptxi_launch *l, uint64_t *thread_instrs, uint64_t *wall_ns);
PTXI_API uint64_t ptxi_launch_progress(const ptxi_launch *l);

/* After a run: copy up to `bytes` bytes of a buffer out; returns
 * PTXI_ERROR for an unknown buffer or before a run. */
PTXI_API int ptxi_launch_read(const ptxi_launch *l, const char *buffer, void *dst, uint64_t bytes);
/* A buffer's size in bytes, or 0 if there is none by that name. */
PTXI_API uint64_t ptxi_launch_buffer_size(const ptxi_launch *l, const char *buffer);
/* Buffers: ptxi_launch_buffer_name(l, i) for i < ptxi_launch_nbuffers(l). */
PTXI_API int ptxi_launch_nbuffers(const ptxi_launch *l);
PTXI_API const char *ptxi_launch_buffer_name(const ptxi_launch *l, int i);

#ifdef __cplusplus
}
#endif
#endif
