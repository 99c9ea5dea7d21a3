/* encode.c — the three tensor-map encoders, and the 128-byte map format.
 *
 * VALIDATION.  tma_encode_tiled / _im2col / _im2col_wide accept exactly the
 * argument sets the CUDA driver accepts (cuTensorMapEncodeTiled, ...Im2col,
 * ...Im2colWide; H100, driver 580.159.04, CUDA 13.0) and return
 * TMA_ERROR_INVALID_VALUE (CUDA_ERROR_INVALID_VALUE) otherwise, with a
 * sentence naming the rule.  The rules come from the documentation comments
 * in cuda.h, corrected and completed by the 1778 tensor maps of
 * ../shared/conformance (600 sets in encode_validation/, the rest beside the
 * other suites), which these rules reproduce without exception
 * (tests/unit/test_tma_encode.c).  What the data changed:
 *
 *   - sub-byte types (16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B) never
 *     encode on sm_90: 26 of 26 sets fail, one with no other fault;
 *   - 128B_ATOM_32B / _ATOM_32B_FLIP_8B / _ATOM_64B swizzles never encode on
 *     sm_90: 44 of 44 fail, 36 with no other fault;
 *   - "interleave 32B requires swizzle 32B" (cuda.h) is NOT enforced: 7 sets
 *     with 32B interleave and swizzle NONE/64B/128B encode;
 *   - im2col_wide, documented as compute capability 10.0 only, encodes on
 *     sm_90, also with swizzle NONE (documented as unsupported there);
 *   - boxDim[0] * elementSize must be a multiple of 16 bytes for every
 *     interleave, not only NONE (1 set: UINT64, 16B interleave, box 3 -> 24 B;
 *     every interleaved set that encodes has a multiple of 16);
 *   - im2col / im2col_wide: channelsPerPixel * elementSize must be a
 *     multiple of 16 bytes (not in cuda.h; 12 sets, 3 with no other fault);
 *   - im2col: the bounding box must be non-empty in EVERY spatial
 *     dimension: globalDim[1+i] + upperCorner[i] - lowerCorner[i] > 0 for
 *     i = 0 (W) .. rank-3 (32 sets, 22 with no other fault).  Corner arrays
 *     are in launch-file order, W first;
 *   - pixelsPerColumn = 0 fails in W128 mode too (cuda.h: "ignored");
 *   - a box larger than the tensor is NOT by itself an error (boxDim[i] >
 *     globalDim[i] encodes for i >= 1 in 97 sets); the README's correlation
 *     comes from the other rules (mostly strides not a multiple of 16).
 *
 * LAYOUT.  tma_pack writes the real driver's layout, inferred from the
 * driver_tensormaps.jsonl files (1306 maps the H100 driver wrote): every
 * bit of all 1306 maps is reproduced.  Bit offsets (little-endian, bit 0 =
 * LSB of byte 0):
 *
 *     0..63   global address
 *    64..67   0 tiled, 1 im2col (im2col_wide too: see below)
 *    68..70   rank - 1
 *    71..74   hardware element type (UINT8 0 .. INT64 5, FLOAT16 6,
 *             FLOAT32/TFLOAT32 7, *_FTZ 8, FLOAT64 9, BFLOAT16 10)
 *    75..76   interleave          77..78  swizzle (NONE, 32B, 64B, 128B)
 *    79       OOB NaN fill        80      tf32 (TFLOAT32, TFLOAT32_FTZ)
 *    81..82   L2 promotion
 *    96+32i   globalStrides[i] >> 4, low 32 bits (i = 0..3)
 *   224+4i    globalStrides[i] >> 36 (ptxi's guess: no stride >= 2^36 in
 *             the data; always zero in driver maps seen)
 *   256+32i   globalDim[i] - 1 (i = 0..4)
 *   416+3i    elementStrides[i] - 1 (i = 0..4)
 *   440..447  tiled: boxDim[0] - 1;  im2col: channelsPerPixel - 1
 *   448+8i    tiled: boxDim[i] - 1 (i = 1..4)
 *   448+w*i   im2col: lower corner i (W first), two's complement, w = 16,
 *             8, 5 bits for rank 3, 4, 5;  464+w*i: upper corner i
 *   480..489  im2col: pixelsPerColumn - 1
 *   512..543  bytes of one box: elemSize * prod(floor(boxDim[i] /
 *             elementStrides[i])) over ALL dims (elementStrides[0] too,
 *             even with interleave NONE), or channelsPerPixel * elemSize *
 *             pixelsPerColumn for im2col.  Floor, not ceil: 84 maps differ.
 *   576..607  shared-memory alignment the swizzle needs: 16, 256, 512, 1024
 *   everything else zero.
 *
 * ptxi extensions (never written by the sm_90 driver, no Blackwell map
 * seen): bits 83..84 hold the swizzle atomicity (PTX .swizzle_atomicity:
 * 0 16B, 1 32B, 2 32B + 8B flip, 3 64B; with swizzle 128B these are
 * swizzles 4..6 = atomicity + 3), bit 85 the 96B swizzle mode (PTX
 * .swizzle_mode 4; bits 77..78 then 0), and element-type codes 13..15 the
 * sub-byte types (16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B: PTX .elemtype
 * 13..15, continuing the rule below that the code is the PTX value).  An
 * im2col_wide map is byte-identical to an im2col map on this driver (W/W128
 * is not stored), so tma_decode reports it as TMA_MAP_IM2COL; the
 * instruction's im2col::w / ::w::128 qualifier carries the mode.
 *
 * TENSORMAP.REPLACE (tma_replace), as an H100 does it (tests/hw/src/
 * tmap_replace.cu and tmap_replace_use.cu, results in tests/unit/
 * test_tmap_replace.c): it writes only the field's bits, in the encoding
 * above -- .rank new_val as is (rank - 1), box/dim/element stride as
 * value - 1, .global_stride in bytes (>> 4, the low 4 bits dropped), ord i
 * of .global_stride = globalStrides[i] (dimension i + 1), .elemtype's code
 * = the PTX value for 0..10 and 7/8 plus bit 80 for 11/12 (tf32, tf32.ftz).
 * Bit 80 is never cleared: .elemtype 7 after 11 leaves a tf32 map.  The
 * box byte count and the alignment word are NOT rewritten, and the TMA
 * does not use them (a replaced box_dim / elemtype / element_stride
 * completes the mbarrier with the NEW box's bytes; a swizzle changed to
 * 128B runs with the stale 16).  Fields of dimensions >= rank stay as they
 * were after .rank shrinks, and a load through that map works.
 *
 * DECODE.  tma_decode reads the fields, then packs them again and requires
 * the same 128 bytes, except where tensormap.replace legitimately leaves
 * other bits (fields of dimensions >= rank, the box byte count, and the
 * alignment word, which must merely be one the driver writes or 0), so
 * arbitrary bytes are rejected with the first byte that differs.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include "tma/tma.h"

/* ---- bit fields of the 128-byte map ------------------------------------ */

