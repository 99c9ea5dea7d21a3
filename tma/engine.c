/* engine.c — the TMA engine: address generation and copies for
 * cp.async.bulk.tensor / cp.reduce.async.bulk.tensor / prefetch.tensor.
 *
 * How it works.  Every access mode reduces to a sequence of "rows": one
 * contiguous run along dimension 0 (the box's inner extent, or one im2col
 * pixel's channels) whose other coordinates are fixed.  A plan (geom) is
 * computed once per request: element packing, row width, the smem pitch
 * between rows, the number of rows, the swizzle.  Then one loop walks the
 * rows (tile: nested over dims 1..4 with traversal strides; im2col: pixel
 * walk over the bounding box; gather4/scatter4: four rows) and for each row
 *   - load:   copies the in-bounds run of global memory with one memcpy,
 *             fills the out-of-bounds parts (zero or OOB-NaN), and writes
 *             the row into shared memory chunk by chunk through the swizzle;
 *   - store:  gathers the row out of shared memory (unswizzling) and writes
 *             only its in-bounds elements;
 *   - reduce: as store, combining element-wise with the global value.
 * Nothing is allocated; the per-row temporary is on the stack.  Loads have
 * fast paths for the common case (plain elements, no interleave, rows whole
 * and in bounds): tile boxes wholly inside the tensor, and im2col pixels
 * inside it, go as runs of rows (rows_put: 32-byte moves with the swizzle
 * applied per row where the CPU has AVX2); the rest stays on do_row.
 *
 * Rules that come from hardware (../shared/conformance/README.md) rather
 * than from the ISA text:
 *   - with interleave NONE the box's inner start (coordinate[0] * element
 *     size) must be a multiple of 16 bytes even when it is out of bounds,
 *     else ILLEGAL_INSTRUCTION (tile_store_0001, random_tile_*);
 *   - im2col: each of D/H/W filter-base coordinates must lie in
 *     [lower_corner, dim - 1 + upper_corner] and the channel start must be
 *     16-byte aligned (im2col_load_0000: the §5.5.4 examples fault);
 *   - OOB-NaN fill is the 16-bit pattern 0x7FF7 repeated, for every float
 *     type (an f32 element reads 0x7FF77FF7);
 *   - with interleave NONE and a swizzle each box row takes a whole swizzle
 *     span of smem, the rest of the span untouched (tile_load_0162);
 *     interleaved rows are packed instead (below);
 *   - reductions: legal op/type pairs are exactly red_legal() below (the
 *     reduce suite);
 *   - TFLOAT32 / TFLOAT32_FTZ loads round each in-bounds f32 element to
 *     tf32 (10 mantissa bits, low 13 bits cleared, ties to even) on the way
 *     into smem (tile_load_0110: 0x1c7e3118 arrives as 0x1c7e4000;
 *     hw/random_tma: 0x3db61000 as 0x3db60000);
 *   - the transaction count is the whole box, OOB elements included;
 *   - interleaved maps (tile and im2col): dimension 0 counts 16/32-byte
 *     slices, dimension rank-2 is pinned, rows are packed
 *     (tests/conformance/interleave/README.md); an im2col load walks
 *     dimensions 0..rank-3 as the spatial ones, one slice a pixel,
 *     pixels_per_column slices in all (tests/hw/random_tma/README.md);
 *   - im2col: the image coordinate steps by element_strides[rank-1];
 *   - stores and reductions clip dimension 0 at 16-byte granules, not at
 *     elements (store_d0); reductions: f32-family adds give 0x7FFFFFFF for
 *     any NaN result, f64 adds pass a NaN operand through unchanged.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "tma/tma.h"
#include "tma/swizzle.h"

#define ROWMAX 8192 /* largest smem row: 256 interleave slices x 32 bytes */

typedef struct geom {
    const tma_map *m;
    int rank, sw, nan_fill, tf32;
    uint32_t unit_elems;  /* elements per packing unit (1; 2 for u4x2; 16 for padded) */
    uint32_t g_unit;      /* bytes of a unit in global memory */
    uint32_t s_unit;      /* bytes of a unit in shared memory */
    uint32_t row_elems;   /* elements per row (dim 0) */
    uint32_t row_bytes;   /* data bytes of a row in smem */
    uint32_t pitch;       /* smem distance between rows */
    uint32_t nrows;
    uint32_t span;        /* swizzle span or 0 */
    uint32_t swmask, swshift; /* phys = a ^ (((a >> 7) & swmask) << swshift) */
    int flip8;            /* 128B_ATOM_32B_FLIP_8B */
    int fast;             /* plain elements, no tf32 rounding: whole rows memcpy */
    uint32_t tx;          /* transaction bytes */
    uint32_t foot;        /* smem bytes touched, from smem_off */
    uint32_t es0;         /* traversal stride along dim 0 (interleaved only) */
    int il_im2col;        /* im2col through an interleaved map: one-slice pixels (plan) */
    int64_t gdim0_bytes;  /* dim 0 extent in global bytes */
    tma_map view;         /* interleaved tile / im2col maps: the map as the H100 walks it */
} geom;

/* ---- small helpers ------------------------------------------------------ */

