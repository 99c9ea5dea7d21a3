/* launch.h — ptxi-launch/1 launch descriptions (../shared/conformance/FORMAT.md).
 *
 * A launch_case is one launch object, read and checked for shape (every key
 * path in an error message, e.g. "tensor_maps[2].box_dim: ...") but not yet
 * run.  Running one takes four steps, each a function below, so that
 * `ptxi run`, `ptxi test`, `ptxi debug`, the public API (ptxi.h) and the
 * unit tests share them:
 *
 *   launch_setup()        allocate and initialise the buffers in global
 *                         memory, encode the tensor maps (their statuses are
 *                         kept for `expect.encode`), write map images into
 *                         buffers that ask for them;
 *   launch_build_params() lay the parameters out as the entry's .param list
 *                         declares them (count, size and pointer alignment
 *                         checked, with the parameter named);
 *   (the interpreter runs the kernel: launch_run_case, launch/run.c)
 *   launch_check_buffer() compare a buffer with its expected file, printing
 *                         the first differences, in tensor coordinates when a
 *                         tensor map of the case describes that buffer.
 *
 * Cases built from the command line (`ptxi run k.ptx --buffer ...`) fill the
 * same structure by hand.  Everything a case owns is freed by launch_free().
 */
#ifndef PTXI_LAUNCH_H
#define PTXI_LAUNCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include "memory/mem.h"
#include "tma/tma.h"
#include "ir/ir.h"

enum { LAUNCH_INIT_ZERO = 0, LAUNCH_INIT_FILL, LAUNCH_INIT_HASH32, LAUNCH_INIT_FILE, LAUNCH_INIT_TMAPS,
       LAUNCH_INIT_DATA   /* bytes given by a program (the public API): `data` */ };

typedef struct launch_buffer {
    char *name;
    uint64_t bytes, align;
    int init;              /* LAUNCH_INIT_* */
    uint64_t value;        /* fill byte or hash32 seed */
    uint32_t hash_clear;   /* hash32: bits cleared in every word (~"and") */
    uint32_t hash_set;     /* hash32: bits set in every word ("or") */
    char *file;            /* LAUNCH_INIT_FILE: resolved path */
    char **tmaps;          /* LAUNCH_INIT_TMAPS: map names */
    size_t ntmaps;
    uint8_t *data;         /* LAUNCH_INIT_DATA: `bytes` bytes, owned */
    char dtype[8];         /* "f32", ... (the --dump names) or "" = bytes */
    uint64_t shape[5];     /* numpy order, outermost first; ndim 0 = flat */
    int ndim;
    uint64_t addr;         /* device address once allocated */
} launch_buffer;

typedef struct launch_tmap {
    char *name;
    int encode;            /* TMA_MAP_TILED / _IM2COL / _IM2COL_WIDE */
    int data_type, interleave, swizzle, l2_promotion, oob_fill, mode;
    uint32_t rank;
    char *buffer;          /* global_address: {"buffer", "offset"}; NULL = absolute */
    uint64_t offset;       /* offset into buffer, or the absolute address */
    uint64_t global_dim[5], global_strides[5];  /* strides: rank-1 entries */
    uint32_t box_dim[5], element_strides[5];
    int lower[3], upper[3];          /* im2col corners, rank-2 entries */
    int lower_w, upper_w;            /* im2col_wide */
    uint32_t channels_per_pixel, pixels_per_column;
    /* After launch_setup: */
    int status;            /* TMA_SUCCESS / TMA_ERROR_INVALID_VALUE, -2 = not encoded */
    char why[256];
    uint8_t map[128];
} launch_tmap;

enum {
    LAUNCH_P_U8 = 1, LAUNCH_P_U16, LAUNCH_P_U32, LAUNCH_P_U64,
    LAUNCH_P_S8, LAUNCH_P_S16, LAUNCH_P_S32, LAUNCH_P_S64,
    LAUNCH_P_F32, LAUNCH_P_F64, LAUNCH_P_POINTER, LAUNCH_P_TMAP,
    LAUNCH_P_STRUCT,       /* a by-value struct: `fields` laid out as C does */
    LAUNCH_P_PAD           /* inside a struct: `bits` bytes of zeros */
};
typedef struct launch_param {
    int kind;              /* LAUNCH_P_* */
    uint64_t bits;         /* scalar value, little-endian in `size` bytes; pad: its length */
    char *ref;             /* buffer (pointer) or tensor map name */
    uint64_t offset;       /* pointer offset */
    struct launch_param *fields;  /* LAUNCH_P_STRUCT, in order */
    size_t nfields;
} launch_param;
/* Bytes of a scalar, pointer or tensor-map kind (128 for a map; 0 for a
 * struct or pad, whose size depends on the fields) and its key name. */
