/* tma.h — tensor maps and the TMA engine (public face of tma/).
 *
 * Two halves:
 *  - tensor maps: the three encoders with the CUDA driver's arguments, enum
 *    values and validation (cuTensorMapEncodeTiled/Im2col/Im2colWide), the
 *    128-byte map they produce, and its decoder (tma_map) — tma/encode.c;
 *  - the engine: address generation and copies for every access mode
 *    (tile, im2col, im2col::w[::128], gather4/scatter4), swizzle,
 *    interleave, OOB fill, loads/stores/reductions/prefetches — tma/engine.c.
 *
 * The interpreter builds a tma_request when a TMA instruction lands and
 * calls tma_execute(); nothing here knows about warps or mbarriers.
 */
#ifndef PTXI_TMA_H
#define PTXI_TMA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "memory/mem.h"

/* Result codes of the encoders: the driver's CUresult values. */
#define TMA_SUCCESS 0
#define TMA_ERROR_INVALID_VALUE 1

/* Enum values exactly as cuda.h (CU_TENSOR_MAP_*). */
enum {
    TMA_DT_UINT8 = 0, TMA_DT_UINT16, TMA_DT_UINT32, TMA_DT_INT32, TMA_DT_UINT64,
    TMA_DT_INT64, TMA_DT_FLOAT16, TMA_DT_FLOAT32, TMA_DT_FLOAT64, TMA_DT_BFLOAT16,
    TMA_DT_FLOAT32_FTZ, TMA_DT_TFLOAT32, TMA_DT_TFLOAT32_FTZ, TMA_DT_16U4_ALIGN8B,
    TMA_DT_16U4_ALIGN16B, TMA_DT_16U6_ALIGN16B
};
enum { TMA_INTERLEAVE_NONE = 0, TMA_INTERLEAVE_16B, TMA_INTERLEAVE_32B };
/* ... and TMA_SWIZZLE_96B, which cuda.h lacks (no driver here encodes it):
 * a map gets it only from tensormap.replace .swizzle_mode 4 (sm_103a). */
enum {
    TMA_SWIZZLE_NONE = 0, TMA_SWIZZLE_32B, TMA_SWIZZLE_64B, TMA_SWIZZLE_128B,
    TMA_SWIZZLE_128B_ATOM_32B, TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B, TMA_SWIZZLE_128B_ATOM_64B,
    TMA_SWIZZLE_96B
};
enum { TMA_L2_NONE = 0, TMA_L2_64B, TMA_L2_128B, TMA_L2_256B };
enum { TMA_OOB_FILL_NONE = 0, TMA_OOB_FILL_NAN_REQUEST_ZERO_FMA };
enum { TMA_IM2COL_WIDE_W = 0, TMA_IM2COL_WIDE_W128 };
enum { TMA_MAP_TILED = 1, TMA_MAP_IM2COL, TMA_MAP_IM2COL_WIDE };

/* A decoded tensor map: everything the engine needs. */
typedef struct tma_map {
    uint8_t kind;          /* TMA_MAP_TILED / _IM2COL / _IM2COL_WIDE */
    uint8_t data_type;     /* TMA_DT_* */
    uint8_t rank;          /* 1..5 */
    uint8_t interleave;    /* TMA_INTERLEAVE_* */
    uint8_t swizzle;       /* TMA_SWIZZLE_* */
    uint8_t l2_promotion;  /* TMA_L2_* */
    uint8_t oob_fill;      /* TMA_OOB_FILL_* */
    uint8_t wide_mode;     /* TMA_IM2COL_WIDE_* (im2col_wide only) */
    uint64_t global_address;
    uint64_t global_dim[5];      /* elements, innermost first */
    uint64_t global_strides[5];  /* bytes; [0] is unused (element size),
                                    [i] = stride of dimension i, i >= 1 */
    uint32_t box_dim[5];         /* tiled: box size per dimension */
    uint32_t element_strides[5]; /* traversal strides */
    int32_t lower_corner[3];     /* im2col: W, H, D (rank-2 used); wide: [0] */
    int32_t upper_corner[3];
    uint32_t channels_per_pixel; /* im2col / im2col_wide */
    uint32_t pixels_per_column;
} tma_map;

/* Size in bits of one element of a data type (4, 6, 8, 16, 32, 64). */
unsigned tma_dtype_bits(int data_type);

/* ---- encoders (tma/encode.c) ------------------------------------------ */

/* On failure `why` (may be NULL) gets a sentence naming the rule broken. */
int tma_encode_tiled(uint8_t map[128], int data_type, uint32_t rank, uint64_t global_address,
                     const uint64_t *global_dim, const uint64_t *global_strides,
                     const uint32_t *box_dim, const uint32_t *element_strides,
                     int interleave, int swizzle, int l2_promotion, int oob_fill,
                     char *why, size_t whylen);