static int fault(char *why, size_t n, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fault(char *why, size_t n, int code, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return code;
}

static unsigned eng_dtype_bits(int dt)
{
    switch (dt) {
    case TMA_DT_UINT8: return 8;
    case TMA_DT_UINT16: case TMA_DT_FLOAT16: case TMA_DT_BFLOAT16: return 16;
    case TMA_DT_UINT32: case TMA_DT_INT32: case TMA_DT_FLOAT32: case TMA_DT_FLOAT32_FTZ:
    case TMA_DT_TFLOAT32: case TMA_DT_TFLOAT32_FTZ: return 32;
    case TMA_DT_UINT64: case TMA_DT_INT64: case TMA_DT_FLOAT64: return 64;
    case TMA_DT_16U4_ALIGN8B: case TMA_DT_16U4_ALIGN16B: return 4;
    case TMA_DT_16U6_ALIGN16B: return 6;
    default: return 0;
    }
}

static int is_float(int dt)
{
    switch (dt) {
    case TMA_DT_FLOAT16: case TMA_DT_BFLOAT16: case TMA_DT_FLOAT32: case TMA_DT_FLOAT32_FTZ:
    case TMA_DT_TFLOAT32: case TMA_DT_TFLOAT32_FTZ: case TMA_DT_FLOAT64: return 1;
    default: return 0;
    }
}

static const char *mode_name(int mode)
{
    switch (mode) {
    case TMA_TILE: return "tile";
    case TMA_IM2COL: return "im2col";
    case TMA_IM2COL_W: return "im2col::w";
    case TMA_IM2COL_W128: return "im2col::w::128";
    case TMA_GATHER4: return "tile::gather4";
    case TMA_SCATTER4: return "tile::scatter4";
    case TMA_IM2COL_NO_OFFS: return "im2col_no_offs";
    default: return "?";
    }
}

static const char *red_name(int op)
{
    static const char *n[] = {"?", "add", "min", "max", "inc", "dec", "and", "or", "xor"};
    return (op >= 1 && op <= 8) ? n[op] : "?";
}

/* Reduction op x data type legality, as the H100 showed (conformance
 * README, reduce suite): anything else is ILLEGAL_INSTRUCTION. */
static int red_legal(int op, int dt)
{
    switch (op) {
    case TMA_RED_ADD:
        return dt == TMA_DT_UINT32 || dt == TMA_DT_INT32 || dt == TMA_DT_UINT64 ||
               dt == TMA_DT_FLOAT16 || dt == TMA_DT_BFLOAT16 || dt == TMA_DT_FLOAT32 ||
               dt == TMA_DT_FLOAT32_FTZ || dt == TMA_DT_TFLOAT32 ||
               dt == TMA_DT_TFLOAT32_FTZ || dt == TMA_DT_FLOAT64;
    case TMA_RED_MIN: case TMA_RED_MAX:
        return dt == TMA_DT_UINT32 || dt == TMA_DT_INT32 || dt == TMA_DT_UINT64 ||
               dt == TMA_DT_INT64 || dt == TMA_DT_FLOAT16 || dt == TMA_DT_BFLOAT16;
    case TMA_RED_INC: case TMA_RED_DEC:
        return dt == TMA_DT_UINT32;
    case TMA_RED_AND: case TMA_RED_OR: case TMA_RED_XOR:
        return dt == TMA_DT_UINT32 || dt == TMA_DT_INT32 || dt == TMA_DT_UINT64;
    default: return 0;
    }
}

/* (b == 1, the usual traversal stride, skips a 64-bit divide: per-op cost) */
static inline int64_t ceil_div(int64_t a, int64_t b) { return b == 1 ? a : (a + b - 1) / b; }

/* Bytes of shared memory touched from `off`: the rows, where a swizzle may
 * move a chunk of the last 128-byte line past the last row's end. */
static uint32_t footprint(const geom *g, uint32_t off)
{
    uint64_t end = (uint64_t)g->pitch * g->nrows;
    if (!g->span || !g->nrows) return (uint32_t)end;
    if ((off + end) % 128 == 0) return (uint32_t)end; /* last line whole: chunks stay inside */
    uint64_t maxa = end, line = (off + end - 1) & ~(uint64_t)127;
    for (int64_t row = (int64_t)g->nrows - 1; row >= 0; row--) {
        uint64_t ra = off + (uint64_t)row * g->pitch;
        uint32_t rb = g->row_bytes;
        if (ra + rb <= line) break;
        for (uint32_t j = 0; j < rb; j += 16) {
            uint64_t pa = tma_swizzle_addr((uint32_t)(ra + j), g->sw) + 16u;
            if (pa - off > maxa) maxa = pa - off;
        }
    }
    return (uint32_t)maxa;
}

/* ---- the plan ------------------------------------------------------------ */

static int plan(const tma_request *r, geom *g, char *why, size_t wn)
{
    const tma_map *m = r->map;
    /* everything but the view (the last member, written before any read):
     * a third of the bytes, and this runs on every operation */
    _Static_assert(offsetof(geom, view) + sizeof(tma_map) == sizeof(geom), "view must stay last");
    memset(g, 0, offsetof(geom, view));
    if (!m)
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION, "no tensor map");
    if (m->interleave != TMA_INTERLEAVE_NONE && m->rank >= 3 &&
        (r->mode == TMA_TILE || r->mode == TMA_IM2COL)) {
        /* Interleaved tile boxes and im2col loads, as the H100 runs them
         * (probes in tests/conformance/interleave, README there): dimension
         * 0 counts whole 16/32-byte slices -- coordinate[0], box_dim[0] or
         * channels_per_pixel, and global_dim[0] are in slices, read back to
         * back, element_strides[0] stepping over slices -- and dimension
         * rank-2 is pinned at its coordinate (still bounds-checked) instead
         * of spanning the box.  Rows are packed in shared memory, the
         * swizzle applied to the packed layout.  An im2col load walks the
         * dimensions one down: a pixel is one slice, dimensions 0..rank-3
         * are the spatial ones (walk_im2col_il). */
        g->view = *m;
        if (r->mode == TMA_TILE) {
            g->view.box_dim[m->rank - 2] = 1;
            g->view.element_strides[m->rank - 2] = 1;
        }
        m = &g->view;
    }
    g->m = m;
    g->rank = m->rank;
    g->sw = m->swizzle;
    g->span = tma_swizzle_span(m->swizzle);
    switch (m->swizzle) {
    case TMA_SWIZZLE_32B: case TMA_SWIZZLE_96B: g->swmask = 1; g->swshift = 4; break;
    case TMA_SWIZZLE_64B: g->swmask = 3; g->swshift = 4; break;
    case TMA_SWIZZLE_128B: g->swmask = 7; g->swshift = 4; break;
    case TMA_SWIZZLE_128B_ATOM_32B: case TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B:
        g->swmask = 3; g->swshift = 5; break;
    case TMA_SWIZZLE_128B_ATOM_64B: g->swmask = 1; g->swshift = 6; break;
    default: g->swmask = 0; g->swshift = 4; break;
    }
    g->flip8 = m->swizzle == TMA_SWIZZLE_128B_ATOM_32B_FLIP_8B;
    unsigned bits = eng_dtype_bits(m->data_type);
    if (!bits || m->rank < 1 || m->rank > 5)
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                     "tensor map is not valid (data type %d, rank %d)", m->data_type, m->rank);
    g->tf32 = m->data_type == TMA_DT_TFLOAT32 || m->data_type == TMA_DT_TFLOAT32_FTZ;
    g->nan_fill = m->oob_fill == TMA_OOB_FILL_NAN_REQUEST_ZERO_FMA && is_float(m->data_type);

    /* Packing units (PTX ISA §5.5.1.1.1): .b4x16 is copied as is; .b4x16_p64
     * gets 8 bytes of padding per 16 nibbles in smem; .b6x16_p32 gets 4 bytes
     * per 12 (loads), and stores take .b6p2x16 (one byte per element, the
     * low six bits kept). */
    switch (m->data_type) {
    case TMA_DT_16U4_ALIGN8B: g->unit_elems = 2; g->g_unit = 1; g->s_unit = 1; break;
    case TMA_DT_16U4_ALIGN16B: g->unit_elems = 16; g->g_unit = 8; g->s_unit = 16; break;
    case TMA_DT_16U6_ALIGN16B: g->unit_elems = 16; g->g_unit = 12; g->s_unit = 16; break;
    default: g->unit_elems = 1; g->g_unit = g->s_unit = bits / 8; break;
    }
    if (m == &g->view) { /* one slice per unit, whatever the data type */
        g->unit_elems = 1;
        g->g_unit = g->s_unit = m->interleave == TMA_INTERLEAVE_32B ? 32 : 16;
    }
    g->gdim0_bytes = (int64_t)(m->global_dim[0] / g->unit_elems) * g->g_unit;
    g->fast = g->unit_elems == 1 && !g->tf32;
    /* a dim-0 traversal stride steps over slices; elsewhere it is ignored,
     * as the H100 ignores it without interleave (tx formula, README) */
    g->es0 = (m == &g->view && m->element_strides[0] > 1) ? m->element_strides[0] : 1;
    /* Interleaved im2col (tests/hw/random_tma, ld_im2col_*; README there):
     * the H100 walks dimensions 0..rank-3 as the spatial ones (each with
     * pixel_box corner, im2col offset and traversal stride number d),
     * pins dimension rank-2 at its coordinate and takes rank-1 as the
     * image: a pixel is one slice at dimension-0 position p, and
     * channels_per_pixel plays no part.  pixels_per_column slices move. */
    g->il_im2col = m == &g->view && r->mode == TMA_IM2COL;
    if (g->il_im2col) g->es0 = 1;

    int mode = r->mode;
    int is_im2col = mode == TMA_IM2COL || mode == TMA_IM2COL_W || mode == TMA_IM2COL_W128 ||
                    mode == TMA_IM2COL_NO_OFFS;
    if (r->dim != m->rank)
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                     "instruction is .%dd but the tensor map has rank %d", r->dim, m->rank);
    if (is_im2col) {
        int want = (mode == TMA_IM2COL_W || mode == TMA_IM2COL_W128) ? TMA_MAP_IM2COL_WIDE
                                                                     : TMA_MAP_IM2COL;
        /* An im2col_wide map's 128 bytes are an im2col map's (tma/encode.c:
         * W/W128 is not stored), so every map an instruction reads from
         * memory decodes as TMA_MAP_IM2COL; the ::w qualifier carries the
         * mode.  Requiring TMA_MAP_IM2COL_WIDE here made every im2col::w
         * instruction fault (tests/unit/test_tma_blackwell_ptx.c). */
        if (m->kind != want && !(want == TMA_MAP_IM2COL_WIDE && m->kind == TMA_MAP_IM2COL))
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         ".%s needs an %s tensor map", mode_name(mode),
                         want == TMA_MAP_IM2COL ? "im2col" : "im2col-wide");
        if (m->rank < 3)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         ".%s needs a 3D..5D tensor", mode_name(mode));
        g->row_elems = g->il_im2col ? 1 : m->channels_per_pixel;
    } else {
        if (m->kind != TMA_MAP_TILED)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         ".%s needs a tiled tensor map", mode_name(mode));
        g->row_elems = m->box_dim[0];
    }
    if (g->row_elems % g->unit_elems)
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                     "row of %u elements is not a whole number of packed %u-element groups",
                     g->row_elems, g->unit_elems);
    uint32_t row_data = (uint32_t)ceil_div(g->row_elems, g->es0);
    g->row_bytes = row_data / g->unit_elems * g->s_unit;
    uint32_t gbytes_row = g->row_elems / g->unit_elems * g->g_unit;
    if (g->row_bytes > ROWMAX)
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION, "row of %u bytes too wide", g->row_bytes);
    if ((g->row_bytes % 16 || !g->row_bytes) && r->kind != TMA_PREFETCH)
        /* the encoders refuse such a box (boxDim[0] / channelsPerPixel times
         * the element size must be a multiple of 16 bytes); only
         * tensormap.replace (.box_dim[0], .elemtype) makes one, and what the
         * hardware does with it is not known.  Every copy below moves whole
         * 16-byte chunks. */
        return fault(why, wn, TMA_UNSUPPORTED,
                     "not supported: a box row of %u elements is %u bytes, not a multiple of 16 (no encoder "
                     "accepts such a map; a tensormap.replace made it, and ptxi has no hardware data for it)",
                     g->row_elems, g->row_bytes);
    if (g->span) {
        if (g->row_bytes > g->span && m->interleave == TMA_INTERLEAVE_NONE)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         "box inner extent %u bytes exceeds the %u-byte swizzle span",
                         g->row_bytes, g->span);
        /* interleaved boxes are packed: a 16/32-byte slice per row, the
         * swizzle applied to the packed layout (tile_load_0251..0253) */
        g->pitch = m->interleave == TMA_INTERLEAVE_NONE ? g->span : g->row_bytes;
    } else {
        g->pitch = g->row_bytes;
    }
    (void)gbytes_row;

    switch (mode) {
    case TMA_TILE: {
        uint64_t rows = 1;
        for (int i = 1; i < m->rank; i++)
            rows *= (uint64_t)ceil_div(m->box_dim[i], m->element_strides[i] ? m->element_strides[i] : 1);
        g->nrows = (uint32_t)rows;
        break;
    }
    case TMA_GATHER4: case TMA_SCATTER4:
        if (m->rank != 2)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         ".%s works on 2D tensors only (map rank %d)", mode_name(mode), m->rank);
        if (m->box_dim[1] != 1)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         ".%s needs box_dim[1] == 1 (PTX ISA 5.5.3.4.1), map has %u",
                         mode_name(mode), m->box_dim[1]);
        if (m->interleave != TMA_INTERLEAVE_NONE)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         ".%s does not support interleaved layouts", mode_name(mode));
        g->nrows = 4;
        break;
    case TMA_IM2COL: case TMA_IM2COL_NO_OFFS:
        g->nrows = m->pixels_per_column;
        break;
    case TMA_IM2COL_W: case TMA_IM2COL_W128: {
        if (m->interleave != TMA_INTERLEAVE_NONE)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         ".%s does not support interleaved layouts (PTX ISA 5.5.6)", mode_name(mode));
        uint32_t px = mode == TMA_IM2COL_W128 ? 128 : m->pixels_per_column;
        uint32_t halo = mode == TMA_IM2COL_W128 ? (px / 32) * r->w_halo : r->w_halo;
        g->nrows = px + halo;
        break;
    }
    default:
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION, "unknown access mode %d", mode);
    }
    if (m->swizzle == TMA_SWIZZLE_96B) {
        /* PTX ISA §5.5.7 / tensor copy restrictions on the 96B mode (its 16B
         * atomicity is implied: tma_decode refuses any other). */
        if (m->interleave != TMA_INTERLEAVE_NONE || m->data_type == TMA_DT_16U4_ALIGN16B ||
            m->data_type == TMA_DT_16U6_ALIGN16B || mode == TMA_IM2COL_W128)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         "96B swizzle with %s (the 96B mode takes no interleave, no .b4x16_p64 / .b6x16_p32, "
                         "no .im2col::w::128)", m->interleave != TMA_INTERLEAVE_NONE ? "an interleaved layout"
                         : mode == TMA_IM2COL_W128 ? ".im2col::w::128" : "a padded sub-byte type");
        /* The chunk order is exact (swizzle.h); where rows after the first
         * go (a 96-byte pitch or a 128-byte line each) the ISA shows only
         * in Figure 31, an image.  With one row it does not matter (and
         * run_ok's one-XOR-per-row holds: the row starts 128-aligned). */
        if (g->nrows > 1 && r->kind != TMA_PREFETCH)
            return fault(why, wn, TMA_UNSUPPORTED,
                         "not supported: 96B swizzle with a %u-row box: PTX ISA §5.5.7 gives the 96B pattern's "
                         "16-byte chunk order but shows the shared-memory placement of box rows after the first "
                         "only in Figure 31 (an image), and ptxi has no sm_103a to read it from; 1-row boxes run",
                         g->nrows);
    }
    uint64_t tx = (uint64_t)g->row_bytes * g->nrows;
    if ((mode == TMA_TILE || mode == TMA_GATHER4 || mode == TMA_SCATTER4) &&
        m->interleave == TMA_INTERLEAVE_NONE) {
        /* README formula: box_dim[0] * elem * prod(ceil(box_i / stride_i)).
         * Interleaved: the slices actually moved (tests/conformance/interleave). */
        tx = (uint64_t)(g->row_elems / g->unit_elems) * g->s_unit * g->nrows;
    }
    g->tx = (uint32_t)tx;
    g->foot = footprint(g, r->smem_off);
    return TMA_OK;
}