enum {
    F_ADDR = 0, F_KIND = 64, F_RANK = 68, F_DTYPE = 71, F_INTERLEAVE = 75, F_SWIZZLE = 77,
    F_OOB = 79, F_TF32 = 80, F_L2 = 81, F_SWIZZLE_EXT = 83, F_SWIZZLE_96 = 85, F_STRIDE = 96, F_STRIDE_HI = 224,
    F_DIM = 256, F_ESTRIDE = 416, F_BOX0 = 440, F_BOX1 = 448, F_CORNER_LO = 448,
    F_CORNER_UP = 464, F_PPC = 480, F_BOX_BYTES = 512, F_SMEM_ALIGN = 576,
};

static void put_bits(uint8_t *m, unsigned pos, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++, pos++) {
        uint8_t bit = (uint8_t)(1u << (pos & 7));
        if (v >> i & 1)
            m[pos >> 3] |= bit;
        else
            m[pos >> 3] &= (uint8_t)~bit;
    }
}

static uint64_t get_bits(const uint8_t *m, unsigned pos, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++, pos++)
        v |= (uint64_t)(m[pos >> 3] >> (pos & 7) & 1) << i;
    return v;
}

static void copy_bits(uint8_t *dst, const uint8_t *src, unsigned pos, unsigned width)
{
    put_bits(dst, pos, width, get_bits(src, pos, width));
}

static int64_t sign_extend(uint64_t v, unsigned width)
{
    uint64_t sign = 1ull << (width - 1);
    return (int64_t)((v ^ sign) - sign);
}

/* Hardware element-type code per TMA_DT_* (sub-byte types: ptxi's guess,
 * the sm_90 driver never encodes them). */
static const int8_t hw_dtype[] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 7, 8, 13, 14, 15};

/* PTX .elemtype new_val (PTX ISA Table 33) -> TMA_DT_*: not cuda.h's order
 * ("The values of .elemtype do not correspond to the values of the
 * CUtensorMapDataType enum"): .f32.ftz is 8, .f64 9, .bf16 10. */
static const uint8_t ptx_elemtype[16] = {
    TMA_DT_UINT8, TMA_DT_UINT16, TMA_DT_UINT32, TMA_DT_INT32, TMA_DT_UINT64, TMA_DT_INT64,
    TMA_DT_FLOAT16, TMA_DT_FLOAT32, TMA_DT_FLOAT32_FTZ, TMA_DT_FLOAT64, TMA_DT_BFLOAT16,
    TMA_DT_TFLOAT32, TMA_DT_TFLOAT32_FTZ, TMA_DT_16U4_ALIGN8B, TMA_DT_16U4_ALIGN16B, TMA_DT_16U6_ALIGN16B,
};
static const char *const ptx_elemtype_name[16] = {
    ".u8", ".u16", ".u32", ".s32", ".u64", ".s64", ".f16", ".f32", ".f32.ftz", ".f64", ".bf16",
    ".tf32", ".tf32.ftz", ".b4x16", ".b4x16_p64", ".b6x16_p32",
};

static int is_tf32(int dt) { return dt == TMA_DT_TFLOAT32 || dt == TMA_DT_TFLOAT32_FTZ; }

/* im2col corner field width (bits) per rank: cuda.h's ranges. */
static unsigned corner_bits(unsigned rank) { return rank == 3 ? 16 : rank == 4 ? 8 : 5; }

static uint32_t swizzle_span(int swizzle)
{
    static const uint32_t span[] = {0, 32, 64, 128, 128, 128, 128, 96};
    return swizzle >= 0 && swizzle <= TMA_SWIZZLE_96B ? span[swizzle] : 0;
}

/* The alignment word: where the swizzle pattern repeats (PTX ISA §5.5.7:
 * 256, 512, 1024 bytes; 96B repeats every 256), 16 without a swizzle. */
static uint32_t swizzle_align(int swizzle)
{
    static const uint32_t align[] = {16, 256, 512, 1024, 1024, 1024, 1024, 256};
    return swizzle >= 0 && swizzle <= TMA_SWIZZLE_96B ? align[swizzle] : 16;
}

uint32_t tma_map_box_bytes(const tma_map *m)
{
    uint64_t bytes = tma_dtype_bits(m->data_type) / 8;
    if (m->kind != TMA_MAP_TILED)
        return (uint32_t)(bytes * m->channels_per_pixel * m->pixels_per_column);
    for (unsigned i = 0; i < m->rank && i < 5; i++)
        bytes *= m->element_strides[i] ? m->box_dim[i] / m->element_strides[i] : 0;
    return (uint32_t)bytes;
}