int tma_encode_im2col(uint8_t map[128], int data_type, uint32_t rank, uint64_t global_address,
                      const uint64_t *global_dim, const uint64_t *global_strides,
                      const int *lower_corner, const int *upper_corner,
                      uint32_t channels_per_pixel, uint32_t pixels_per_column,
                      const uint32_t *element_strides,
                      int interleave, int swizzle, int l2_promotion, int oob_fill,
                      char *why, size_t whylen);
int tma_encode_im2col_wide(uint8_t map[128], int data_type, uint32_t rank, uint64_t global_address,
                           const uint64_t *global_dim, const uint64_t *global_strides,
                           int lower_corner_width, int upper_corner_width,
                           uint32_t channels_per_pixel, uint32_t pixels_per_column,
                           const uint32_t *element_strides,
                           int interleave, int mode, int swizzle, int l2_promotion, int oob_fill,
                           char *why, size_t whylen);

/* Launch-file names ("FLOAT16", "128B_ATOM_32B", "L2_64B", ...) to enum
 * values; kind is "data_type", "interleave", "swizzle", "l2_promotion",
 * "oob_fill" or "mode".  Returns -1 if unknown. */
int tma_enum_value(const char *kind, const char *name);
const char *tma_enum_name(const char *kind, int value);

/* 128-byte map <-> decoded form.  tma_decode fails (returns nonzero, `why`
 * set) on bytes that are not a valid map. */
int tma_decode(const uint8_t map[128], tma_map *out, char *why, size_t whylen);
void tma_pack(const tma_map *m, uint8_t map[128]);

/* tensormap.replace.tile (PTX ISA §9.7.9.28): write one field of the
 * 128-byte map in place, as the H100 does -- only that field's bits; the
 * box byte count and alignment words keep their old values (the TMA does
 * not read them: tests/hw/src/tmap_replace_use.cu).  new_val is encoded as
 * PTX says (Table 33 for .elemtype ... .fill_mode; .rank zero-based; box,
 * dim and element stride as counts; .global_stride in bytes) and `ord` is
 * the dimension (global_stride: ord i is the stride of dimension i + 1).
 * Returns 0, or TMA_ERROR_INVALID_VALUE with `why` naming the field and
 * the value out of range. */
enum {
    TMA_FIELD_GLOBAL_ADDRESS = 1, TMA_FIELD_RANK, TMA_FIELD_BOX_DIM, TMA_FIELD_GLOBAL_DIM,
    TMA_FIELD_GLOBAL_STRIDE, TMA_FIELD_ELEMENT_STRIDE, TMA_FIELD_ELEMTYPE, TMA_FIELD_INTERLEAVE_LAYOUT,
    TMA_FIELD_SWIZZLE_MODE, TMA_FIELD_SWIZZLE_ATOMICITY, TMA_FIELD_FILL_MODE
};
int tma_replace(uint8_t map[128], int field, uint32_t ord, uint64_t new_val, char *why, size_t whylen);
void tma_print(const tma_map *m, FILE *out);
/* The byte count the map stores for one full box (what the driver writes:
 * elemSize * prod(floor(boxDim[i] / elementStrides[i])), or
 * channelsPerPixel * elemSize * pixelsPerColumn for im2col). */
uint32_t tma_map_box_bytes(const tma_map *m);

/* Encode one launch-file "tensor_maps" object (FORMAT.md) with the encoder
 * its "encode" key names.  {"buffer": name, "offset": k} addresses resolve
 * through `g` (mem_global_by_name); a plain integer is an address.  Returns
 * the encoder's TMA_SUCCESS / TMA_ERROR_INVALID_VALUE, or TMA_ERROR_LAUNCH
 * when the object itself is malformed (missing key, wrong type, unknown enum
 * name, unknown buffer); `why` names the key.  `out` (may be NULL) gets the
 * decoded map on success.  (tma/encode_json.c; links with -ljansson.) */
#define TMA_ERROR_LAUNCH (-1)
struct json_t;
int tma_encode_json(uint8_t map[128], tma_map *out, const struct json_t *tensor_map, const mem_global *g,
                    char *why, size_t whylen);

/* ---- engine (tma/engine.c) ---------------------------------------------- */