/* ---- checks --------------------------------------------------------------- */

/* How the shared-memory footprint comes about, for the fault that finds it
 * too large.  Without interleave a swizzled row takes a whole swizzle span
 * (tile_load_0162: a 16-byte row under 64B swizzle writes one chunk per
 * 64 bytes); interleaved rows are packed, but dimension 0 counts 16/32-byte
 * slices, which is what makes a box larger than its box_dim suggests
 * (tile_load_0262, interleave/il_win_over). */
static void layout_words(const tma_request *r, const geom *g, char *buf, size_t n)
{
    int il = r->map->interleave;
    uint64_t end = (uint64_t)g->pitch * g->nrows;
    int k;
    unsigned slice = il == TMA_INTERLEAVE_32B ? 32u : 16u;
    if (g->il_im2col) /* the interleaved views of plan() */
        k = snprintf(buf, n, "pixels_per_column = %u pixels of one %u-byte slice, packed: with interleave %s "
                     "an im2col pixel is a slice", g->nrows, slice, il == TMA_INTERLEAVE_32B ? "32B" : "16B");
    else if (g->m != r->map)
        k = snprintf(buf, n, "%u rows of %u %u-byte slices, packed: with interleave %s box_dim[0] counts "
                     "slices and dimension %d spans one position", g->nrows, g->row_bytes / slice, slice,
                     il == TMA_INTERLEAVE_32B ? "32B" : "16B", g->rank - 2);
    else if (g->span && g->pitch > g->row_bytes)
        k = snprintf(buf, n, "%u rows x %u-byte pitch: each %u-byte row padded to the %u-byte swizzle span",
                     g->nrows, g->pitch, g->row_bytes, g->span);
    else
        k = snprintf(buf, n, "%u rows x %u-byte pitch", g->nrows, g->pitch);
    if (k > 0 && (size_t)k < n && g->foot > end)
        snprintf(buf + k, n - (size_t)k, ", and the swizzle moves chunks of the last row %u bytes further",
                 (unsigned)(g->foot - end));
}

static int check(const tma_request *r, geom *g, char *why, size_t wn)
{
    int rc = plan(r, g, why, wn);
    if (rc) return rc;
    const tma_map *m = r->map;
    int kind = r->kind;
    if (kind < TMA_LOAD || kind > TMA_PREFETCH)
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION, "unknown operation kind %d", kind);
    int mode = r->mode;
    int is_im2col = mode == TMA_IM2COL || mode == TMA_IM2COL_W || mode == TMA_IM2COL_W128 ||
                    mode == TMA_IM2COL_NO_OFFS;
    if (kind == TMA_LOAD && (mode == TMA_SCATTER4 || mode == TMA_IM2COL_NO_OFFS))
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION, ".%s is not a load mode", mode_name(mode));
    if ((kind == TMA_STORE || kind == TMA_REDUCE) &&
        (mode == TMA_GATHER4 || mode == TMA_IM2COL || mode == TMA_IM2COL_W || mode == TMA_IM2COL_W128))
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION, ".%s is not a store/reduce mode",
                     mode_name(mode));

    /* Box inner start on 16 bytes (PTX ISA 5.5.3.1), checked by the H100
     * even for out-of-bounds boxes.  With interleave the inner dimension is
     * the slice itself and the rule does not apply (random_tile_0042). */
    if (m->interleave == TMA_INTERLEAVE_NONE) {
        int64_t c0 = r->coords[0];
        int64_t bitpos = c0 * (int64_t)eng_dtype_bits(m->data_type);
        if (g->unit_elems == 16) bitpos = c0 / 16 * (int64_t)g->g_unit * 8; /* packed groups */
        if (c0 % (int64_t)g->unit_elems || bitpos % 128)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         "%s start coordinate[0]=%d is not on a 16-byte boundary "
                         "(%s element offset %lld bits); PTX ISA 5.5.3.1 requires the "
                         "bounding box to be 16-byte aligned",
                         is_im2col ? "im2col channel" : "box inner", r->coords[0],
                         is_im2col ? "channel" : "box", (long long)bitpos);
    }
    /* im2col filter base inside the bounding box, per D/H/W (§5.5.4.1,
     * hardware-enforced: im2col_load_0000). */
    if (mode == TMA_IM2COL || mode == TMA_IM2COL_NO_OFFS) {
        static const char *dn[] = {"W", "H", "D"};
        int sh = g->il_im2col ? 0 : 1; /* interleaved: the spatial dimensions are 0..rank-3 */
        for (int d = 0; d < m->rank - 2; d++) {
            int64_t lo = m->lower_corner[d];
            int64_t hi = (int64_t)m->global_dim[d + sh] - 1 + m->upper_corner[d];
            int64_t c = r->coords[d + sh];
            if (c < lo || c > hi) {
                if (g->il_im2col)
                    return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                                 "im2col filter base coordinate[%d]=%lld is outside the bounding box "
                                 "[lower_corner[%d] %lld, dim-1+upper_corner %lld] (interleaved map: "
                                 "dimensions 0..%d are the spatial ones)", d, (long long)c, d,
                                 (long long)lo, (long long)hi, m->rank - 3);
                return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                             "im2col filter base %s=%lld is outside the bounding box "
                             "[lower_corner %lld, dim-1+upper_corner %lld]",
                             dn[d], (long long)c, (long long)lo, (long long)hi);
            }
        }
    }
    if (mode == TMA_IM2COL_W || mode == TMA_IM2COL_W128) {
        /* §5.5.5.1: the first element may lie outside the box only on its
         * left side; D/H must be inside the tensor box (size 1). */
        int64_t lo = (int64_t)m->lower_corner[0] + r->w_offset;
        int64_t hi = (int64_t)m->global_dim[1] - 1 + m->upper_corner[0] + r->w_offset;
        int64_t c = (int64_t)r->coords[1] + r->w_offset;
        if (c > hi)
            return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                         "im2col::w first W=%lld lies right of the bounding box [%lld, %lld]",
                         (long long)c, (long long)lo, (long long)hi);
    }
    /* Stores: a box starting at a negative coordinate in any dimension
     * faults (ILLEGAL_INSTRUCTION), though loads accept it and a store box
     * running past the upper end is clipped (tile_store_0001/0008 fault,
     * 0002/0121 do not).  Reductions take the same path: assumed alike. */
    if ((kind == TMA_STORE || kind == TMA_REDUCE) && mode == TMA_TILE) {
        for (int i = 0; i < m->rank; i++)
            if (r->coords[i] < 0)
                return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                             "tensor store/reduce box starts at negative coordinate[%d]=%d "
                             "(the H100 faults; only loads may start out of bounds below 0)",
                             i, r->coords[i]);
    }
    if (kind == TMA_REDUCE && !red_legal(r->redop, m->data_type))
        return fault(why, wn, TMA_FAULT_ILLEGAL_INSTRUCTION,
                     "cp.reduce.async.bulk.tensor .%s does not support data type %d "
                     "(legal: add u32/s32/u64/f16/bf16/f32/tf32/f64, min/max u32/s32/u64/s64/f16/bf16, "
                     "inc/dec u32, and/or/xor u32/s32/u64)", red_name(r->redop), m->data_type);
    if (kind == TMA_PREFETCH)
        return TMA_OK;
    /* Shared memory: cp.async.bulk.tensor needs a 128-byte aligned smem
     * address; the swizzle atomicity forms need at least their atom. */
    if (r->smem_off % 128)
        return fault(why, wn, TMA_FAULT_MISALIGNED,
                     "shared-memory address 0x%x is not 128-byte aligned (cp.async.bulk.tensor)",
                     r->smem_off);
    if ((uint64_t)r->smem_off + g->foot > r->smem_size) {
        char how[160];
        layout_words(r, g, how, sizeof how);
        return fault(why, wn, TMA_FAULT_ILLEGAL_ADDRESS,
                     "the %s box needs %u bytes of shared memory from offset 0x%x "
                     "(%s), past the end of the CTA's shared memory at 0x%x",
                     mode_name(mode), g->foot, r->smem_off, how, r->smem_size);
    }
    return TMA_OK;
}

int tma_check(const tma_request *r, uint32_t *tx_bytes, char *why, size_t whylen)
{
    geom g;
    int rc = check(r, &g, why, whylen);
    if (tx_bytes) *tx_bytes = rc ? 0 : g.tx;
    return rc;
}