uint32_t launch_param_size(int kind);
const char *launch_param_kind_name(int kind);
/* Free what a parameter owns (its name, a struct's fields), not `p` itself. */
void launch_param_free(launch_param *p);

typedef struct launch_expect_buf {
    char *name;
    char *file;            /* resolved path; NULL = only read back (oracle) */
    char *file_rel;        /* as written in the launch file */
    uint64_t (*ignore)[2]; /* [offset, length] byte ranges */
    size_t nignore;
    int has_sha256;        /* "sha256": the buffer's digest must equal this */
    uint8_t sha256[32];
    double atol, rtol;     /* element passes if |got - want| <= atol + rtol * |want| */
    uint64_t ulp;          /* ... or (floats) they are at most `ulp` units in the last place apart */
    bool has_tol;
} launch_expect_buf;

typedef struct launch_case {
    char *name;
    char *origin;          /* "file.jsonl:12" for messages */
    char *dir;             /* directory paths are relative to */
    char *ptx;             /* resolved path; NULL for encode-only cases */
    char *kernel;
    uint32_t grid[3], block[3], cluster[3];
    uint32_t dyn_smem;
    launch_buffer *buffers; size_t nbuffers;
    launch_tmap *tmaps;     size_t ntmaps;
    launch_param *params;   size_t nparams;
    bool has_params;
    /* expect */
    int *expect_encode;     /* per tmap: -1 none, else TMA_SUCCESS / TMA_ERROR_INVALID_VALUE */
    launch_expect_buf *expect_bufs; size_t nexpect_bufs;
    char *expect_launch;    /* "CUDA_ERROR_..." or a stop kind ("deadlock"), or NULL */
    int expect_stop;        /* LAUNCH_STOP_* or an INTERP_* status (interp/interp.h) */
    char *expect_message;   /* expect.launch.message: a substring of the report, or NULL */
    char *broken;           /* launch_read_file_all: why this line could not be read (the case fails) */
} launch_case;

/* expect.launch kinds beyond the interpreter's statuses. */
enum {
    LAUNCH_STOP_ANY_FAULT = -1,   /* a CUDA_ERROR_* name: fault, trap or launch error */
    LAUNCH_STOP_RACE = -2         /* a fault reported as a race ("fault: data race ...") */
};

/* ---- reading ------------------------------------------------------------ */

/* Fill `c` from one launch object.  `dir` resolves relative paths, `origin`
 * prefixes messages.  On error returns -1 with `err` = "KEY.PATH: what". */
struct json_t;
int launch_from_json(const struct json_t *obj, const char *dir, const char *origin,
                     launch_case *c, char *err, size_t errlen);
/* Read a .json (one object) or .jsonl (one per non-blank line) file.  On
 * success *cases and *n hold the cases (launch_free_all).  On error returns -1
 * with `err` = "file:line:col: ..." (JSON syntax) or "file:line: PATH: ...". */
int launch_read_file(const char *path, launch_case **cases, size_t *n, char *err, size_t errlen);
/* The same, but a line that cannot be read (JSON syntax, a bad key) becomes
 * a case with `broken` set (its message as above), so that it fails alone
 * and every other line still runs; -1 only for an unreadable or empty file. */
int launch_read_file_all(const char *path, launch_case **cases, size_t *n, char *err, size_t errlen);
/* True if the file's first object declares "format": "ptxi-launch/..."
 * (directory scans skip other .jsonl files, e.g. driver_tensormaps.jsonl). */
bool launch_file_is_launch(const char *path);
/* Append one entry, given as JSON text, to a case built by a program:
 * `section` "tensor_maps" (a map object) or "params" (a parameter object),
 * read and checked exactly as in a launch file. */
int launch_add_json(launch_case *c, const char *section, const char *json, char *err, size_t errlen);
void launch_free(launch_case *c);
void launch_free_all(launch_case *cases, size_t n);

/* ---- running -------------------------------------------------------------- */