void tma_pack(const tma_map *m, uint8_t map[128])
{
    memset(map, 0, 128);
    unsigned rank = m->rank >= 1 && m->rank <= 5 ? m->rank : 1;
    int dt = m->data_type < 16 ? m->data_type : 0;
    put_bits(map, F_ADDR, 64, m->global_address);
    put_bits(map, F_KIND, 4, m->kind == TMA_MAP_TILED ? 0 : 1);
    put_bits(map, F_RANK, 3, rank - 1);
    put_bits(map, F_DTYPE, 4, hw_dtype[dt] < 0 ? 0 : (uint64_t)hw_dtype[dt]);
    put_bits(map, F_INTERLEAVE, 2, m->interleave);
    int sw = m->swizzle;
    put_bits(map, F_SWIZZLE, 2, sw <= TMA_SWIZZLE_128B ? (unsigned)sw : sw == TMA_SWIZZLE_96B ? 0 : TMA_SWIZZLE_128B);
    if (sw > TMA_SWIZZLE_128B && sw <= TMA_SWIZZLE_128B_ATOM_64B)
        put_bits(map, F_SWIZZLE_EXT, 2, (unsigned)(sw - TMA_SWIZZLE_128B));
    put_bits(map, F_SWIZZLE_96, 1, sw == TMA_SWIZZLE_96B);
    put_bits(map, F_OOB, 1, m->oob_fill);
    put_bits(map, F_TF32, 1, is_tf32(dt));
    put_bits(map, F_L2, 2, m->l2_promotion);
    for (unsigned i = 1; i < rank; i++) {
        put_bits(map, F_STRIDE + 32 * (i - 1), 32, m->global_strides[i] >> 4);
        put_bits(map, F_STRIDE_HI + 4 * (i - 1), 4, m->global_strides[i] >> 36);
    }
    for (unsigned i = 0; i < rank; i++) {
        put_bits(map, F_DIM + 32 * i, 32, m->global_dim[i] - 1);
        put_bits(map, F_ESTRIDE + 3 * i, 3, m->element_strides[i] - 1);
    }
    if (m->kind == TMA_MAP_TILED) {
        put_bits(map, F_BOX0, 8, m->box_dim[0] - 1);
        for (unsigned i = 1; i < rank; i++)
            put_bits(map, F_BOX1 + 8 * (i - 1), 8, m->box_dim[i] - 1);
    } else {
        unsigned w = corner_bits(rank);
        unsigned n = m->kind == TMA_MAP_IM2COL_WIDE ? 1 : rank >= 3 ? rank - 2 : 0;
        put_bits(map, F_BOX0, 8, m->channels_per_pixel - 1);
        for (unsigned i = 0; i < n; i++) {
            put_bits(map, F_CORNER_LO + w * i, w, (uint64_t)(int64_t)m->lower_corner[i]);
            put_bits(map, F_CORNER_UP + w * i, w, (uint64_t)(int64_t)m->upper_corner[i]);
        }
        put_bits(map, F_PPC, 10, m->pixels_per_column - 1);
    }
    put_bits(map, F_BOX_BYTES, 32, tma_map_box_bytes(m));
    put_bits(map, F_SMEM_ALIGN, 32, swizzle_align(m->swizzle));
}

/* ---- diagnostics --------------------------------------------------------- */