uint32_t tma_smem_footprint(const tma_request *r)
{
    geom g;
    char why[256];
    return check(r, &g, why, sizeof why) ? 0 : g.foot;
}

uint32_t tma_load_chunks(const tma_request *r, uint32_t *off, uint32_t cap)
{
    geom g;
    char why[256];
    if (r->kind != TMA_LOAD || check(r, &g, why, sizeof why))
        return 0;
    uint32_t per_row = g.row_bytes / 16, n = 0;
    if ((uint64_t)per_row * g.nrows * 16 != g.tx)
        return 0; /* not the bytes the mbarrier is told (never seen) */
    for (uint32_t row = 0; row < g.nrows; row++) {
        uint32_t sa = r->smem_off + row * g.pitch;
        for (uint32_t j = 0; j < per_row; j++, n++) {
            uint32_t a = sa + 16 * j;
            if (n < cap)
                off[n] = g.span ? a ^ (((a >> 7) & g.swmask) << g.swshift) : a;
        }
    }
    return n;
}

int tma_load_sectors(const tma_request *r, uint32_t *per_row)
{
    geom g;
    char why[256];
    *per_row = 0;
    if (r->kind != TMA_LOAD || check(r, &g, why, sizeof why))
        return -2;
    *per_row = g.row_bytes / 16;
    const tma_map *m = r->map;
    if (r->mode != TMA_TILE || m->kind != TMA_MAP_TILED || m->interleave != TMA_INTERLEAVE_NONE ||
        m->element_strides[0] != 1)
        return -1;
    /* Pairs only where every row starts on a 32-byte sector in global and
     * in shared memory: rows 16 bytes into a sector (tma_order t2d_off16)
     * or 48 bytes apart in shared memory (t2d_row48) split sectors. */
    if (g.pitch % 32 || r->smem_off % 32)
        return -1;
    int64_t bits = (int64_t)r->coords[0] * tma_dtype_bits(m->data_type);
    if (bits % 256)
        return -1;
    uint64_t a = m->global_address + (uint64_t)(bits / 8);
    for (int i = 1; i < m->rank; i++) {
        if (m->global_strides[i] % 32)
            return -1;
        a += (uint64_t)((int64_t)r->coords[i] * (int64_t)m->global_strides[i]);
    }
    return a % 32 ? -1 : 0;
}

/* ---- the row machinery ------------------------------------------------- */

typedef struct ctx {
    const tma_request *r;
    const geom *g;
    mem_global *gm;
    const mem_alloc *al;    /* allocation holding the whole tensor, or NULL */
    int64_t lo, hi;         /* [lo, hi): its device range */
    char *why;
    size_t wn;
} ctx;

/* Host pointer of global [addr, addr+n), or NULL. */
static inline uint8_t *gptr(ctx *c, uint64_t addr, uint64_t n)
{
    if (c->al && (int64_t)addr >= c->lo && (int64_t)(addr + n) <= c->hi)
        return c->al->host + (addr - c->al->base);
    return mem_global_host(c->gm, addr, n);
}

static void fill_oob(const geom *g, uint8_t *p, uint32_t n)
{
    if (!g->nan_fill) {
        memset(p, 0, n);
        return;
    }
    /* OOB-NaN: the 16-bit 0x7FF7 repeated (H100, conformance README). */
    for (uint32_t i = 0; i < n; i++) p[i] = (i & 1) ? 0x7F : 0xF7;
}

/* f32 -> tf32 as the load path does it: round to nearest on the 13 dropped
 * mantissa bits, ties to even (tests/hw/random_tma: 0x3db61000 arrives as
 * 0x3db60000 and 0x3f029000 as 0x3f028000; ties away, which ptxi did
 * before, has no hardware case: -DTMA_TF32_TIES_AWAY selects it). */
static void round_tf32(uint8_t *p, uint32_t n, int ftz)
{
    for (uint32_t i = 0; i + 4 <= n; i += 4) {
        uint32_t u;
        memcpy(&u, p + i, 4);
        if ((u & 0x7F800000u) == 0x7F800000u) {
            if (u & 0x007FFFFFu) u = 0x7FFFE000u; /* NaN: canonical, sign dropped (tile_load_0114) */
        } else {
            (void)ftz; /* subnormals are kept, _FTZ included (tile_load_0124) */
#ifdef TMA_TF32_TIES_AWAY
            u += 0x1000u;
#else
            u += 0xFFFu + ((u >> 13) & 1u);
#endif
            u &= 0xFFFFE000u;
        }
        memcpy(p + i, &u, 4);
    }
}

/* Global bytes [elements e0, e0+n) of a row into smem layout at dst. */
static void unpack_units(const geom *g, uint8_t *dst, const uint8_t *src, uint32_t units)
{
    if (g->g_unit == g->s_unit) {
        memcpy(dst, src, (size_t)units * g->g_unit);
        return;
    }
    for (uint32_t u = 0; u < units; u++) {
        memcpy(dst + u * g->s_unit, src + u * g->g_unit, g->g_unit);
        /* padding "un-initialized" in the ISA; we write zeros */
        memset(dst + u * g->s_unit + g->g_unit, 0, g->s_unit - g->g_unit);
    }
}

/* Row of smem layout into global packing (store direction).  For
 * 16U6_ALIGN16B the store form is .b6p2x16: 16 bytes, the low 6 bits of each
 * kept and packed (PTX ISA 5.5.1.1.1); 16U4_ALIGN16B drops the pad. */
static void pack_unit(const geom *g, uint8_t *dst, const uint8_t *src)
{
    if (g->m->data_type == TMA_DT_16U6_ALIGN16B) {
        uint64_t lo = 0, hi = 0;
        for (int i = 0; i < 16; i++) {
            uint64_t v = src[i] & 63u;
            int bit = i * 6;
            if (bit < 64) { lo |= v << bit; if (bit > 58) hi |= v >> (64 - bit); }
            else hi |= v << (bit - 64);
        }
        for (int i = 0; i < 8; i++) dst[i] = (uint8_t)(lo >> (8 * i));
        for (int i = 0; i < 4; i++) dst[8 + i] = (uint8_t)(hi >> (8 * i));
    } else {
        memcpy(dst, src, g->g_unit);
    }
}

/* Is row coordinate vector (dims 1..rank-1) inside the tensor? */
static inline int row_inside(const geom *g, const int64_t *rc)
{
    for (int i = 1; i < g->rank; i++)
        if (rc[i] < 0 || rc[i] >= (int64_t)g->m->global_dim[i]) return 0;
    return 1;
}

static inline int64_t row_addr(const geom *g, const int64_t *rc)
{
    int64_t a = (int64_t)g->m->global_address;
    for (int i = 1; i < g->rank; i++) a += rc[i] * (int64_t)g->m->global_strides[i];
    return a;
}

/* The first n bytes (a multiple of 16) of a logical smem row at logical
 * smem address sa, through the swizzle: 16-byte chunks, the XOR taken from
 * the address. */
static void smem_put_n(const geom *g, uint8_t *smem, uint32_t sa, const uint8_t *tmp, uint32_t n)
{
    if (!g->span) {
        memcpy(smem + sa, tmp, n);
        return;
    }
    for (uint32_t j = 0; j < n; j += 16) {
        uint32_t a = sa + j;
        uint8_t *d = smem + (a ^ (((a >> 7) & g->swmask) << g->swshift));
        if (g->flip8 && ((a >> 7) & 1u)) {
            memcpy(d, tmp + j + 8, 8);
            memcpy(d + 8, tmp + j, 8);
        } else {
            memcpy(d, tmp + j, 16);
        }
    }
}

/* Write a logical smem row (tmp, row_bytes) at logical smem address sa,
 * through the swizzle. */
static inline void smem_put(const ctx *c, uint32_t sa, const uint8_t *tmp)
{
    const geom *g = c->g;
    uint8_t *smem = c->r->smem;
    if (!g->span) {
        switch (g->row_bytes) { /* constant sizes inline as vector moves */
        case 128: memcpy(smem + sa, tmp, 128); return;
        case 64: memcpy(smem + sa, tmp, 64); return;
        case 32: memcpy(smem + sa, tmp, 32); return;
        default: memcpy(smem + sa, tmp, g->row_bytes); return;
        }
    }
    if (g->row_bytes == 128 && g->swshift == 4 && !g->flip8 && !(sa & 127)) {
        /* a whole 128-byte line: one XOR for all eight chunks */
        uint32_t x = ((sa >> 7) & g->swmask) << 4;
        uint8_t *d = smem + sa;
        for (uint32_t j = 0; j < 128; j += 16) memcpy(d + (j ^ x), tmp + j, 16);
        return;
    }
    smem_put_n(g, smem, sa, tmp, g->row_bytes);
}

static inline void smem_get(const ctx *c, uint32_t sa, uint8_t *tmp)
{
    const geom *g = c->g;
    const uint8_t *smem = c->r->smem;
    if (!g->span) {
        memcpy(tmp, smem + sa, g->row_bytes);
        return;
    }
    for (uint32_t j = 0; j < g->row_bytes; j += 16) {
        uint32_t a = sa + j;
        const uint8_t *s = smem + (a ^ (((a >> 7) & g->swmask) << g->swshift));
        if (g->flip8 && ((a >> 7) & 1u)) {
            memcpy(tmp + j, s + 8, 8);
            memcpy(tmp + j + 8, s, 8);
        } else {
            memcpy(tmp + j, s, 16);
        }
    }
}

/* In-bounds element range of a row starting at element c0: [*a, *b) as
 * element indices relative to c0 (es0 == 1 only).  d0 is the extent of
 * dimension 0 in elements (store_d0 for stores and reductions). */
static inline void row_range_d0(const geom *g, int64_t c0, int64_t d0, int64_t *a, int64_t *b)
{
    int64_t n = g->row_elems;
    int64_t lo = c0 < 0 ? -c0 : 0;
    int64_t hi = d0 - c0;
    if (hi > n) hi = n;
    if (lo > n) lo = n;
    if (hi < lo) hi = lo;
    *a = lo;
    *b = hi;
}