/* FORMAT.md's hash32 initialiser: word w holds h(w * 0x9E3779B9 ^ seed). */
uint32_t launch_hash32(uint32_t word, uint32_t seed);
void launch_fill_hash32(uint8_t *p, uint64_t bytes, uint32_t seed);
/* The same words, each (h & ~clear) | set: the launch file's "and"/"or". */
void launch_fill_hash32_masked(uint8_t *p, uint64_t bytes, uint32_t seed, uint32_t clear, uint32_t set);

/* Allocate and initialise every buffer in `g` (in order), encode the tensor
 * maps, write map images into buffers.  Encode failures are not errors here
 * (they land in tmaps[i].status); returns -1 with `err` only for a launch
 * that cannot be set up (unreadable or wrong-sized file, out of memory,
 * a map's buffer unknown). */
int launch_setup(launch_case *c, mem_global *g, char *err, size_t errlen);
const launch_buffer *launch_find_buffer(const launch_case *c, const char *name);
const launch_tmap *launch_find_tmap(const launch_case *c, const char *name);

/* Build the parameter block for entry `fn` of `m` (after launch_setup).
 * *out is malloc'ed (free it), *size its length.  Returns -1 with `err`
 * naming the parameter on a count/size/alignment mismatch. */
int launch_build_params(const launch_case *c, const ir_module *m, const ir_function *fn,
                        uint8_t **out, uint32_t *size, char *err, size_t errlen);

/* The scalar, pointer and tensor-map fields of by-value struct `lp` (at
 * JSON path `path`, e.g. "params[2]"), nested structs' included, where
 * launch_build_params puts them: visit(field, its JSON path
 * "params[2].struct[1]", its byte offset from the struct's start, arg) in
 * order.  Returns the offset where the last field ends. */
typedef void launch_field_fn(const launch_param *f, const char *path, uint64_t off, void *arg);
uint64_t launch_struct_fields(const launch_param *lp, const char *path, launch_field_fn *visit, void *arg);

/* Compare `got` (n bytes of buffer `name`) with the expected bytes `want`
 * (wn bytes), skipping ignored ranges.  Returns the number of differing
 * bytes (a size mismatch counts as one); on a difference writes a
 * description to `out`: up to 8 offsets with got/want, and the tensor
 * coordinates of the first one when a map of the case describes the buffer. */
/* 1 (and a line on `out`) when e has a "sha256" that the n bytes at got do
 * not hash to; 0 otherwise. */
int launch_check_sha256(const launch_expect_buf *e, const uint8_t *got, uint64_t n, FILE *out);
uint64_t launch_compare(const launch_case *c, const launch_expect_buf *e,
                        const uint8_t *got, uint64_t n, const uint8_t *want, uint64_t wn,
                        FILE *out);

/* ---- dumps (launch/npy.c) -------------------------------------------------------
 * Element types of `--dump NAME:DTYPE...`: u8 s8 u16 s16 u32 s32 u64 s64 f16
 * bf16 f32 f64 (bf16 is stored in .npy as <u2: numpy has no bfloat16). */
unsigned launch_dtype_size(const char *dtype);   /* bytes, 0 if unknown */
/* Write a NumPy .npy (format 1.0, C order).  shape/ndim may be 0/NULL for
 * 1-D.  Returns -1 (err set) when the shape does not cover `bytes`. */
int launch_write_npy(FILE *f, const char *dtype, const uint64_t *shape, int ndim, const uint8_t *data,
                     uint64_t bytes, char *err, size_t errlen);
/* Print the values as text, 8 per line with their byte offset (u8: hex). */
void launch_print_values(FILE *f, const char *dtype, const uint8_t *data, uint64_t bytes);

/* Typed values (the dtypes above). */
int launch_dtype_kind(const char *dtype);                 /* 'u', 's', 'f'; 0 if unknown */
double launch_elem_value(const char *dtype, const uint8_t *d, uint64_t i);
uint64_t launch_elem_ulps(const char *dtype, const uint8_t *a, const uint8_t *b, uint64_t i);
void launch_format_elem(char *buf, size_t n, const char *dtype, const uint8_t *d, uint64_t i);
/* Parse a .npy file's header (format 1.0 to 3.0, C order, little-endian
 * scalar dtypes): its dtype name, shape, and where the data starts. */
int launch_read_npy(const uint8_t *file, uint64_t len, const char **dtype, uint64_t *shape, int *ndim,
                    uint64_t *data_off, char *err, size_t errlen);
/* A buffer's contents from a file: a .npy's data (checked against the
 * buffer's dtype when it has one), else the raw bytes.  NULL with `err`
 * on failure; *len the data's length. */