static int fail(char *why, size_t whylen, const char *fmt, ...)
{
    if (why && whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return TMA_ERROR_INVALID_VALUE;
}

static const char *dt_name(int dt)
{
    const char *s = tma_enum_name("data_type", dt);
    return s ? s : "?";
}

static const char *sw_name(int sw)
{
    const char *s = tma_enum_name("swizzle", sw);
    return s ? s : "?";
}

/* ---- validation ---------------------------------------------------------- */

/* All arguments of the three encoders, normalised into a tma_map plus the
 * raw values that a tma_map cannot hold (rank outside 1..5 and so on). */
typedef struct enc_args {
    tma_map m;
    uint32_t rank;          /* as passed */
    int data_type, interleave, swizzle, l2, oob, mode;
    const uint64_t *gdim, *gstrides;
    const uint32_t *box, *estrides;
    const int *lo, *up;     /* im2col */
    int lo_w, up_w;         /* im2col_wide */
} enc_args;

static int is_float(int dt)
{
    return dt == TMA_DT_FLOAT16 || dt == TMA_DT_FLOAT32 || dt == TMA_DT_FLOAT64 || dt == TMA_DT_BFLOAT16 ||
           dt == TMA_DT_FLOAT32_FTZ || dt == TMA_DT_TFLOAT32 || dt == TMA_DT_TFLOAT32_FTZ;
}

/* The rules every encoder shares, in cuda.h's order. */
static int check_common(const enc_args *a, int kind, char *why, size_t n)
{
    const char *fn = kind == TMA_MAP_TILED ? "tiled" : kind == TMA_MAP_IM2COL ? "im2col" : "im2col_wide";
    if (a->data_type < 0 || a->data_type > TMA_DT_16U6_ALIGN16B)
        return fail(why, n, "tensorDataType %d is not a CUtensorMapDataType", a->data_type);
    if (a->data_type >= TMA_DT_16U4_ALIGN8B)
        return fail(why, n, "tensorDataType %s: sub-byte types do not encode on this sm_90 driver "
                    "(inferred from encode_validation: 26 of 26 sets fail)", dt_name(a->data_type));
    if (kind == TMA_MAP_TILED ? a->rank < 1 || a->rank > 5 : a->rank < 3 || a->rank > 5)
        return fail(why, n, "tensorRank %u: %s maps need rank %s", a->rank, fn,
                    kind == TMA_MAP_TILED ? "1..5" : "3, 4 or 5");
    if (a->interleave < 0 || a->interleave > TMA_INTERLEAVE_32B)
        return fail(why, n, "interleave %d is not a CUtensorMapInterleave", a->interleave);
    if (a->interleave != TMA_INTERLEAVE_NONE && a->rank < 3)
        return fail(why, n, "interleave %s needs tensorRank >= 3 (rank is %u)",
                    tma_enum_name("interleave", a->interleave), a->rank);
    if (a->swizzle == TMA_SWIZZLE_96B)
        return fail(why, n, "swizzle 96B has no CUtensorMapSwizzle: a map gets it only from "
                    "tensormap.replace .swizzle_mode 4 (sm_103a)");
    if (a->swizzle < 0 || a->swizzle > TMA_SWIZZLE_128B_ATOM_64B)
        return fail(why, n, "swizzle %d is not a CUtensorMapSwizzle", a->swizzle);
    if (a->l2 < 0 || a->l2 > TMA_L2_256B)
        return fail(why, n, "l2Promotion %d is not a CUtensorMapL2promotion", a->l2);
    if (a->oob < 0 || a->oob > TMA_OOB_FILL_NAN_REQUEST_ZERO_FMA)
        return fail(why, n, "oobFill %d is not a CUtensorMapFloatOOBfill", a->oob);
    if (!a->gdim || (a->rank > 1 && !a->gstrides) || !a->estrides)
        return fail(why, n, "globalDim, globalStrides and elementStrides must not be NULL");

    uint64_t addr = a->m.global_address;
    if (addr % 16)
        return fail(why, n, "globalAddress 0x%" PRIx64 " is not 16-byte aligned", addr);
    if (a->interleave == TMA_INTERLEAVE_32B && addr % 32)
        return fail(why, n, "globalAddress 0x%" PRIx64 " is not 32-byte aligned, as interleave 32B requires", addr);
    for (uint32_t i = 0; i < a->rank; i++)
        if (a->gdim[i] == 0 || a->gdim[i] > (1ull << 32))
            return fail(why, n, "globalDim[%u] = %" PRIu64 " must be 1..2^32", i, a->gdim[i]);
    for (uint32_t i = 0; i + 1 < a->rank; i++) {
        uint64_t s = a->gstrides[i];
        if (s % 16)
            return fail(why, n, "globalStrides[%u] = %" PRIu64 " is not a multiple of 16 bytes", i, s);
        if (s >= (1ull << 40))
            return fail(why, n, "globalStrides[%u] = %" PRIu64 " is not less than 2^40", i, s);
        if (a->interleave == TMA_INTERLEAVE_32B && s % 32)
            return fail(why, n, "globalStrides[%u] = %" PRIu64 " is not a multiple of 32 bytes, as interleave 32B requires",
                        i, s);
    }
    if (a->swizzle >= TMA_SWIZZLE_128B_ATOM_32B)
        return fail(why, n, "swizzle %s: the 128B atomicity swizzles do not encode on this sm_90 driver "
                    "(inferred from encode_validation: 44 of 44 sets fail)", sw_name(a->swizzle));
    for (uint32_t i = 0; i < a->rank; i++)
        if (a->estrides[i] == 0 || a->estrides[i] > 8)
            return fail(why, n, "elementStrides[%u] = %u must be 1..8", i, a->estrides[i]);
    if (a->oob == TMA_OOB_FILL_NAN_REQUEST_ZERO_FMA && !is_float(a->data_type))
        return fail(why, n, "oobFill NAN_REQUEST_ZERO_FMA needs a floating-point tensorDataType, not %s",
                    dt_name(a->data_type));
    return TMA_SUCCESS;
}

/* The inner extent of a box (boxDim[0] or channelsPerPixel, in bytes). */
static int check_inner(const enc_args *a, const char *what, uint32_t elems, char *why, size_t n)
{
    uint32_t es = tma_dtype_bits(a->data_type) / 8;
    uint64_t bytes = (uint64_t)elems * es;
    /* cuda.h asks this of boxDim[0] with interleave NONE only; the driver
     * asks it of every interleave and of channelsPerPixel too. */
    if (bytes % 16)
        return fail(why, n, "%s * elementSize (%u * %u = %" PRIu64 " bytes) is not a multiple of 16 bytes",
                    what, elems, es, bytes);
    uint32_t span = swizzle_span(a->swizzle);
    if (a->interleave == TMA_INTERLEAVE_NONE && span && bytes > span)
        return fail(why, n, "%s * elementSize (%" PRIu64 " bytes) exceeds the %s swizzle span (%u bytes)",
                    what, bytes, sw_name(a->swizzle), span);
    return TMA_SUCCESS;
}

static int check_pixels(const enc_args *a, char *why, size_t n)
{
    if (a->m.channels_per_pixel == 0 || a->m.channels_per_pixel > 256)
        return fail(why, n, "channelsPerPixel = %u must be 1..256", a->m.channels_per_pixel);
    if (a->m.pixels_per_column == 0 || a->m.pixels_per_column > 1024)
        return fail(why, n, "pixelsPerColumn = %u must be 1..1024%s", a->m.pixels_per_column,
                    a->m.kind == TMA_MAP_IM2COL_WIDE ? " (checked in W128 mode too)" : "");
    return check_inner(a, "channelsPerPixel", a->m.channels_per_pixel, why, n);
}

/* Fill the parts of a tma_map every kind shares (after validation). */
static void fill_common(enc_args *a, int kind)
{
    tma_map *m = &a->m;
    m->kind = (uint8_t)kind;
    m->data_type = (uint8_t)a->data_type;
    m->rank = (uint8_t)a->rank;
    m->interleave = (uint8_t)a->interleave;
    m->swizzle = (uint8_t)a->swizzle;
    m->l2_promotion = (uint8_t)a->l2;
    m->oob_fill = (uint8_t)a->oob;
    m->global_strides[0] = tma_dtype_bits(a->data_type) / 8;
    for (uint32_t i = 0; i < a->rank; i++) {
        m->global_dim[i] = a->gdim[i];
        m->element_strides[i] = a->estrides[i];
        if (i)
            m->global_strides[i] = a->gstrides[i - 1];
    }
}

/* The H100's driver refuses a box larger than an SM's shared memory,
 * 228 KiB: 233472 bytes pass, 237568 fail, counted as the map counts them
 * (elementStrides divide, rounding down; channelsPerPixel x
 * pixelsPerColumn for im2col).  tests/hw/box_limit. */
#define TMA_BOX_BYTES_MAX 233472u

static uint64_t box_bytes64(const tma_map *m)
{
    uint64_t bits = tma_dtype_bits(m->data_type);
    if (m->kind != TMA_MAP_TILED)
        return bits * m->channels_per_pixel * m->pixels_per_column / 8;
    for (unsigned i = 0; i < m->rank && i < 5; i++)
        bits *= m->element_strides[i] ? m->box_dim[i] / m->element_strides[i] : 0;
    return bits / 8;
}

static int finish(enc_args *a, int kind, uint8_t map[128], char *why, size_t n)
{
    if (!map)
        return fail(why, n, "tensorMap must not be NULL");
    fill_common(a, kind);
    uint64_t bb = box_bytes64(&a->m);
    if (bb > TMA_BOX_BYTES_MAX)
        return fail(why, n, "one box is %" PRIu64 " bytes (%s): more than the %u bytes (228 KiB) of shared memory "
                    "of an sm_90 SM", bb, kind == TMA_MAP_TILED ? "elementSize x boxDim[i] / elementStrides[i]"
                    : "elementSize x channelsPerPixel x pixelsPerColumn", TMA_BOX_BYTES_MAX);
    tma_pack(&a->m, map);
    if (why && n)
        why[0] = '\0';
    return TMA_SUCCESS;
}

int tma_encode_tiled(uint8_t map[128], int data_type, uint32_t rank, uint64_t global_address,
                     const uint64_t *global_dim, const uint64_t *global_strides,
                     const uint32_t *box_dim, const uint32_t *element_strides,
                     int interleave, int swizzle, int l2_promotion, int oob_fill,
                     char *why, size_t whylen)
{
    enc_args a = {.rank = rank, .data_type = data_type, .interleave = interleave, .swizzle = swizzle,
                  .l2 = l2_promotion, .oob = oob_fill, .gdim = global_dim, .gstrides = global_strides,
                  .box = box_dim, .estrides = element_strides};
    a.m.global_address = global_address;
    int rc = check_common(&a, TMA_MAP_TILED, why, whylen);
    if (rc)
        return rc;
    if (!box_dim)
        return fail(why, whylen, "boxDim must not be NULL");
    for (uint32_t i = 0; i < rank; i++)
        if (box_dim[i] == 0 || box_dim[i] > 256)
            return fail(why, whylen, "boxDim[%u] = %u must be 1..256", i, box_dim[i]);
    if ((rc = check_inner(&a, "boxDim[0]", box_dim[0], why, whylen)))
        return rc;
    for (uint32_t i = 0; i < rank; i++)
        a.m.box_dim[i] = box_dim[i];
    return finish(&a, TMA_MAP_TILED, map, why, whylen);
}

int tma_encode_im2col(uint8_t map[128], int data_type, uint32_t rank, uint64_t global_address,
                      const uint64_t *global_dim, const uint64_t *global_strides,
                      const int *lower_corner, const int *upper_corner,
                      uint32_t channels_per_pixel, uint32_t pixels_per_column,
                      const uint32_t *element_strides,
                      int interleave, int swizzle, int l2_promotion, int oob_fill,
                      char *why, size_t whylen)
{
    enc_args a = {.rank = rank, .data_type = data_type, .interleave = interleave, .swizzle = swizzle,
                  .l2 = l2_promotion, .oob = oob_fill, .gdim = global_dim, .gstrides = global_strides,
                  .estrides = element_strides, .lo = lower_corner, .up = upper_corner};
    a.m.kind = TMA_MAP_IM2COL;
    a.m.global_address = global_address;
    a.m.channels_per_pixel = channels_per_pixel;
    a.m.pixels_per_column = pixels_per_column;
    int rc = check_common(&a, TMA_MAP_IM2COL, why, whylen);
    if (rc)
        return rc;
    if ((rc = check_pixels(&a, why, whylen)))
        return rc;
    if (!lower_corner || !upper_corner)
        return fail(why, whylen, "pixelBoxLowerCorner and pixelBoxUpperCorner must not be NULL");
    /* cuda.h: one 16-bit offset at rank 3, two 8-bit at rank 4, three 5-bit at rank 5. */
    int hi = (1 << (corner_bits(rank) - 1)) - 1, lo = -hi - 1;
    static const char *const dim_name[] = {"W", "H", "D"};
    for (uint32_t i = 0; i < rank - 2; i++) {
        if (lower_corner[i] < lo || lower_corner[i] > hi)
            return fail(why, whylen, "pixelBoxLowerCorner[%u] (%s) = %d is outside [%d, %d] for rank %u",
                        i, dim_name[i], lower_corner[i], lo, hi, rank);
        if (upper_corner[i] < lo || upper_corner[i] > hi)
            return fail(why, whylen, "pixelBoxUpperCorner[%u] (%s) = %d is outside [%d, %d] for rank %u",
                        i, dim_name[i], upper_corner[i], lo, hi, rank);
    }
    /* Inferred from the conformance data (32 sets): the box spans
     * [lower, dim - 1 + upper] in each of W, H, D and must hold a pixel.
     * With interleave the spatial dimensions are 0..rank-3, one down, as
     * the TMA walks them (tests/hw/random_tma, ld_il2col_*): corner i is
     * checked against globalDim[i] (tests/hw/im2col_box, H100 driver). */
    int sd = interleave == TMA_INTERLEAVE_NONE ? 1 : 0;
    for (uint32_t i = 0; i < rank - 2; i++) {
        int64_t size = (int64_t)global_dim[sd + i] + upper_corner[i] - lower_corner[i];
        if (size <= 0)
            return fail(why, whylen, "the im2col bounding box is empty along %s: globalDim[%u] + upper - lower = "
                        "%" PRIu64 " + %d - %d = %" PRId64 " (must be > 0%s)",
                        dim_name[i], sd + i, global_dim[sd + i], upper_corner[i], lower_corner[i], size,
                        sd ? "" : "; with interleave the spatial dimensions are 0..rank-3");
    }
    for (uint32_t i = 0; i < rank - 2; i++) {
        a.m.lower_corner[i] = lower_corner[i];
        a.m.upper_corner[i] = upper_corner[i];
    }
    return finish(&a, TMA_MAP_IM2COL, map, why, whylen);
}

int tma_encode_im2col_wide(uint8_t map[128], int data_type, uint32_t rank, uint64_t global_address,
                           const uint64_t *global_dim, const uint64_t *global_strides,
                           int lower_corner_width, int upper_corner_width,
                           uint32_t channels_per_pixel, uint32_t pixels_per_column,
                           const uint32_t *element_strides,
                           int interleave, int mode, int swizzle, int l2_promotion, int oob_fill,
                           char *why, size_t whylen)
{
    enc_args a = {.rank = rank, .data_type = data_type, .interleave = interleave, .swizzle = swizzle,
                  .l2 = l2_promotion, .oob = oob_fill, .mode = mode, .gdim = global_dim,
                  .gstrides = global_strides, .estrides = element_strides,
                  .lo_w = lower_corner_width, .up_w = upper_corner_width};
    a.m.kind = TMA_MAP_IM2COL_WIDE;
    a.m.global_address = global_address;
    a.m.channels_per_pixel = channels_per_pixel;
    a.m.pixels_per_column = pixels_per_column;
    if (mode != TMA_IM2COL_WIDE_W && mode != TMA_IM2COL_WIDE_W128)
        return fail(why, whylen, "mode %d is not a CUtensorMapIm2ColWideMode (W or W128)", mode);
    int rc = check_common(&a, TMA_MAP_IM2COL_WIDE, why, whylen);
    if (rc)
        return rc;
    if ((rc = check_pixels(&a, why, whylen)))
        return rc;
    /* The reference says [-32768, 32767]; the H100 driver (580.159.04)
     * takes that only at rank 3 and otherwise the im2col corner's width:
     * [-128, 127] at rank 4, [-16, 15] at rank 5 (tests/hw/wide_encode:
     * 21 encodes).  The map has no other place for the corner. */
    int hi = (1 << (corner_bits(rank) - 1)) - 1, lo = -hi - 1;
    if (lower_corner_width < lo || lower_corner_width > hi)
        return fail(why, whylen, "pixelBoxLowerCornerWidth = %d is outside [%d, %d] for rank %u", lower_corner_width,
                    lo, hi, rank);
    if (upper_corner_width < lo || upper_corner_width > hi)
        return fail(why, whylen, "pixelBoxUpperCornerWidth = %d is outside [%d, %d] for rank %u", upper_corner_width,
                    lo, hi, rank);
    int64_t size = (int64_t)global_dim[1] + upper_corner_width - lower_corner_width;
    if (size <= 0)
        return fail(why, whylen, "the im2col_wide bounding box is empty along W: globalDim[1] + upper - lower = "
                    "%" PRId64 " (must be > 0)", size);
    a.m.lower_corner[0] = lower_corner_width;
    a.m.upper_corner[0] = upper_corner_width;
    a.m.wide_mode = (uint8_t)mode;
    return finish(&a, TMA_MAP_IM2COL_WIDE, map, why, whylen);
}

/* ---- decode ---------------------------------------------------------------- */

int tma_decode(const uint8_t map[128], tma_map *out, char *why, size_t whylen)
{
    tma_map m;
    memset(&m, 0, sizeof m);
    unsigned nz = 0;
    for (int i = 0; i < 128; i++)
        nz |= map[i];
    if (!nz)
        return fail(why, whylen, "not a tensor map: all 128 bytes are zero (never encoded or never written?)");
    unsigned kind = (unsigned)get_bits(map, F_KIND, 4);
    if (kind > 1)
        return fail(why, whylen, "not a tensor map: map type field (bits 64..67) is %u, not 0 (tiled) or 1 (im2col)",
                    kind);
    m.kind = kind ? TMA_MAP_IM2COL : TMA_MAP_TILED;
    m.rank = (uint8_t)(get_bits(map, F_RANK, 3) + 1);
    if (m.rank > 5)
        return fail(why, whylen, "not a tensor map: rank field says %u (must be 1..5)", m.rank);
    if (m.kind == TMA_MAP_IM2COL && m.rank < 3)
        return fail(why, whylen, "not a tensor map: im2col map of rank %u (must be 3..5)", m.rank);
    unsigned hw = (unsigned)get_bits(map, F_DTYPE, 4);
    int tf32 = (int)get_bits(map, F_TF32, 1);
    int dt = -1;
    for (int i = 0; i <= TMA_DT_16U6_ALIGN16B; i++)
        if (hw_dtype[i] == (int)hw && is_tf32(i) == tf32)
            dt = i;
    if (dt < 0 && tf32 && hw != 11 && hw != 12)
        return fail(why, whylen, "invalid tensor map: element type %s (code %u) with the tf32 bit (bit 80) set; "
                    "tensormap.replace .elemtype never clears that bit (H100), so a map once given .elemtype "
                    "11 or 12 (.tf32, .tf32.ftz) keeps it", ptx_elemtype_name[hw], hw);
    if (dt < 0)
        return fail(why, whylen, "not a tensor map: element type code %u%s is not one ptxi knows", hw,
                    tf32 ? " with the tf32 bit" : "");
    m.data_type = (uint8_t)dt;
    m.interleave = (uint8_t)get_bits(map, F_INTERLEAVE, 2);
    if (m.interleave > TMA_INTERLEAVE_32B)
        return fail(why, whylen, "not a tensor map: interleave field is 3");
    unsigned mode = (unsigned)get_bits(map, F_SWIZZLE, 2), atom = (unsigned)get_bits(map, F_SWIZZLE_EXT, 2);
    if (get_bits(map, F_SWIZZLE_96, 1)) {
        if (mode)
            return fail(why, whylen, "not a tensor map: the 96B swizzle bit (85) is set and so is the swizzle "
                        "field (bits 77..78 = %u)", mode);
        mode = 4;
    }
    static const char *const mode_name[] = {"no swizzling", "32B", "64B", "128B", "96B"};
    static const char *const atom_name[] = {"16B", "32B", "32B + 8B flip", "64B"};
    if (atom && mode != TMA_SWIZZLE_128B)
        return fail(why, whylen, "invalid tensor map: swizzle atomicity %s with swizzle mode %s; only the 128B "
                    "mode takes an atomicity other than 16B (PTX ISA §5.5.7 Table 14)",
                    atom_name[atom], mode_name[mode]);
    m.swizzle = (uint8_t)(mode == 4 ? TMA_SWIZZLE_96B : mode + atom);
    m.oob_fill = (uint8_t)get_bits(map, F_OOB, 1);
    m.l2_promotion = (uint8_t)get_bits(map, F_L2, 2);
    m.global_address = get_bits(map, F_ADDR, 64);
    m.global_strides[0] = tma_dtype_bits(dt) / 8;
    for (unsigned i = 0; i < m.rank; i++) {
        m.global_dim[i] = get_bits(map, F_DIM + 32 * i, 32) + 1;
        m.element_strides[i] = (uint32_t)get_bits(map, F_ESTRIDE + 3 * i, 3) + 1;
        if (i)
            m.global_strides[i] = (get_bits(map, F_STRIDE + 32 * (i - 1), 32) |
                                   get_bits(map, F_STRIDE_HI + 4 * (i - 1), 4) << 32) << 4;
    }
    if (m.kind == TMA_MAP_TILED) {
        m.box_dim[0] = (uint32_t)get_bits(map, F_BOX0, 8) + 1;
        for (unsigned i = 1; i < m.rank; i++)
            m.box_dim[i] = (uint32_t)get_bits(map, F_BOX1 + 8 * (i - 1), 8) + 1;
    } else {
        unsigned w = corner_bits(m.rank);
        m.channels_per_pixel = (uint32_t)get_bits(map, F_BOX0, 8) + 1;
        for (unsigned i = 0; i + 2 < m.rank; i++) {
            m.lower_corner[i] = (int32_t)sign_extend(get_bits(map, F_CORNER_LO + w * i, w), w);
            m.upper_corner[i] = (int32_t)sign_extend(get_bits(map, F_CORNER_UP + w * i, w), w);
        }
        m.pixels_per_column = (uint32_t)get_bits(map, F_PPC, 10) + 1;
    }
    uint8_t again[128];
    tma_pack(&m, again);
    /* What tensormap.replace may leave that the TMA does not read (see
     * TENSORMAP.REPLACE above) is taken as it is: the box byte count (0 in
     * driver maps whose box is narrower than a traversal stride), the
     * alignment word as long as it is one the driver writes or 0 with a
     * global address, and the fields of dimensions >= rank.  0: a map that a kernel builds from
     * zeroed bytes with tensormap.replace alone, as Triton's
     * tl.make_tensor_descriptor does, works on the H100
     * (tests/hw/triton, case tma_dev). */
    uint32_t al = (uint32_t)get_bits(map, F_SMEM_ALIGN, 32);
    if (!(al == 16 || al == 256 || al == 512 || al == 1024 || (al == 0 && m.global_address)))
        return fail(why, whylen, "not a tensor map: the alignment word (bits 576..607) is %u, not 16, 256, 512 or "
                    "1024 as the driver writes (or 0, as in a map built from zeros by tensormap.replace, which "
                    "gives it a global address)", al);
    copy_bits(again, map, F_BOX_BYTES, 32);
    copy_bits(again, map, F_SMEM_ALIGN, 32);
    for (unsigned i = m.rank; i < 5; i++) {
        copy_bits(again, map, F_DIM + 32 * i, 32);
        copy_bits(again, map, F_ESTRIDE + 3 * i, 3);
        copy_bits(again, map, F_STRIDE + 32 * (i - 1), 32);
        copy_bits(again, map, F_STRIDE_HI + 4 * (i - 1), 4);
        if (m.kind == TMA_MAP_TILED)
            copy_bits(again, map, F_BOX1 + 8 * (i - 1), 8);
    }
    for (int i = 0; i < 128; i++)
        if (again[i] != map[i])
            return fail(why, whylen, "not a tensor map: byte %d is 0x%02x where a %s map with these fields has 0x%02x "
                        "(reserved bits disagree)", i, map[i],
                        m.kind == TMA_MAP_TILED ? "tiled" : "im2col", again[i]);
    if (m.global_address % 16)
        return fail(why, whylen, "not a tensor map: global address 0x%" PRIx64 " is not 16-byte aligned",
                    m.global_address);
    if (out)
        *out = m;
    if (why && whylen)
        why[0] = '\0';
    return 0;
}

/* ---- tensormap.replace ------------------------------------------------------ */

/* new_val's range per field, and PTX's wording of the field. */
static const char *const field_name[] = {
    "?", ".global_address", ".rank", ".box_dim", ".global_dim", ".global_stride", ".element_stride",
    ".elemtype", ".interleave_layout", ".swizzle_mode", ".swizzle_atomicity", ".fill_mode",
};

int tma_replace(uint8_t map[128], int field, uint32_t ord, uint64_t v, char *why, size_t n)
{
    if (field < TMA_FIELD_GLOBAL_ADDRESS || field > TMA_FIELD_FILL_MODE)
        return fail(why, n, "tensormap.replace of field %d: no such field", field);
    const char *fn = field_name[field];
    unsigned kind = (unsigned)get_bits(map, F_KIND, 4);
    if (kind)
        return fail(why, n, "tensormap.replace.tile on a map whose type field (bits 64..67) is %u, not 0 (tiled): "
                    "the .tile qualifier must match the map's mode", kind);
    /* ord: the dimension, 0..4; the four strides are of dimensions 1..4 */
    uint32_t max_ord = field == TMA_FIELD_GLOBAL_STRIDE ? 3 : 4;
    int per_dim = field >= TMA_FIELD_BOX_DIM && field <= TMA_FIELD_ELEMENT_STRIDE;
    if (per_dim && ord > max_ord)
        return fail(why, n, "tensormap.replace %s: ord %u is out of range 0..%u%s", fn, ord, max_ord,
                    field == TMA_FIELD_GLOBAL_STRIDE ? " (ord i is the stride of dimension i + 1; "
                    "dimension 0 has none)" : "");
    switch (field) {
    case TMA_FIELD_GLOBAL_ADDRESS:
        if (v % 16)
            return fail(why, n, "tensormap.replace .global_address: new_val 0x%" PRIx64 " is not 16-byte aligned", v);
        put_bits(map, F_ADDR, 64, v);
        return 0;
    case TMA_FIELD_RANK:
        if (v > 4)
            return fail(why, n, "tensormap.replace .rank: new_val %" PRIu64 " is out of range 0..4 (it is the rank "
                        "minus one: \"the operand new_val must be ones less than the desired tensor rank\")", v);
        put_bits(map, F_RANK, 3, v);
        return 0;
    case TMA_FIELD_BOX_DIM:
        if (v < 1 || v > 256)
            return fail(why, n, "tensormap.replace .box_dim[%u]: new_val %" PRIu64 " is out of range 1..256", ord, v);
        put_bits(map, ord ? F_BOX1 + 8 * (ord - 1) : F_BOX0, 8, v - 1);
        return 0;
    case TMA_FIELD_GLOBAL_DIM:
        if (v < 1 || v > 0xffffffffull)
            return fail(why, n, "tensormap.replace .global_dim[%u]: new_val %" PRIu64 " is out of range 1..2^32-1",
                        ord, v);
        put_bits(map, F_DIM + 32 * ord, 32, v - 1);
        return 0;
    case TMA_FIELD_GLOBAL_STRIDE:
        if (v % 16 || v >= 1ull << 40)
            return fail(why, n, "tensormap.replace .global_stride[%u] (dimension %u): new_val %" PRIu64 " bytes is "
                        "not a multiple of 16 below 2^40 (the H100 would drop the low 4 bits)", ord, ord + 1, v);
        put_bits(map, F_STRIDE + 32 * ord, 32, v >> 4);
        put_bits(map, F_STRIDE_HI + 4 * ord, 4, v >> 36);
        return 0;
    case TMA_FIELD_ELEMENT_STRIDE:
        if (v < 1 || v > 8)
            return fail(why, n, "tensormap.replace .element_stride[%u]: new_val %" PRIu64 " is out of range 1..8",
                        ord, v);
        put_bits(map, F_ESTRIDE + 3 * ord, 3, v - 1);
        return 0;
    case TMA_FIELD_ELEMTYPE: {
        if (v > 15)
            return fail(why, n, "tensormap.replace .elemtype: new_val %" PRIu64 " is out of range 0..15 "
                        "(PTX ISA Table 33)", v);
        int dt = ptx_elemtype[v];
        put_bits(map, F_DTYPE, 4, (uint64_t)hw_dtype[dt]);
        if (is_tf32(dt))   /* set, never cleared (H100) */
            put_bits(map, F_TF32, 1, 1);
        return 0;
    }
    case TMA_FIELD_INTERLEAVE_LAYOUT:
        if (v > 2)
            return fail(why, n, "tensormap.replace .interleave_layout: new_val %" PRIu64 " is out of range 0..2 "
                        "(no interleave, 16B, 32B; PTX ISA Table 33)", v);
        put_bits(map, F_INTERLEAVE, 2, v);
        return 0;
    case TMA_FIELD_SWIZZLE_MODE:
        if (v > 4)
            return fail(why, n, "tensormap.replace .swizzle_mode: new_val %" PRIu64 " is out of range 0..4 "
                        "(none, 32B, 64B, 128B, 96B; PTX ISA Table 33)", v);
        put_bits(map, F_SWIZZLE, 2, v == 4 ? 0 : v);
        put_bits(map, F_SWIZZLE_96, 1, v == 4);
        return 0;
    case TMA_FIELD_SWIZZLE_ATOMICITY:
        if (v > 3)
            return fail(why, n, "tensormap.replace .swizzle_atomicity: new_val %" PRIu64 " is out of range 0..3 "
                        "(16B, 32B, 32B + 8B flip, 64B; PTX ISA Table 33)", v);
        put_bits(map, F_SWIZZLE_EXT, 2, v);
        return 0;
    case TMA_FIELD_FILL_MODE:
        if (v > 1)
            return fail(why, n, "tensormap.replace .fill_mode: new_val %" PRIu64 " is out of range 0..1 "
                        "(zero fill, OOB-NaN fill; PTX ISA Table 33)", v);
        put_bits(map, F_OOB, 1, v);
        return 0;
    }
    return 0;
}

/* ---- print ------------------------------------------------------------------ */

static void print_u64s(FILE *f, const uint64_t *v, unsigned from, unsigned to)
{
    fputc('{', f);
    for (unsigned i = from; i < to; i++)
        fprintf(f, "%s%" PRIu64, i > from ? ", " : "", v[i]);
    fputc('}', f);
}

static void print_u32s(FILE *f, const uint32_t *v, unsigned n)
{
    fputc('{', f);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%s%u", i ? ", " : "", v[i]);
    fputc('}', f);
}

static void print_i32s(FILE *f, const int32_t *v, unsigned n)
{
    fputc('{', f);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? ", " : "", v[i]);
    fputc('}', f);
}