static inline void row_range(const geom *g, int64_t c0, int64_t *a, int64_t *b)
{
    row_range_d0(g, c0, (int64_t)g->m->global_dim[0], a, b);
}

/* Stores and reductions clip dimension 0 at a 16-byte granule, not at the
 * element: the elements past global_dim[0] that share a 16-byte chunk with
 * the last in-bounds one are written (reduced) too (tests/hw/random_tma:
 * st_tile_021, a FLOAT32 row of 45 elements, gets elements 45..47 from the
 * box, 48.. not; red_or_005, INT32 dim 3, ORs element 3).  Loads fill such
 * elements (zero / NaN) as out of bounds.  The box's inner start is
 * 16-byte aligned (check()), and so are the tensor's address and strides,
 * so the granule is the same counted from either. */
static inline int64_t store_d0(const geom *g)
{
    int64_t bytes = (g->gdim0_bytes + 15) / 16 * 16;
    return bytes / (int64_t)g->g_unit * (int64_t)g->unit_elems;
}

/* A row's global range lies outside every allocation. */
static int row_fault(const ctx *c, const int64_t *rc, const char *dir)
{
    return fault(c->why, c->wn, TMA_FAULT_ILLEGAL_ADDRESS,
                 "tensor row at coordinates (%lld, %lld, %lld, %lld, %lld) %s global memory "
                 "outside any allocation", (long long)rc[0], (long long)rc[1], (long long)rc[2],
                 (long long)rc[3], (long long)rc[4], dir);
}

/* ---- load ---------------------------------------------------------------- */

static int row_load_slow(ctx *c, const int64_t *rc, uint32_t sa);

static inline int row_load(ctx *c, const int64_t *rc, uint32_t sa)
{
    const geom *g = c->g;
    /* Hot path: a whole in-bounds row of plain elements goes straight from
     * global memory into smem (through the swizzle), no temporary. */
    if (g->fast && g->es0 == 1 && rc[0] >= 0 &&
        rc[0] + (int64_t)g->row_elems <= (int64_t)g->m->global_dim[0] && row_inside(g, rc)) {
        uint8_t *s = gptr(c, (uint64_t)(row_addr(g, rc) + rc[0] * (int64_t)g->s_unit), g->row_bytes);
        if (s) {
            smem_put(c, sa, s);
            return TMA_OK;
        }
    }
    return row_load_slow(c, rc, sa);
}

/* Everything else: partial rows, OOB fill, packed types, tf32 rounding,
 * interleaved dim-0 strides; the row is built in a stack temporary (or in
 * place, unswizzled).  Every branch writes all row_bytes of it: no byte of
 * the stack reaches smem unwritten. */
static __attribute__((noinline)) int row_load_slow(ctx *c, const int64_t *rc, uint32_t sa)
{
    const geom *g = c->g;
    uint8_t buf[ROWMAX];
    uint8_t *tmp = g->span ? buf : c->r->smem + sa;
    if (!row_inside(g, rc)) {
        fill_oob(g, tmp, g->row_bytes);
    } else if (g->es0 > 1) {
        /* interleaved, with a dim-0 traversal stride: slice by slice, the
         * row_bytes / s_unit = ceil(row_elems / es0) slices of the row
         * (tf32 rounded as without the stride: il_es0_2_tf32) */
        uint32_t es = g->s_unit, k = 0;
        int64_t base = row_addr(g, rc);
        for (int64_t e = 0; e < g->row_elems; e += g->es0, k++) {
            int64_t x = rc[0] + e;
            uint8_t *d = tmp + (size_t)k * es;
            if (x < 0 || x >= (int64_t)g->m->global_dim[0]) { fill_oob(g, d, es); continue; }
            uint8_t *s = gptr(c, (uint64_t)(base + x * es), es);
            if (!s) goto bad;
            memcpy(d, s, es);
            if (g->tf32) round_tf32(d, es, g->m->data_type == TMA_DT_TFLOAT32_FTZ);
        }
    } else {
        int64_t a, b;
        row_range(g, rc[0], &a, &b);
        uint32_t ue = g->unit_elems;
        uint32_t ua = (uint32_t)(a / ue), ub = (uint32_t)(b / ue), un = g->row_elems / ue;
        if (ua) fill_oob(g, tmp, ua * g->s_unit);
        if (ub > ua) {
            uint64_t ga = (uint64_t)(row_addr(g, rc) + (rc[0] / (int64_t)ue + ua) * (int64_t)g->g_unit);
            uint8_t *s = gptr(c, ga, (uint64_t)(ub - ua) * g->g_unit);
            if (!s) goto bad;
            unpack_units(g, tmp + ua * g->s_unit, s, ub - ua);
            if (g->tf32)
                round_tf32(tmp + ua * g->s_unit, (ub - ua) * g->s_unit,
                           g->m->data_type == TMA_DT_TFLOAT32_FTZ);
        }
        if (un > ub) fill_oob(g, tmp + ub * g->s_unit, (un - ub) * g->s_unit);
    }
    if (tmp != buf) return TMA_OK;
    smem_put(c, sa, tmp);
    return TMA_OK;
bad:
    return row_fault(c, rc, "reads");
}

/* ---- reductions ------------------------------------------------------------ */

static inline float h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, f = h & 1023;
    uint32_t u;
    if (e == 0) {
        if (!f) u = s;
        else { float v = ldexpf((float)f, -24); memcpy(&u, &v, 4); u |= s; }
    } else if (e == 31) u = s | 0x7F800000u | (f << 13);
    else u = s | ((e + 112) << 23) | (f << 13);
    float v;
    memcpy(&v, &u, 4);
    return v;
}

/* double -> f16, round to nearest even (one rounding from the exact double). */
static uint16_t d2h(double x)
{
    uint16_t s = signbit(x) ? 0x8000 : 0;
    if (isnan(x)) return 0x7FFF;
    double a = fabs(x);
    if (a >= 65520.0) return s | 0x7C00;
    if (a < ldexp(1.0, -14)) { /* subnormal: multiples of 2^-24 */
        double q = nearbyint(a * ldexp(1.0, 24));
        return s | (uint16_t)q;
    }
    int e;
    double m = frexp(a, &e);          /* a = m * 2^e, m in [0.5,1) */
    double q = nearbyint(m * 2048.0); /* 11 significant bits */
    if (q >= 2048.0) { q /= 2; e++; }
    if (e + 14 > 30) return s | 0x7C00;
    return s | (uint16_t)(((e + 14) << 10) | ((uint32_t)q & 1023));
}

static inline float bf2f(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float v;
    memcpy(&v, &u, 4);
    return v;
}

static uint16_t f2bf(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FFF;
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static uint16_t d2bf(double x)
{
    /* the exact sum of two bf16 fits a double except for huge exponent gaps,
     * where the small addend is far below half an ulp: one rounding suffices */
    float f = (float)x; /* may double-round only when x is not a float; guard: */
    if ((double)f != x) {
        /* round to 8 significant bits directly */
        if (isnan(x)) return 0x7FFF;
        int e;
        double m = frexp(fabs(x), &e);
        double q = nearbyint(m * 256.0);
        double r = ldexp(q, e - 8);
        f = (float)(signbit(x) ? -r : r);
    }
    return f2bf(f);
}

static inline float ftz(float v)
{
    return (fpclassify(v) == FP_SUBNORMAL) ? copysignf(0.0f, v) : v;
}

/* PTX min/max.{f16,bf16}: a NaN operand yields the other; -0 < +0. */
static double fminmax(double a, double b, int max)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) {
        if (signbit(a) != signbit(b)) return max ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
        return a;
    }
    return max ? (a > b ? a : b) : (a < b ? a : b);
}

static void red_elem(int op, int dt, uint8_t *gp, const uint8_t *sp)
{
    switch (dt) {
    case TMA_DT_UINT32: case TMA_DT_INT32: {
        uint32_t g, s, r = 0;
        memcpy(&g, gp, 4); memcpy(&s, sp, 4);
        switch (op) {
        case TMA_RED_ADD: r = g + s; break;
        case TMA_RED_MIN: r = dt == TMA_DT_INT32 ? ((int32_t)g < (int32_t)s ? g : s) : (g < s ? g : s); break;
        case TMA_RED_MAX: r = dt == TMA_DT_INT32 ? ((int32_t)g > (int32_t)s ? g : s) : (g > s ? g : s); break;
        case TMA_RED_INC: r = g >= s ? 0 : g + 1; break;              /* atom.inc */
        case TMA_RED_DEC: r = (g == 0 || g > s) ? s : g - 1; break;   /* atom.dec */
        case TMA_RED_AND: r = g & s; break;
        case TMA_RED_OR: r = g | s; break;
        case TMA_RED_XOR: r = g ^ s; break;
        }
        memcpy(gp, &r, 4);
        return;
    }
    case TMA_DT_UINT64: case TMA_DT_INT64: {
        uint64_t g, s, r = 0;
        memcpy(&g, gp, 8); memcpy(&s, sp, 8);
        switch (op) {
        case TMA_RED_ADD: r = g + s; break;
        case TMA_RED_MIN: r = dt == TMA_DT_INT64 ? ((int64_t)g < (int64_t)s ? g : s) : (g < s ? g : s); break;
        case TMA_RED_MAX: r = dt == TMA_DT_INT64 ? ((int64_t)g > (int64_t)s ? g : s) : (g > s ? g : s); break;
        case TMA_RED_AND: r = g & s; break;
        case TMA_RED_OR: r = g | s; break;
        case TMA_RED_XOR: r = g ^ s; break;
        default: r = g; break;
        }
        memcpy(gp, &r, 8);
        return;
    }
    case TMA_DT_FLOAT16: case TMA_DT_BFLOAT16: {
        uint16_t g, s, r;
        memcpy(&g, gp, 2); memcpy(&s, sp, 2);
        int bf = dt == TMA_DT_BFLOAT16;
        double a = bf ? bf2f(g) : h2f(g), b = bf ? bf2f(s) : h2f(s);
        if (op == TMA_RED_ADD) {
            double x = a + b;
            r = bf ? d2bf(x) : d2h(x);
        } else {
            if (isnan(a) && isnan(b)) r = bf ? 0x7FFF : 0x7FFF;
            else {
                double x = fminmax(a, b, op == TMA_RED_MAX);
                r = (x == a && signbit(x) == signbit(a) && !isnan(a)) ? g : s;
            }
        }
        memcpy(gp, &r, 2);
        return;
    }
    case TMA_DT_FLOAT32: case TMA_DT_FLOAT32_FTZ: case TMA_DT_TFLOAT32: case TMA_DT_TFLOAT32_FTZ: {
        /* f32 add (tf32 too: no rounding to tf32), subnormals kept unless
         * _FTZ; a NaN result is always 0x7FFFFFFF, whatever NaN came in
         * (tests/hw/random_tma red_special_add_*: qNaN, sNaN, inf - inf) */
        float g, s, r;
        memcpy(&g, gp, 4); memcpy(&s, sp, 4);
        if (dt == TMA_DT_FLOAT32_FTZ || dt == TMA_DT_TFLOAT32_FTZ) r = ftz(ftz(g) + ftz(s));
        else r = g + s;
        if (isnan(r)) {
            uint32_t qn = 0x7FFFFFFFu;
            memcpy(gp, &qn, 4);
            return;
        }
        memcpy(gp, &r, 4);
        return;
    }
    case TMA_DT_FLOAT64: {
        /* a NaN operand comes back unchanged, signalling ones too (not
         * quieted), the shared-memory operand's when both are NaN; inf - inf
         * gives 0xFFF8000000000000 (red_special_add_float64, red_gran_005) */
        double g, s, r;
        memcpy(&g, gp, 8); memcpy(&s, sp, 8);
        if (isnan(s)) { memcpy(gp, sp, 8); return; }
        if (isnan(g)) return;
        r = g + s;
        if (isnan(r)) {
            uint64_t qn = 0xFFF8000000000000ull;
            memcpy(gp, &qn, 8);
            return;
        }
        memcpy(gp, &r, 8);
        return;
    }
    default: return;
    }
}