uint8_t *launch_load_data(const char *path, const char *want_dtype, uint64_t *len, char *err, size_t errlen);

/* Read a whole file; NULL with errno set on failure. */
uint8_t *launch_slurp(const char *path, uint64_t *len);

/* Growing text (verdicts and reports). */
typedef struct launch_text { char *buf; size_t len, cap; } launch_text;
void launch_tprintf(launch_text *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- launches from the command line (launch/spec.c) ------------------------- */

/* Append a buffer, a parameter (or struct) from `ptxi run`'s forms; -1 with
 * `err` ("--buffer SPEC: what").  Pointer names are checked afterwards,
 * launch_unknown_pointer() (the buffers may be given later). */
int launch_spec_buffer(launch_case *c, const char *spec, char *err, size_t errlen);
int launch_spec_param(launch_case *c, const char *spec, char *err, size_t errlen);
const launch_param *launch_unknown_pointer(const launch_case *c, const launch_param *ps, size_t n);

/* --dump requests: written after a run (FILE.npy, FILE.svg / FILE.png: a
 * heat map (launch/heatmap.c), raw bytes, or "-": the
 * values into the report). */
typedef struct launch_dump {
    char *buffer, *dtype, *file;
    uint64_t shape[5];
    int ndim;
} launch_dump;
typedef struct launch_dumps { launch_dump *dumps; size_t ndumps; } launch_dumps;
int launch_spec_dump(launch_dumps *d, const char *spec, char *err, size_t errlen);
void launch_dumps_free(launch_dumps *d);
/* Perform the dumps from memory `g` after case `c` ran; messages and "-"
 * listings go to `out`.  Returns non-zero if one failed. */
int launch_do_dumps(const launch_case *c, mem_global *g, const launch_dumps *d, launch_text *out);

/* ---- running a case (launch/run.c) ------------------------------------------ */


typedef struct launch_run_opts {
    int jobs;                  /* interpreter threads over clusters */
    int policy;                /* interp_policy */
    uint64_t seed;
    uint64_t max_steps;        /* warp instructions; 0 = unlimited */
    const volatile int *stop;  /* non-zero (INTERP_STOP_*) stops the run (time limit, Ctrl-C) */
    uint64_t *progress;        /* clusters started, counted as they start; NULL = none */
    bool update;               /* write expected files from this run */
    bool quiet;                /* terse PASS lines */
    bool keep_memory;          /* hand the global memory back in the outcome */
    bool printf_direct;        /* kernel printf to stdout as it happens */
    bool no_check;             /* --check=none: no happens-before checker (check/) */
    bool no_contract;          /* --no-contract: no mul+add fused as ptxas fuses them (contract/) */
    const char *keep_failed;   /* directory: failing buffers' bytes (.bin, and .npy when typed) */
    const char *trace;         /* write a Chrome/Perfetto timeline here (launch/trace.c): the
                                  launch then runs through the step API on one host thread */
} launch_run_opts;

typedef struct launch_outcome {
    int failed;                /* 0 = PASS */
    int status;                /* INTERP_* of the launch; -1 when nothing launched */
    uint64_t steps, thread_instrs, wall_ns;
    launch_text text;          /* "PASS name" or "FAIL name: why", details indented,
                                  then the kernel's printf lines ("    printf: ...") */
    mem_global *g;             /* keep_memory: the memory after the run */
} launch_outcome;

/* Run case `c` (with module `mod`, or the parsed c->ptx when NULL, parsed
 * once per path for the whole process) and judge it.  Returns res->failed;
 * free with launch_outcome_free. */
int launch_run_case(launch_case *c, const launch_run_opts *o, const ir_module *mod, launch_outcome *res);
void launch_outcome_free(launch_outcome *res);
/* The module at `path`, parsed once per process (shared, read-only; the
 * cache launch_run_case uses); NULL with *err the diagnostics. */
const ir_module *launch_module_get(const char *path, const char **err);
/* Drop the parsed modules of launch_run_case's cache. */
void launch_modules_free(void);
/* Parse PTX text (text != NULL, `path` names it in messages) or the file
 * `path`.  NULL on error with *err the diagnostics (malloc'ed). */
ir_module *launch_parse_ptx(const char *path, const char *text, char **err);
/* "fault", "deadlock", "step_limit", ... for an INTERP_* status. */
const char *launch_stop_name(int status);

#endif