void tma_print(const tma_map *m, FILE *out)
{
    const char *kind = tma_enum_name("encode", m->kind);
    unsigned rank = m->rank <= 5 ? m->rank : 5;
    fprintf(out, "tensor map: %s, %s (%u-bit elements), rank %u\n", kind ? kind : "?",
            dt_name(m->data_type), tma_dtype_bits(m->data_type), m->rank);
    fprintf(out, "  global address   0x%" PRIx64 "\n", m->global_address);
    fprintf(out, "  global dim       ");
    print_u64s(out, m->global_dim, 0, rank);
    fprintf(out, "  (elements, innermost first)\n");
    if (rank > 1) {
        fprintf(out, "  global strides   ");
        print_u64s(out, m->global_strides, 1, rank);
        fprintf(out, "  (bytes, dims 1..%u)\n", rank - 1);
    }
    if (m->kind == TMA_MAP_TILED) {
        fprintf(out, "  box dim          ");
        print_u32s(out, m->box_dim, rank);
        fputc('\n', out);
    } else {
        unsigned nc = m->kind == TMA_MAP_IM2COL_WIDE ? 1 : rank >= 2 ? rank - 2 : 0;
        fprintf(out, "  lower corner     ");
        print_i32s(out, m->lower_corner, nc);
        fprintf(out, "  (W first)\n  upper corner     ");
        print_i32s(out, m->upper_corner, nc);
        fprintf(out, "\n  channels/pixel   %u\n  pixels/column    %u\n", m->channels_per_pixel, m->pixels_per_column);
        if (m->kind == TMA_MAP_IM2COL_WIDE)
            fprintf(out, "  mode             %s\n", m->wide_mode ? "W128" : "W");
    }
    fprintf(out, "  element strides  ");
    print_u32s(out, m->element_strides, rank);
    fputc('\n', out);
    const char *il = tma_enum_name("interleave", m->interleave), *l2 = tma_enum_name("l2_promotion", m->l2_promotion),
               *oob = tma_enum_name("oob_fill", m->oob_fill);
    fprintf(out, "  interleave %s, swizzle %s, l2 promotion %s, oob fill %s\n", il ? il : "?",
            sw_name(m->swizzle), l2 ? l2 : "?", oob ? oob : "?");
    fprintf(out, "  box bytes        %u (the map's count of one full box)\n", tma_map_box_bytes(m));
}