/* ---- store / reduce --------------------------------------------------------- */

/* The slices of an interleaved row with a dim-0 traversal stride go to
 * every es0-th slice of the tensor, the load's placement mirrored (there
 * is no hardware data for interleaved stores); OOB slices are skipped. */
static int row_store_strided(ctx *c, const int64_t *rc, const uint8_t *row, int reduce)
{
    const geom *g = c->g;
    uint32_t es = g->s_unit, k = 0;
    uint32_t eb = eng_dtype_bits(g->m->data_type) >= 8 ? eng_dtype_bits(g->m->data_type) / 8 : 1;
    int64_t base = row_addr(g, rc);
    for (int64_t e = 0; e < g->row_elems; e += g->es0, k++) {
        int64_t x = rc[0] + e;
        if (x < 0 || x >= (int64_t)g->m->global_dim[0]) continue;
        uint8_t *d = gptr(c, (uint64_t)(base + x * es), es);
        if (!d) return row_fault(c, rc, "writes");
        const uint8_t *s = row + (size_t)k * es;
        if (!reduce) memcpy(d, s, es);
        else for (uint32_t i = 0; i < es; i += eb) red_elem(c->r->redop, g->m->data_type, d + i, s + i);
        if (c->r->on_write)
            c->r->on_write(c->r->on_write_arg, (uint64_t)(base + x * es), reduce ? NULL : s, es);
    }
    return TMA_OK;
}

static int row_store(ctx *c, const int64_t *rc, uint32_t sa, int reduce)
{
    const geom *g = c->g;
    uint8_t buf[ROWMAX];
    const uint8_t *row;
    if (!row_inside(g, rc)) return TMA_OK; /* OOB elements are skipped */
    if (g->span) { smem_get(c, sa, buf); row = buf; }
    else row = c->r->smem + sa;
    if (g->es0 > 1) return row_store_strided(c, rc, row, reduce);
    int64_t a, b;
    row_range_d0(g, rc[0], store_d0(g), &a, &b);
    uint32_t ue = g->unit_elems;
    uint32_t ua = (uint32_t)(a / ue), ub = (uint32_t)(b / ue);
    if (ub <= ua) return TMA_OK;
    uint64_t ga = (uint64_t)(row_addr(g, rc) + (rc[0] / (int64_t)ue + ua) * (int64_t)g->g_unit);
    uint8_t *d = gptr(c, ga, (uint64_t)(ub - ua) * g->g_unit);
    if (!d) {
        /* the granule runs past the end of the allocation (on the GPU, into
         * its padding, which no buffer shows): the elements in bounds only */
        row_range(g, rc[0], &a, &b);
        ub = (uint32_t)(b / ue);
        if (ub <= ua) return TMA_OK;
        d = gptr(c, ga, (uint64_t)(ub - ua) * g->g_unit);
    }
    if (!d) return row_fault(c, rc, "writes");
    const uint8_t *s = row + ua * g->s_unit;
    if (!reduce) {
        if (g->g_unit == g->s_unit) memcpy(d, s, (size_t)(ub - ua) * g->g_unit);
        else for (uint32_t u = 0; u < ub - ua; u++) pack_unit(g, d + u * g->g_unit, s + u * g->s_unit);
        if (c->r->on_write)   /* the packed bytes as written (sub-byte units: d) */
            c->r->on_write(c->r->on_write_arg, ga, g->g_unit == g->s_unit ? s : d, (ub - ua) * g->g_unit);
        return TMA_OK;
    }
    if (c->r->on_write)
        c->r->on_write(c->r->on_write_arg, ga, NULL, (ub - ua) * g->s_unit);
    /* element by element of the data type (an interleaved unit is a whole
     * slice of them) */
    int op = c->r->redop, dt = g->m->data_type;
    uint32_t eb = eng_dtype_bits(dt) >= 8 ? eng_dtype_bits(dt) / 8 : 1; /* (sub-byte types never reduce) */
    size_t n = (size_t)(ub - ua) * g->s_unit;
    for (size_t i = 0; i < n; i += eb) red_elem(op, dt, d + i, s + i);
    return TMA_OK;
}

static inline int do_row(ctx *c, const int64_t *rc, uint32_t sa)
{
    switch (c->r->kind) {
    case TMA_LOAD: return row_load(c, rc, sa);
    case TMA_STORE: return row_store(c, rc, sa, 0);
    case TMA_REDUCE: return row_store(c, rc, sa, 1);
    default: return TMA_OK;
    }
}

/* ---- runs of whole rows (the load fast path) -------------------------------- */

/* A run is n whole, in-bounds rows of plain elements (g->fast, es0 == 1)
 * from a map without interleave: row i is read from global src + i * sstep
 * and written at logical smem address sa + i * pitch.  Without interleave a
 * swizzled row fills at most its own pitch = span slot, and with smem_off
 * 128-aligned (check() insists; run_ok too) and span | 128 (not so for the
 * 96B mode: smem_put) the slot lies inside one 128-byte line, so the row's
 * swizzle is one XOR for the whole row, phys = (sa + j) ^ X with
 * X = ((sa >> 7) & swmask) << swshift, plus the FLIP_8B half swap on odd
 * lines.  Same bytes as smem_put.
 * (-DTMA_NO_RUNS turns the fast paths off: the reference for differential
 * testing; -DTMA_NO_AVX2 keeps them but without the 32-byte moves.) */
static inline int run_ok(const geom *g, uint32_t smem_off)
{
#ifdef TMA_NO_RUNS
    return 0;
#endif
    return g->fast && g->es0 == 1 && g->m->interleave == TMA_INTERLEAVE_NONE &&
           (!g->span || (g->pitch == g->span && !(128 % g->span) && !(smem_off % 128))) &&
           !(g->row_bytes % 16);
}

static void rows_put_c(uint8_t *smem, uint32_t sa, uint32_t pitch, const uint8_t *src, int64_t sstep,
                       uint32_t n, const geom *g)
{
    uint32_t rb = g->row_bytes;
    if (!g->span) {
        if (pitch == rb && sstep == (int64_t)rb) { /* one contiguous block */
            memcpy(smem + sa, src, (size_t)n * rb);
            return;
        }
        if (rb == 128) {
            for (uint32_t i = 0; i < n; i++, sa += pitch, src += sstep) memcpy(smem + sa, src, 128);
            return;
        }
        for (uint32_t i = 0; i < n; i++, sa += pitch, src += sstep) memcpy(smem + sa, src, rb);
        return;
    }
    for (uint32_t i = 0; i < n; i++, sa += pitch, src += sstep) {
        uint32_t x = ((sa >> 7) & g->swmask) << g->swshift;
        if (g->flip8 && ((sa >> 7) & 1u)) {
            for (uint32_t j = 0; j < rb; j += 16) {
                uint8_t *d = smem + ((sa + j) ^ x);
                memcpy(d, src + j + 8, 8);
                memcpy(d + 8, src + j, 8);
            }
        } else if (rb == 128) {
            for (uint32_t j = 0; j < 128; j += 16) memcpy(smem + ((sa + j) ^ x), src + j, 16);
        } else {
            for (uint32_t j = 0; j < rb; j += 16) memcpy(smem + ((sa + j) ^ x), src + j, 16);
        }
    }
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(TMA_NO_AVX2)
#include <immintrin.h>
#define TMA_HAVE_AVX2 1
/* The same moves 32 bytes at a time (the baseline x86-64 target has only
 * 16-byte vectors, which halves the row rate).  With swshift 4 a 32-byte
 * block keeps its two 16-byte chunks together, the pair swapped when bit 4
 * of the XOR is set; with swshift 5/6 blocks move whole.  Chosen at run time
 * (rows_put), so the binary still runs on CPUs without AVX2. */
__attribute__((target("avx2"))) static inline void row_avx2(uint8_t *smem, uint32_t sa, uint32_t x,
                                                            const uint8_t *src, uint32_t rb)
{
    uint32_t bx = x & ~31u;
    uint32_t j = 0;
    if (x & 16u) {
        for (; j + 32 <= rb; j += 32) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(src + j));
            _mm256_storeu_si256((__m256i *)(smem + ((sa + j) ^ bx)), _mm256_permute4x64_epi64(v, 0x4E));
        }
    } else {
        for (; j + 32 <= rb; j += 32)
            _mm256_storeu_si256((__m256i *)(smem + ((sa + j) ^ bx)),
                                _mm256_loadu_si256((const __m256i *)(src + j)));
    }
    if (j < rb) /* a last 16-byte chunk */
        _mm_storeu_si128((__m128i *)(smem + ((sa + j) ^ x)), _mm_loadu_si128((const __m128i *)(src + j)));
}