enum { TMA_LOAD = 1, TMA_STORE, TMA_REDUCE, TMA_PREFETCH };
enum {
    TMA_TILE = 1, TMA_IM2COL, TMA_IM2COL_W, TMA_IM2COL_W128,
    TMA_GATHER4, TMA_SCATTER4, TMA_IM2COL_NO_OFFS
};
enum {
    TMA_RED_ADD = 1, TMA_RED_MIN, TMA_RED_MAX, TMA_RED_INC, TMA_RED_DEC,
    TMA_RED_AND, TMA_RED_OR, TMA_RED_XOR
};
/* Faults: the hardware would stop the kernel (CUDA_ERROR_ILLEGAL_*). */
enum {
    TMA_OK = 0,
    TMA_FAULT_ILLEGAL_INSTRUCTION = 1, /* rule broken: misaligned box start, im2col base
                                          outside bounding box, reduction type, ... */
    TMA_FAULT_ILLEGAL_ADDRESS = 2,     /* memory outside any allocation / window */
    TMA_FAULT_MISALIGNED = 3,          /* shared-memory address misaligned */
    TMA_UNSUPPORTED = 4,               /* legal, but ptxi cannot say what the hardware
                                          does (96B swizzle with several rows) */
};

typedef struct tma_request {
    int kind;              /* TMA_LOAD / STORE / REDUCE / PREFETCH */
    int mode;              /* TMA_TILE ... */
    int dim;               /* 1..5, the instruction's .Nd */
    int32_t coords[5];     /* tensor coordinates (gather4/scatter4: col, row0..row3) */
    uint16_t im2col_off[3];
    int n_im2col_off;
    uint16_t w_halo, w_offset;
    int redop;             /* TMA_RED_* for TMA_REDUCE */
    const tma_map *map;
    uint8_t *smem;         /* host pointer of the shared-memory window (CTA's smem) */
    uint32_t smem_size;    /* bytes in that window */
    uint32_t smem_off;     /* offset of the destination/source in the window; its
                              shared address (= smem_off) sets the swizzle phase */
    /* stores and reductions: called with each run of global bytes written
     * (bytes: what was written; NULL for a reduction), when not NULL (the
     * checker's record of global writes, interp/gridck.c) */
    void (*on_write)(void *arg, uint64_t addr, const uint8_t *bytes, uint32_t n);
    void *on_write_arg;
} tma_request;

/* Perform the copy against global memory.  Returns TMA_OK or a fault code
 * with `why` naming the rule.  *tx_bytes (may be NULL) gets the transaction
 * count the operation completes on its mbarrier (loads). */
int tma_execute(const tma_request *r, mem_global *g, uint32_t *tx_bytes, char *why, size_t whylen);
/* The checks the hardware makes, without touching memory, and the tx count. */
int tma_check(const tma_request *r, uint32_t *tx_bytes, char *why, size_t whylen);
/* Bytes of shared memory the operation touches from r->smem_off (with a
 * swizzle and no interleave, rows padded to the span; interleaved rows
 * packed: the range a race check must cover); 0 when tma_check faults. */
uint32_t tma_smem_footprint(const tma_request *r);
/* The shared-memory offsets of a load's 16-byte chunks in the order the
 * engine moves them: box row after box row (the walk order of the tile,
 * im2col or gather4 box), a row's chunks from its low logical address up,
 * each through the swizzle.  Fills off[0 .. min(n, cap)) and returns n, the
 * number of chunks (n * 16 = the transaction count); 0 when r is not a load
 * or tma_check faults.  The random completion policy lands a load in
 * pieces in an order drawn from this one (tma_land_order). */
uint32_t tma_load_chunks(const tma_request *r, uint32_t *off, uint32_t cap);
/* How a load's chunks pair into the 32-byte global sectors that land
 * together (tests/hw/tma_order): sets *per_row to the chunks of a box row
 * and returns 0 when every row starts on a 32-byte boundary of global and
 * of shared memory (chunks 0+1, 2+3 ... of a row are units), -1 when not
 * (the H100 split sectors there) or the mode was not measured (tile loads
 * without interleave only): every chunk is its own unit; -2 when r is not
 * a load or faults.  (tma_land_order also takes lead 1: pairs from a
 * row's second chunk.) */
int tma_load_sectors(const tma_request *r, uint32_t *per_row);
/* The order in which --complete=random lands a load (land.c): in[0..n) are
 * its chunks' shared offsets in the engine's order (per_row a box row, lead
 * as tma_load_sectors returns it; per_row = n for a plain bulk copy).  One
 * of the orders the H100 showed, drawn from seed: out[0..n) the offsets in
 * landing order, uend[k] one past the last chunk of the k-th unit (a unit
 * lands whole); returns the number of units.  key: room for n values.
 * *kind_out (may be NULL): which kind of order was drawn (0-3, land.c). */
uint32_t tma_land_order(const uint32_t *in, uint32_t n, uint32_t per_row, int lead, uint64_t seed,
                        uint32_t *out, uint32_t *uend, uint64_t *key, int *kind_out);

#endif