/* A whole 128-byte row, unrolled (the common 64 x f16 / 32 x f32 box). */
__attribute__((target("avx2"))) static inline void row128_avx2(uint8_t *smem, uint32_t sa, uint32_t x,
                                                               const uint8_t *src)
{
    __m256i v0 = _mm256_loadu_si256((const __m256i *)src);
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(src + 32));
    __m256i v2 = _mm256_loadu_si256((const __m256i *)(src + 64));
    __m256i v3 = _mm256_loadu_si256((const __m256i *)(src + 96));
    if (x & 16u) {
        v0 = _mm256_permute4x64_epi64(v0, 0x4E);
        v1 = _mm256_permute4x64_epi64(v1, 0x4E);
        v2 = _mm256_permute4x64_epi64(v2, 0x4E);
        v3 = _mm256_permute4x64_epi64(v3, 0x4E);
    }
    uint32_t bx = x & ~31u;
    _mm256_storeu_si256((__m256i *)(smem + (sa ^ bx)), v0);
    _mm256_storeu_si256((__m256i *)(smem + ((sa + 32) ^ bx)), v1);
    _mm256_storeu_si256((__m256i *)(smem + ((sa + 64) ^ bx)), v2);
    _mm256_storeu_si256((__m256i *)(smem + ((sa + 96) ^ bx)), v3);
}

/* aligned(64): the loops below are the whole load fast path, and where
 * they fell against 32/64-byte boundaries moved bench_tma by 10% (0.53x vs
 * 0.58x of memcpy) when unrelated code elsewhere in the binary grew by 16
 * bytes; a fixed start makes the figure a property of this code. */
__attribute__((target("avx2"), aligned(64))) static void
rows_put_avx2(uint8_t *smem, uint32_t sa, uint32_t pitch, const uint8_t *src, int64_t sstep, uint32_t n,
              const geom *g)
{
    uint32_t rb = g->row_bytes;
    if (!g->span) {
        if (pitch == rb && sstep == (int64_t)rb) {
            memcpy(smem + sa, src, (size_t)n * rb);
            return;
        }
        if (rb == 128) {
            for (uint32_t i = 0; i < n; i++, sa += pitch, src += sstep) row128_avx2(smem, sa, 0, src);
            return;
        }
        for (uint32_t i = 0; i < n; i++, sa += pitch, src += sstep) row_avx2(smem, sa, 0, src, rb);
        return;
    }
    if (g->flip8 || (sa | pitch) % 32) {
        rows_put_c(smem, sa, pitch, src, sstep, n, g);
        return;
    }
    uint32_t mask = g->swmask, sh = g->swshift;
    if (rb == 128) {
        for (uint32_t i = 0; i < n; i++, sa += pitch, src += sstep)
            row128_avx2(smem, sa, ((sa >> 7) & mask) << sh, src);
        return;
    }
    for (uint32_t i = 0; i < n; i++, sa += pitch, src += sstep)
        row_avx2(smem, sa, ((sa >> 7) & mask) << sh, src, rb);
}
#endif

/* n whole rows through the swizzle into smem (see run_ok). */
static inline void rows_put(uint8_t *smem, uint32_t sa, uint32_t pitch, const uint8_t *src, int64_t sstep,
                            uint32_t n, const geom *g)
{
#ifdef TMA_HAVE_AVX2
    if (__builtin_cpu_supports("avx2")) {
        rows_put_avx2(smem, sa, pitch, src, sstep, n, g);
        return;
    }
#endif
    rows_put_c(smem, sa, pitch, src, sstep, n, g);
}

/* ---- walks over rows --------------------------------------------------------- */

/* Hot path for loads of boxes wholly inside the tensor (the common case
 * in real kernels): pointer arithmetic instead of per-row look-ups; without
 * interleave the rows go to rows_put one dimension-1 run at a time, else
 * row by row through smem_put (whole 128-byte swizzled rows as eight
 * 16-byte chunks whose XOR is constant along the row). */
static int walk_tile_inside(ctx *c, const uint32_t *cnt, const uint32_t *st)
{
    const geom *g = c->g;
    const tma_map *m = g->m;
    const tma_request *r = c->r;
    const uint8_t *base = c->al->host + (m->global_address - c->al->base);
    int64_t off0 = (int64_t)r->coords[0] * g->s_unit;
    for (int i = 1; i < g->rank; i++) off0 += (int64_t)r->coords[i] * (int64_t)m->global_strides[i];
    int64_t step[5] = {0, 0, 0, 0, 0}, back[5] = {0, 0, 0, 0, 0};
    for (int i = 1; i < g->rank; i++) {
        step[i] = (int64_t)st[i] * (int64_t)m->global_strides[i];
        back[i] = step[i] * (int64_t)(cnt[i] - 1);
    }
    uint32_t k[5] = {0, 0, 0, 0, 0};
    const uint8_t *src = base + off0;
    uint32_t sa = r->smem_off;
    uint8_t *smem = r->smem;
    if (run_ok(g, sa)) {
        /* runs along dimension 1 (the whole box for 2D), an odometer over
         * dimensions 2..rank-1 between runs */
        uint32_t run = g->rank > 1 ? cnt[1] : 1;
        int64_t rstep = g->rank > 1 ? step[1] : 0;
        for (uint32_t row = 0; row < g->nrows; row += run, sa += run * g->pitch) {
            rows_put(smem, sa, g->pitch, src, rstep, run, g);
            for (int i = 2; i < g->rank; i++) {
                if (++k[i] < cnt[i]) { src += step[i]; break; }
                k[i] = 0;
                src -= back[i];
            }
        }
        return TMA_OK;
    }
    int full128 = g->span == 128 && g->row_bytes == 128 && g->swshift == 4 && !g->flip8 && !(sa & 127);
    for (uint32_t row = 0; row < g->nrows; row++, sa += g->pitch) {
        if (full128) {
            uint32_t x = ((sa >> 7) & g->swmask) << 4;
            uint8_t *d = smem + sa;
            for (uint32_t j = 0; j < 128; j += 16) memcpy(d + (j ^ x), src + j, 16);
        } else {
            smem_put(c, sa, src);
        }
        for (int i = 1; i < g->rank; i++) {
            if (++k[i] < cnt[i]) { src += step[i]; break; }
            k[i] = 0;
            src -= back[i];
        }
    }
    return TMA_OK;
}

static int walk_tile(ctx *c)
{
    const geom *g = c->g;
    const tma_map *m = g->m;
    const tma_request *r = c->r;
    int64_t rc[5] = {0, 0, 0, 0, 0};
    uint32_t cnt[5] = {1, 1, 1, 1, 1}, st[5] = {1, 1, 1, 1, 1}, k[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < g->rank; i++) {
        rc[i] = r->coords[i];
        st[i] = m->element_strides[i] ? m->element_strides[i] : 1;
        if (i) cnt[i] = (uint32_t)ceil_div(m->box_dim[i], st[i]);
    }
    if (r->kind == TMA_LOAD && g->fast && g->es0 == 1 && c->al) {
        int inside = rc[0] >= 0 && rc[0] + (int64_t)g->row_elems <= (int64_t)m->global_dim[0];
        for (int i = 1; i < g->rank && inside; i++)
            inside = rc[i] >= 0 && rc[i] + (int64_t)(cnt[i] - 1) * st[i] < (int64_t)m->global_dim[i];
        if (inside) return walk_tile_inside(c, cnt, st);
    }
    uint32_t sa = r->smem_off;
    for (uint32_t row = 0; row < g->nrows; row++, sa += g->pitch) {
        int rc2 = do_row(c, rc, sa);
        if (rc2) return rc2;
        for (int i = 1; i < g->rank; i++) { /* odometer over dims 1..rank-1 */
            if (++k[i] < cnt[i]) { rc[i] += st[i]; break; }
            k[i] = 0;
            rc[i] = r->coords[i];
        }
    }
    return TMA_OK;
}

static int walk_gather4(ctx *c)
{
    const tma_request *r = c->r;
    int64_t rc[5] = {r->coords[0], 0, 0, 0, 0};
    uint32_t sa = r->smem_off;
    for (int i = 0; i < 4; i++, sa += c->g->pitch) {
        rc[1] = r->coords[1 + i];
        int rc2 = do_row(c, rc, sa);
        if (rc2) return rc2;
    }
    return TMA_OK;
}

/* One step of the im2col pixel walk over the spatial dimensions from..S-1
 * (innermost first): each wraps to its lower corner past its upper one and
 * carries into the next.  Returns 1 when all of them wrapped, i.e. the
 * image coordinate advances. */
static int im2col_step(int64_t *pos, const int64_t *lo, const int64_t *hi, const uint32_t *st, int from, int S)
{
    for (int d = from; d < S; d++) {
        pos[d] += st[d];
        if (pos[d] <= hi[d])
            return 0;
        pos[d] = lo[d];
    }
    return 1;
}

/* im2col through an interleaved map (plan: g->il_im2col), as the H100 does
 * it (tests/hw/random_tma/README.md): the dimensions shift down by one.  A
 * pixel is one 16/32-byte slice; dimensions 0..rank-3 are walked as the
 * spatial ones, dimension d from coordinate d with pixel_box corner d,
 * im2col offset d and traversal stride d (dimension 0 innermost, wrapping
 * to its lower corner); dimension rank-2 stays at its coordinate and
 * dimension rank-1 is the image, stepped by its traversal stride when the
 * walk wraps.  The filter base check (check()) follows the same shift.
 * With the corners 0 and channels_per_pixel = global_dim[0] this reads as
 * "a pixel of channels_per_pixel slices along W, H pinned", which is how
 * the rank-4 probes of tests/conformance/interleave first showed it. */
static int walk_im2col_il(ctx *c)
{
    const geom *g = c->g;
    const tma_map *m = g->m;
    const tma_request *r = c->r;
    int S = g->rank - 2, N = g->rank - 1;
    int64_t pos[3] = {0, 0, 0}, lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, off[3] = {0, 0, 0};
    uint32_t st[3] = {1, 1, 1};
    for (int d = 0; d < S; d++) {
        lo[d] = m->lower_corner[d];
        hi[d] = (int64_t)m->global_dim[d] - 1 + m->upper_corner[d];
        st[d] = m->element_strides[d] ? m->element_strides[d] : 1;
        pos[d] = r->coords[d];
        if (d < r->n_im2col_off) off[d] = r->im2col_off[d];
    }
    int64_t rc[5] = {0, 0, 0, 0, 0}, n = r->coords[N];
    int64_t nst = m->element_strides[N] ? m->element_strides[N] : 1; /* ld_il2col_012, _055 */
    rc[N - 1] = r->coords[N - 1]; /* pinned */
    uint32_t sa = r->smem_off;
    for (uint32_t p = 0; p < g->nrows; p++, sa += g->pitch) {
        for (int d = 0; d < S; d++) rc[d] = pos[d] + off[d];
        rc[N] = n;
        int rc2 = do_row(c, rc, sa);
        if (rc2) return rc2;
        if (im2col_step(pos, lo, hi, st, 0, S)) n += nst;
    }
    return TMA_OK;
}

/* im2col (§5.5.4): pixels_per_column pixels walk the bounding box in
 * W, H, D, N order from the filter base, each spatial position stepping by
 * its traversal stride and wrapping to the lower corner, the image by its
 * own traversal stride; the im2col offsets are added to the position to get
 * the tensor coordinate. */
static int walk_im2col(ctx *c)
{
    const geom *g = c->g;
    if (g->il_im2col) return walk_im2col_il(c);
    const tma_map *m = g->m;
    const tma_request *r = c->r;
    int S = g->rank - 2, N = g->rank - 1;
    int64_t pos[3] = {0, 0, 0}, lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, off[3] = {0, 0, 0};
    uint32_t st[3] = {1, 1, 1};
    for (int d = 0; d < S; d++) {
        lo[d] = m->lower_corner[d];
        hi[d] = (int64_t)m->global_dim[d + 1] - 1 + m->upper_corner[d];
        st[d] = m->element_strides[d + 1] ? m->element_strides[d + 1] : 1;
        pos[d] = r->coords[d + 1];
        if (r->mode == TMA_IM2COL && d < r->n_im2col_off) off[d] = r->im2col_off[d];
    }
    int64_t n = r->coords[N];
    /* the image steps by its own traversal stride when the walk wraps
     * (tests/hw/random_tma ld_im2col_nst_*: element_strides[rank-1] 2 or 3) */
    int64_t nst = m->element_strides[N] ? m->element_strides[N] : 1;
    int64_t rc[5] = {r->coords[0], 0, 0, 0, 0};
    uint32_t sa = r->smem_off;
    if (r->kind == TMA_LOAD && c->al && run_ok(g, sa) && rc[0] >= 0 &&
        rc[0] + (int64_t)g->row_elems <= (int64_t)m->global_dim[0]) {
        /* Loads whose channel range lies inside the tensor (run_ok): one
         * W row of the bounding box at a time.  Its pixels' W coordinates
         * are w0, w0 + st, ...; the in-bounds ones are a contiguous range
         * [ja, jb) moved by one rows_put, the rest OOB-filled by do_row. */
        const uint8_t *base = c->al->host + (m->global_address - c->al->base) + rc[0] * g->s_unit;
        int64_t W = (int64_t)m->global_dim[1], st0 = st[0];
        int64_t wstride = (int64_t)m->global_strides[1];
        for (uint32_t p = 0; p < g->nrows;) {
            int64_t w0 = pos[0] + off[0];
            int64_t k = pos[0] <= hi[0] ? (hi[0] - pos[0]) / st0 + 1 : 1;
            if (k > (int64_t)(g->nrows - p)) k = g->nrows - p;
            int inb = (uint64_t)n < m->global_dim[N];
            int64_t o = n * (int64_t)m->global_strides[N];
            for (int d = 1; d < S; d++) {
                rc[d + 1] = pos[d] + off[d];
                inb = inb && (uint64_t)rc[d + 1] < m->global_dim[d + 1];
                o += rc[d + 1] * (int64_t)m->global_strides[d + 1];
            }
            rc[N] = n;
            int64_t ja = 0, jb = 0;
            if (inb && w0 < W) {
                ja = w0 >= 0 ? 0 : ceil_div(-w0, st0);
                jb = (W - 1 - w0) / st0 + 1;
                if (jb > k) jb = k;
                if (ja > jb) ja = jb;
            }
            for (int64_t j = 0; j < k; j++) {
                if (j == ja && jb > ja) {
                    rows_put(r->smem, sa + (uint32_t)j * g->pitch, g->pitch,
                             base + o + (w0 + j * st0) * wstride, st0 * wstride, (uint32_t)(jb - ja), g);
                    j = jb - 1;
                    continue;
                }
                rc[1] = w0 + j * st0;
                int rc2 = do_row(c, rc, sa + (uint32_t)j * g->pitch);
                if (rc2) return rc2;
            }
            p += (uint32_t)k;
            sa += (uint32_t)k * g->pitch;
            pos[0] += k * st0;
            if (pos[0] > hi[0]) { /* wrap as below */
                pos[0] = lo[0];
                if (im2col_step(pos, lo, hi, st, 1, S)) n += nst;
            }
        }
        return TMA_OK;
    }
    for (uint32_t p = 0; p < g->nrows; p++, sa += g->pitch) {
        for (int d = 0; d < S; d++) rc[d + 1] = pos[d] + off[d];
        rc[N] = n;
        int rc2 = do_row(c, rc, sa);
        if (rc2) return rc2;
        if (im2col_step(pos, lo, hi, st, 0, S)) n += nst;
    }
    return TMA_OK;
}

/* im2col::w / ::w::128 (§5.5.5): D and H stay at their coordinates, W walks
 * the box [lower_w, dim_w - 1 + upper_w] (all shifted by wOffset) with the W
 * traversal stride, wrapping to the next image.  ::w loads pixels_per_column
 * pixels then wHalo halo pixels; ::w::128 loads 128 pixels as four groups
 * of 32, each followed by wHalo halo pixels.  A halo pixel is the next
 * strided W position right of its group's last pixel, in the same image
 * (the filter's right overhang), OOB-filled past the tensor edge.  Not
 * verifiable on sm_90 (Blackwell forms); tests/unit/test_tma_blackwell.c
 * pins this reading. */
static int walk_im2col_w(ctx *c)
{
    const geom *g = c->g;
    const tma_map *m = g->m;
    const tma_request *r = c->r;
    int N = g->rank - 1;
    int64_t lo = (int64_t)m->lower_corner[0] + r->w_offset;
    int64_t hi = (int64_t)m->global_dim[1] - 1 + m->upper_corner[0] + r->w_offset;
    int64_t st = m->element_strides[1] ? m->element_strides[1] : 1;
    int64_t rc[5] = {r->coords[0], 0, 0, 0, 0};
    for (int i = 2; i < N; i++) rc[i] = r->coords[i];
    int64_t w = (int64_t)r->coords[1] + r->w_offset, n = r->coords[N];
    uint32_t group = r->mode == TMA_IM2COL_W128 ? 32 : m->pixels_per_column;
    uint32_t ngroups = r->mode == TMA_IM2COL_W128 ? 4 : 1;
    uint32_t sa = r->smem_off;
    for (uint32_t gi = 0; gi < ngroups; gi++) {
        int64_t lw = w, ln = n;
        for (uint32_t p = 0; p < group; p++, sa += g->pitch) {
            rc[1] = w; rc[N] = n;
            int rc2 = do_row(c, rc, sa);
            if (rc2) return rc2;
            lw = w; ln = n;
            w += st;
            if (w > hi) { w = lo; n++; }
        }
        /* halo: the wHalo positions right of the group's last pixel, same
         * image, never wrapping (past the image edge they are OOB fill) */
        for (uint32_t h = 1; h <= r->w_halo; h++, sa += g->pitch) {
            rc[1] = lw + (int64_t)h * st; rc[N] = ln;
            int rc2 = do_row(c, rc, sa);
            if (rc2) return rc2;
        }
    }
    return TMA_OK;
}

int tma_execute(const tma_request *r, mem_global *gm, uint32_t *tx_bytes, char *why, size_t whylen)
{
    geom g;
    int rc = check(r, &g, why, whylen);
    if (tx_bytes) *tx_bytes = rc ? 0 : g.tx;
    if (rc || r->kind == TMA_PREFETCH) return rc;
    ctx c = {r, &g, gm, NULL, 0, 0, why, whylen};
    /* One look-up for the whole tensor when it lies in one allocation. */
    const tma_map *m = r->map;
    int64_t ext = g.gdim0_bytes;
    for (int i = 1; i < m->rank; i++)
        if (m->global_dim[i]) ext += (int64_t)(m->global_dim[i] - 1) * (int64_t)m->global_strides[i];
    const mem_alloc *al = mem_global_find(gm, m->global_address);
    if (al && m->global_address + (uint64_t)ext <= al->base + al->size) {
        c.al = al;
        c.lo = (int64_t)m->global_address;
        c.hi = (int64_t)(m->global_address + (uint64_t)ext);
    }
    switch (r->mode) {
    case TMA_TILE: return walk_tile(&c);
    case TMA_GATHER4: case TMA_SCATTER4: return walk_gather4(&c);
    case TMA_IM2COL: case TMA_IM2COL_NO_OFFS: return walk_im2col(&c);
    case TMA_IM2COL_W: case TMA_IM2COL_W128: return walk_im2col_w(&c);
    default: return fault(why, whylen, TMA_FAULT_ILLEGAL_INSTRUCTION, "unknown mode");
    }
}
