/* ir/validate.c — legality of one built instruction: operand counts from
 * opcodes.def, operand kinds and register types of the arithmetic, logic
 * and move instructions, vector widths of ld/st, then the rules of the TMA
 * family (PTX ISA 9.x, sections "cp.async.bulk.tensor",
 * "cp.reduce.async.bulk(.tensor)", "cp.async.bulk.prefetch.tensor",
 * "mbarrier", "fence.proxy", ...) that decide which modifier combinations
 * and operand shapes exist.  Names in messages are the ones kernel
 * engineers read in the ISA manual.  A message about one operand points at
 * that operand (ir_opd_locs, from the parser); a missing operand is
 * reported at the ';' where it belongs.  Last, a well-formed form is
 * checked against the module's .target and .version (the rules of
 * ir/avail.def, which mirror ptxas).
 * Undefined/duplicate names are caught while building (parser/build.c).
 */
#include <string.h>
#include <stdarg.h>
#include "ir/ir.h"
#include "tc/wgmma.h"

typedef struct {
    const ir_function *f;
    const ir_instr *in;
    const ir_opd_locs *locs;
    ir_diag *d;
    const char *path;
    char mn[256];
    int errs;
} vctx;

/* The mnemonic as written, formatted only when a message needs it. */
static const char *mn(vctx *c)
{
    if (!c->mn[0])
        ir_format_mnemonic(c->in, c->mn, sizeof c->mn);
    return c->mn;
}

static void vreport(vctx *c, ir_loc loc, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    ir_diag_error(c->d, c->path, loc.line ? loc : c->in->loc, "%s", msg);
    c->errs++;
}

/* An error about the instruction as a whole (its modifiers, its shape). */
static void verr(vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verr(vctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(c, c->in->loc, fmt, ap);
    va_end(ap);
}

static void verr_at(vctx *c, ir_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void verr_at(vctx *c, ir_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(c, loc, fmt, ap);
    va_end(ap);
}

/* Where operand k was written; k == nopd: the ';' (a missing operand). */
static ir_loc opd_loc(const vctx *c, unsigned k)
{
    ir_loc none = { 0, 0, 0 };
    return c->locs && k <= c->in->nopd && k < IR_MAX_OPDS + 2 ? c->locs->opd[k] : none;
}

/* An error about operand k (k == nopd: one that is missing). */
static void verr_opd(vctx *c, unsigned k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void verr_opd(vctx *c, unsigned k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(c, opd_loc(c, k), fmt, ap);
    va_end(ap);
}

/* "expects N operands": at the first one too many, or at the ';' when
 * some are missing. */
static unsigned count_at(const vctx *c, unsigned want)
{
    return c->in->nopd > want ? want : c->in->nopd;
}

static int is_vec(const ir_operand *o) { return o->kind == IR_OPD_VEC && o->vsel != '|'; }
static int is_addr(const ir_operand *o) { return o->kind == IR_OPD_ADDR; }
static int is_shared(int s) { return s == IR_SPACE_SHARED_CTA || s == IR_SPACE_SHARED_CLUSTER; }

static const char *dims_word(int n) { return n == 1 ? "" : "s"; }

/* Operands after the fixed ones: offsets vector, ctaMask, cache policy. */
static void tensor_load(vctx *c)
{
    const ir_instr *in = c->in;
    int mode = in->mode, dim = in->dim;
    unsigned k = 3;
    if (!ir_has(in, IR_M_MBARRIER_COMPLETE_TX_BYTES))
        verr(c, "%s: a tensor load needs .mbarrier::complete_tx::bytes", mn(c));
    if (in->nopd < 3) {
        verr_opd(c, in->nopd, "%s expects [dstMem], [tensorMap, tensorCoords], [mbar], got %u operands",
                 mn(c), in->nopd);
        return;
    }
    /* ptxas also takes the mbarrier's address bare: a register or a
     * variable name without brackets (`..., [tmap, {x}], %rd5;`) */
    const ir_operand *mb = &in->opd[2];
    if (!is_addr(mb) && mb->kind != IR_OPD_REG && mb->kind != IR_OPD_SYM)
        verr_opd(c, 2, "%s: the third operand must be the mbarrier address [mbar]", mn(c));
    int need_offs = mode == IR_M_IM2COL || mode == IR_M_IM2COL_W || mode == IR_M_IM2COL_W_128;
    if (need_offs) {
        int want = mode == IR_M_IM2COL ? dim - 2 : 2;
        const char *what = mode == IR_M_IM2COL ? "im2col offsets" : "{wHalo, wOffset}";
        if (k >= in->nopd || !is_vec(&in->opd[k]))
            verr_opd(c, k, "%s needs the %s vector after [mbar]", mn(c), what);
        else if ((int)in->opd[k].u.vec.n != want)
            verr_opd(c, k, "%s expects %d %s, got %u", mn(c), want,
                     mode == IR_M_IM2COL ? "im2col offsets" : "elements in {wHalo, wOffset}",
                     in->opd[k].u.vec.n);
        else
            k++;
    }
    if (ir_has(in, IR_M_MULTICAST_CLUSTER)) {
        if (k >= in->nopd || is_vec(&in->opd[k]) || is_addr(&in->opd[k]))
            verr_opd(c, k, "%s: .multicast::cluster needs a ctaMask operand", mn(c));
        else
            k++;
        if (in->space != IR_SPACE_SHARED_CLUSTER)
            verr(c, "%s: .multicast::cluster needs destination .shared::cluster", mn(c));
    }
    if (ir_has(in, IR_M_L2_CACHE_HINT)) {
        if (k >= in->nopd)
            verr_opd(c, k, "%s: .L2::cache_hint needs a cache-policy operand", mn(c));
        else
            k++;
    }
    if (k < in->nopd && !c->errs)
        verr_opd(c, k, "%s has %u operands, expected %u", mn(c), in->nopd, k);
}

/* Operand k must be [tensorMap, {coordinates}] with as many coordinates
 * as the dimension (gather4/scatter4: five, the column and four rows). */
static void tensor_coords(vctx *c, unsigned k)
{
    const ir_instr *in = c->in;
    const ir_operand *a = &in->opd[k];
    if (!is_addr(a) || !a->u.addr.has_vec) {
        verr_opd(c, k, "%s needs the tensor operand [tensorMap, {coordinates}]", mn(c));
        return;
    }
    int want = in->dim;
    if (in->mode == IR_M_TILE_GATHER4 || in->mode == IR_M_TILE_SCATTER4) {
        if (in->dim != 2)
            verr(c, "%s: %s is only defined for .2d", mn(c),
                 in->mode == IR_M_TILE_GATHER4 ? ".tile::gather4" : ".tile::scatter4");
        want = 5;
    }
    if (a->u.addr.vec_n != want) {
        /* at the coordinates' '{' */
        ir_loc at = c->locs && k < IR_MAX_OPDS ? c->locs->coords[k] : opd_loc(c, k);
        verr_at(c, at.line ? at : opd_loc(c, k), "%s expects %d tensor coordinate%s, got %u", mn(c),
                want, dims_word(want), a->u.addr.vec_n);
    }
}
static void check_tensor(vctx *c)
{
    const ir_instr *in = c->in;
    if (!in->dim) {
        verr(c, "%s needs a dimension (.1d to .5d)", mn(c));
        return;
    }
    if ((in->mode == IR_M_IM2COL || in->mode == IR_M_IM2COL_W || in->mode == IR_M_IM2COL_W_128 ||
         in->mode == IR_M_IM2COL_NO_OFFS) && in->dim < 3) {
        verr(c, "%s: im2col modes need .3d, .4d or .5d", mn(c));
        return;
    }
    if (in->op == IR_OP_CP_ASYNC_BULK_PREFETCH_TENSOR) {
        if (!ir_has(in, IR_M_L2) || in->space != IR_SPACE_GLOBAL)
            verr(c, "%s must be .L2.global", mn(c));
        if (in->nopd >= 1)
            tensor_coords(c, 0);
        int need_offs = in->mode == IR_M_IM2COL || in->mode == IR_M_IM2COL_W ||
                        in->mode == IR_M_IM2COL_W_128;
        if (need_offs && (in->nopd < 2 || !is_vec(&in->opd[1])))
            verr_opd(c, in->nopd < 2 ? in->nopd : 1, "%s needs the im2col offsets vector", mn(c));
        return;
    }
    int load = is_shared(in->space) && in->space2 == IR_SPACE_GLOBAL;
    int store = in->space == IR_SPACE_GLOBAL && in->space2 == IR_SPACE_SHARED_CTA;
    if (in->op == IR_OP_CP_REDUCE_ASYNC_BULK_TENSOR) {
        if (!store) {
            verr(c, "%s must copy .global.shared::cta", mn(c));
            return;
        }
        if (!in->redop)
            verr(c, "%s needs a reduction (.add .min .max .inc .dec .and .or .xor)", mn(c));
        if (!ir_has(in, IR_M_BULK_GROUP))
            verr(c, "%s needs .bulk_group", mn(c));
        if (in->nopd >= 1)
            tensor_coords(c, 0);
        return;
    }
    if (!load && !store) {
        verr(c, "%s: direction must be .shared::cluster.global, .shared::cta.global or .global.shared::cta", mn(c));
        return;
    }
    if (load) {
        if (in->mode == IR_M_TILE_SCATTER4 || in->mode == IR_M_IM2COL_NO_OFFS)
            verr(c, "%s: this mode is only for stores", mn(c));
        if (in->nopd >= 2)
            tensor_coords(c, 1);
        tensor_load(c);
    } else {
        if (!ir_has(in, IR_M_BULK_GROUP))
            verr(c, "%s: a tensor store needs .bulk_group", mn(c));
        if (in->mode == IR_M_TILE_GATHER4 || in->mode == IR_M_IM2COL_W || in->mode == IR_M_IM2COL_W_128 ||
            ir_has(in, IR_M_MULTICAST_CLUSTER))
            verr(c, "%s: this mode is only for loads", mn(c));
        if (in->nopd >= 1)
            tensor_coords(c, 0);
        unsigned want = 2 + ir_has(in, IR_M_L2_CACHE_HINT);
        if (in->nopd != want && !c->errs)
            verr_opd(c, count_at(c, want), "%s expects %u operands, got %u", mn(c), want, in->nopd);
    }
}

static int type_in(const ir_instr *in, const int *ok)
{
    for (; *ok; ok++)
        if (in->ntypes && in->types[0] == *ok)
            return 1;
    return 0;
}

static void check_bulk(vctx *c)
{
    const ir_instr *in = c->in;
    int g2s = is_shared(in->space) && in->space2 == IR_SPACE_GLOBAL;
    int s2s = in->space == IR_SPACE_SHARED_CLUSTER && in->space2 == IR_SPACE_SHARED_CTA;
    int s2g = in->space == IR_SPACE_GLOBAL && in->space2 == IR_SPACE_SHARED_CTA;
    if (!g2s && !s2s && !s2g) {
        verr(c, "%s: direction must be .shared::cluster.global, .shared::cluster.shared::cta or .global.shared::cta", mn(c));
        return;
    }
    if ((g2s || s2s) && !ir_has(in, IR_M_MBARRIER_COMPLETE_TX_BYTES))
        verr(c, "%s needs .mbarrier::complete_tx::bytes", mn(c));
    if (s2g && !ir_has(in, IR_M_BULK_GROUP))
        verr(c, "%s needs .bulk_group", mn(c));
    unsigned want = (g2s || s2s) ? 4 : 3;
    if (ir_has(in, IR_M_MULTICAST_CLUSTER)) {
        want++;
        if (!g2s || in->space != IR_SPACE_SHARED_CLUSTER)
            verr(c, "%s: .multicast::cluster is only for .shared::cluster.global", mn(c));
    }
    if (ir_has(in, IR_M_L2_CACHE_HINT))
        want++;
    if (ir_has(in, IR_M_CP_MASK))
        want++;
    if (in->nopd != want)
        verr_opd(c, count_at(c, want), "%s expects %u operands, got %u", mn(c), want, in->nopd);
    if (in->op == IR_OP_CP_REDUCE_ASYNC_BULK) {
        static const int add_t[] = { IR_T_U32, IR_T_S32, IR_T_U64, IR_T_F32, IR_T_F64, IR_T_F16, IR_T_BF16, 0 };
        static const int mm_t[] = { IR_T_U32, IR_T_S32, IR_T_U64, IR_T_S64, IR_T_F16, IR_T_BF16, 0 };
        static const int id_t[] = { IR_T_U32, 0 };
        static const int bit_t[] = { IR_T_B32, IR_T_B64, 0 };
        const int *ok = NULL;
        switch (in->redop) {
        case IR_M_OP_ADD: ok = add_t; break;
        case IR_M_OP_MIN: case IR_M_OP_MAX: ok = mm_t; break;
        case IR_M_OP_INC: case IR_M_OP_DEC: ok = id_t; break;
        case IR_M_AND: case IR_M_OR: case IR_M_XOR: ok = bit_t; break;
        default:
            verr(c, "%s needs a reduction (.add .min .max .inc .dec .and .or .xor)", mn(c));
            return;
        }
        if (in->ntypes != 1)
            verr(c, "%s needs one element type", mn(c));
        else if (!type_in(in, ok))
            verr(c, "%s: .%s does not support .%s", mn(c), ir_mods[in->redop].text,
                 ir_types[in->types[0]].name);
    }
    for (unsigned k = 0; k < 2 && k < in->nopd; k++)
        if (!is_addr(&in->opd[k]))
            verr_opd(c, k, "%s: operand %u must be an address [..]", mn(c), k + 1);
}

static void check_mbarrier(vctx *c)
{
    const ir_instr *in = c->in;
    if (in->space && !is_shared(in->space))
        verr(c, "%s: mbarrier objects live in .shared memory", mn(c));
    if (in->op == IR_OP_MBARRIER_TRY_WAIT || in->op == IR_OP_MBARRIER_TEST_WAIT ||
        in->op == IR_OP_MBARRIER_INIT || in->op == IR_OP_MBARRIER_ARRIVE ||
        in->op == IR_OP_MBARRIER_ARRIVE_DROP || in->op == IR_OP_MBARRIER_EXPECT_TX ||
        in->op == IR_OP_MBARRIER_COMPLETE_TX || in->op == IR_OP_MBARRIER_INVAL) {
        if (in->ntypes != 1 || in->types[0] != IR_T_B64)
            verr(c, "%s needs type .b64", mn(c));
    }
    if ((in->op == IR_OP_MBARRIER_ARRIVE || in->op == IR_OP_MBARRIER_ARRIVE_DROP) &&
        ir_has(in, IR_M_EXPECT_TX) && in->nopd != 3)
        verr_opd(c, count_at(c, 3), "%s expects state, [addr], txCount, got %u operands", mn(c), in->nopd);
    if (in->space == IR_SPACE_SHARED_CLUSTER && (in->op == IR_OP_MBARRIER_ARRIVE ||
        in->op == IR_OP_MBARRIER_ARRIVE_DROP) && in->nopd && in->opd[0].kind != IR_OPD_SINK)
        verr_opd(c, 0, "%s: a remote (.shared::cluster) arrive has no state result; write '_'", mn(c));
    for (unsigned k = 0; k < in->nopd; k++) {
        int want_addr = in->op == IR_OP_MBARRIER_INIT || in->op == IR_OP_MBARRIER_INVAL ||
                        in->op == IR_OP_MBARRIER_EXPECT_TX || in->op == IR_OP_MBARRIER_COMPLETE_TX
                        ? k == 0 : k == 1;
        if (in->op == IR_OP_MBARRIER_PENDING_COUNT)
            want_addr = 0;
        if (want_addr && !is_addr(&in->opd[k]))
            verr_opd(c, k, "%s: operand %u must be the mbarrier address [addr]", mn(c), k + 1);
    }
}

static void check_fence(vctx *c)
{
    const ir_instr *in = c->in;
    if (ir_has(in, IR_M_PROXY)) {
        int ok = ir_has(in, IR_M_ASYNC) || ir_has(in, IR_M_ASYNC_GENERIC) || ir_has(in, IR_M_ALIAS) ||
                 ir_has(in, IR_M_TENSORMAP_GENERIC);
        if (!ok)
            verr(c, "%s: fence.proxy needs a proxy kind (.alias, .async, .async.shared::cta, "
                 ".async.shared::cluster, .async.global, .tensormap::generic)", mn(c));
        if (ir_has(in, IR_M_TENSORMAP_GENERIC) && (!in->sem || !in->scope))
            verr(c, "%s: fence.proxy.tensormap::generic needs .release or .acquire and a scope", mn(c));
        if (ir_has(in, IR_M_ASYNC) && in->space && in->space != IR_SPACE_GLOBAL && !is_shared(in->space))
            verr(c, "%s: fence.proxy.async takes .global, .shared::cta or .shared::cluster", mn(c));
    } else if (ir_has(in, IR_M_MBARRIER_INIT)) {
        if (in->sem != IR_M_RELEASE || in->scope != IR_M_CLUSTER)
            verr(c, "%s: only fence.mbarrier_init.release.cluster exists", mn(c));
    }
}

/* tensormap.replace.tile.<field>.<space>.b1024.<type> [addr], {ord,} value:
 * exactly one field; the per-dimension fields take an ordinal; addresses
 * and strides are .b64, the rest .b32. */
static void check_tensormap_replace(vctx *c)
{
    static const struct { uint16_t mod; uint8_t ord, b64; } fields[] = {
        { IR_M_GLOBAL_ADDRESS, 0, 1 }, { IR_M_RANK, 0, 0 }, { IR_M_BOX_DIM, 1, 0 },
        { IR_M_GLOBAL_DIM, 1, 0 }, { IR_M_GLOBAL_STRIDE, 1, 1 }, { IR_M_ELEMENT_STRIDE, 1, 0 },
        { IR_M_ELEMTYPE, 0, 0 }, { IR_M_INTERLEAVE_LAYOUT, 0, 0 }, { IR_M_SWIZZLE_MODE, 0, 0 },
        { IR_M_SWIZZLE_ATOMICITY, 0, 0 }, { IR_M_FILL_MODE, 0, 0 },
    };
    const ir_instr *in = c->in;
    int found = -1, n = 0;
    if (!ir_has(in, IR_M_TILE)) {
        verr(c, "%s needs .tile", mn(c));
        return;
    }
    for (int i = 0; i < (int)(sizeof fields / sizeof fields[0]); i++)
        if (ir_has(in, (ir_mod)fields[i].mod))
            found = i, n++;
    if (n != 1) {
        verr(c, "%s needs exactly one field (.global_address, .rank, .box_dim, .global_dim, "
             ".global_stride, .element_stride, .elemtype, .interleave_layout, .swizzle_mode, "
             ".swizzle_atomicity, .fill_mode)", mn(c));
        return;
    }
    /* {.ss}: no state space means generic addressing (PTX ISA §9.7.9.28) */
    if (in->space != IR_SPACE_NONE && in->space != IR_SPACE_GLOBAL && in->space != IR_SPACE_SHARED_CTA)
        verr(c, "%s: the tensor map must be in .global or .shared::cta (or a generic address)", mn(c));
    unsigned want = 2u + fields[found].ord;
    if (in->nopd != want)
        verr_opd(c, count_at(c, want), "%s expects %s, got %u operands", mn(c),
             fields[found].ord ? "[addr], ord, value (3 operands)" : "[addr], value (2 operands)",
             in->nopd);
    else if (!is_addr(&in->opd[0]))
        verr_opd(c, 0, "%s: operand 1 must be the tensor-map address [addr]", mn(c));
    int ty = fields[found].b64 ? IR_T_B64 : IR_T_B32;
    if (in->ntypes < 1 || in->types[in->ntypes - 1] != ty)
        verr(c, "%s: .%s needs type .%s", mn(c), ir_mods[fields[found].mod].text, ir_types[ty].name);
}

/* Does the instruction write its first operand?  (A special register there
 * is an error: they are read-only.) */
/* mma.sync (dense): shape and types must be a form of tc/shapes.def (the
 * table the interpreter runs from); the sparse forms are checked at run time. */
static const struct { uint8_t m, n; uint16_t k; uint8_t d, a, b, c; } mma_forms[] = {
#define TC_MMA(M, N, K, D, A, B, C, RUNS) { M, N, K, IR_T_##D, IR_T_##A, IR_T_##B, IR_T_##C },
#include "tc/shapes.def"
#undef TC_MMA
};

static void check_mma(vctx *c)
{
    const ir_instr *in = c->in;
    static const struct { ir_mod mod; uint8_t m, n; uint16_t k; } shapes[] = {
        { IR_M_M16N8K4, 16, 8, 4 }, { IR_M_M16N8K8, 16, 8, 8 }, { IR_M_M16N8K16, 16, 8, 16 },
        { IR_M_M16N8K32, 16, 8, 32 }, { IR_M_M16N8K64, 16, 8, 64 }, { IR_M_M16N8K128, 16, 8, 128 },
        { IR_M_M16N8K256, 16, 8, 256 }, { IR_M_M8N8K4, 8, 8, 4 }, { IR_M_M8N8K16, 8, 8, 16 },
        { IR_M_M8N8K32, 8, 8, 32 }, { IR_M_M8N8K128, 8, 8, 128 },
    };
    if (ir_has(in, IR_M_SP) || ir_has(in, IR_M_ORDERED_METADATA))
        return;
    int si = -1;
    for (int i = 0; i < (int)(sizeof shapes / sizeof shapes[0]); i++)
        if (ir_has(in, shapes[i].mod))
            si = i;
    if (si < 0) {
        verr(c, "%s: a shape (.m16n8k16, ...) is required", mn(c));
        return;
    }
    if (in->ntypes != 4) {
        verr(c, "%s: four types are required (.dtype.atype.btype.ctype)", mn(c));
        return;
    }
    for (int i = 0; i < (int)(sizeof mma_forms / sizeof mma_forms[0]); i++)
        if (mma_forms[i].m == shapes[si].m && mma_forms[i].n == shapes[si].n &&
            mma_forms[i].k == shapes[si].k && mma_forms[i].d == in->types[0] &&
            mma_forms[i].a == in->types[1] && mma_forms[i].b == in->types[2] &&
            mma_forms[i].c == in->types[3])
            return;
    verr(c, "%s: .m%un%uk%u does not take the types .%s.%s.%s.%s (d, a, b, c)", mn(c),
         shapes[si].m, shapes[si].n, shapes[si].k, ir_types[in->types[0]].name,
         ir_types[in->types[1]].name, ir_types[in->types[2]].name, ir_types[in->types[3]].name);
}

static int writes_opd0(int op)
{
    switch (op) {
    case IR_OP_ST: case IR_OP_RED: case IR_OP_PREFETCH: case IR_OP_PREFETCHU: case IR_OP_BRA:
    case IR_OP_BRX_IDX: case IR_OP_CALL: case IR_OP_BAR: case IR_OP_BARRIER: case IR_OP_BAR_WARP_SYNC:
    case IR_OP_NANOSLEEP: case IR_OP_PMEVENT: case IR_OP_MBARRIER_INIT: case IR_OP_MBARRIER_INVAL:
    case IR_OP_MBARRIER_EXPECT_TX: case IR_OP_MBARRIER_COMPLETE_TX: case IR_OP_CP_ASYNC:
    case IR_OP_CP_ASYNC_BULK: case IR_OP_CP_REDUCE_ASYNC_BULK: case IR_OP_CP_ASYNC_BULK_TENSOR:
    case IR_OP_CP_REDUCE_ASYNC_BULK_TENSOR: case IR_OP_CP_ASYNC_BULK_PREFETCH:
    case IR_OP_CP_ASYNC_BULK_PREFETCH_TENSOR: case IR_OP_CP_ASYNC_BULK_WAIT_GROUP:
    case IR_OP_CP_ASYNC_WAIT_GROUP: case IR_OP_CP_ASYNC_MBARRIER_ARRIVE:
    case IR_OP_TENSORMAP_REPLACE: case IR_OP_TENSORMAP_CP_FENCEPROXY:
        return 0;
    }
    return 1;
}

/* ---- operand types of arithmetic, logic and moves --------------------------
 *
 * Each operand of these instructions has a role: the instruction type T,
 * twice its width W (the .wide forms' d, and mad.wide's c), a predicate P,
 * or a shift amount S (any 32-bit integer).  A register agrees with T as
 * ptxas checks it (PTX ISA "Type Information for Instructions and
 * Operands"): the same type, a bit type of the same size either way, or
 * another integer type of the same size for an integer T; never a
 * predicate for a value or a value for a predicate.  An integer constant
 * is no floating-point operand and a floating-point constant no integer
 * operand (ptxas: "Arguments mismatch"); .b types take either.  Forms with
 * two types (add.f32.f16, cvt) are left alone. */

static const char *opd_roles(const ir_instr *in)
{
    int wide = ir_has(in, IR_M_WIDE);
    switch (in->op) {
    case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MIN: case IR_OP_MAX: case IR_OP_DIV: case IR_OP_REM:
    case IR_OP_AND: case IR_OP_OR: case IR_OP_XOR: case IR_OP_ADDC: case IR_OP_SUBC:
    case IR_OP_COPYSIGN: case IR_OP_MUL24: case IR_OP_MAD24: case IR_OP_SAD: case IR_OP_FMA:
        return "TTTT";
    case IR_OP_MUL: return wide ? "WTT" : "TTT";
    case IR_OP_MAD: case IR_OP_MADC: return wide ? "WTTW" : "TTTT";
    case IR_OP_ABS: case IR_OP_NEG: case IR_OP_NOT: case IR_OP_CNOT: case IR_OP_RCP: case IR_OP_SQRT:
    case IR_OP_RSQRT: case IR_OP_SIN: case IR_OP_COS: case IR_OP_LG2: case IR_OP_EX2: case IR_OP_TANH:
    case IR_OP_MOV:
        return "TT";
    case IR_OP_TESTP: return "PT";
    case IR_OP_SELP: return "TTTP";
    case IR_OP_SETP: return "PTTP";
    case IR_OP_SHL: case IR_OP_SHR: return "TTS";
    }
    return NULL;
}

/* The integer type twice as wide as t (mul.wide.s32 -> s64), else t. */
static int wide_type(int t)
{
    switch (t) {
    case IR_T_U16: return IR_T_U32;
    case IR_T_U32: return IR_T_U64;
    case IR_T_S16: return IR_T_S32;
    case IR_T_S32: return IR_T_S64;
    }
    return t;
}

static int is_int_kind(char k) { return k == 'u' || k == 's'; }

/* Does a register of type r agree with an operand of type t? */
static int reg_agrees(int r, int t)
{
    if (r == t)
        return 1;
    const ir_typeinfo *R = &ir_types[r], *T = &ir_types[t];
    if (R->kind == 'p' || T->kind == 'p' || R->bits != T->bits)
        return 0;
    return R->kind == 'b' || T->kind == 'b' || (is_int_kind(R->kind) && is_int_kind(T->kind));
}

/* "expected ..." for an operand of type t. */
static void expected_desc(int t, char *buf, size_t n)
{
    const ir_typeinfo *T = &ir_types[t];
    if (T->kind == 'p')
        snprintf(buf, n, "a .pred register");
    else if (T->kind == 'b')
        snprintf(buf, n, "a %u-bit register", T->bits);
    else if (is_int_kind(T->kind))
        snprintf(buf, n, ".s%u, .u%u or .b%u", T->bits, T->bits, T->bits);
    else
        snprintf(buf, n, ".%s or .b%u", T->name, T->bits);
}

static void check_reg_type(vctx *c, unsigned k, const ir_operand *o, char role, int t)
{
    if (o->kind != IR_OPD_REG || o->vsel || o->xsel || !c->f || o->u.reg >= c->f->nregs)
        return;
    const ir_regdecl *r = &c->f->regs[o->u.reg];
    if (r->vec > 1)
        return;
    int ok;
    char want[64];
    if (role == 'S') {
        ok = ir_types[r->type].bits == 32 && (r->type == IR_T_B32 || is_int_kind(ir_types[r->type].kind));
        snprintf(want, sizeof want, "a 32-bit integer (.u32, .s32 or .b32)");
    } else {
        ok = reg_agrees(r->type, t);
        expected_desc(t, want, sizeof want);
    }
    if (!ok)
        verr_opd(c, k, "%s: operand %u ('%s') is a .%s register; expected %s", mn(c), k + 1, r->name,
                 ir_types[r->type].name, want);
}

static void check_typed_opds(vctx *c)
{
    const ir_instr *in = c->in;
    const char *roles = opd_roles(in);
    if (!roles || in->ntypes != 1)
        return;
    int T = in->types[0];
    for (unsigned k = 0; k < in->nopd && roles[k]; k++) {
        const ir_operand *o = &in->opd[k];
        char role = roles[k];
        int t = role == 'P' ? IR_T_PRED : role == 'W' ? wide_type(T) : T;
        char kind = ir_types[t].kind;
        if (o->kind == IR_OPD_ADDR) {
            verr_opd(c, k, "%s: operand %u is an address; %s takes registers and constants", mn(c), k + 1,
                     ir_ops[in->op].name);
            continue;
        }
        if (k == 0 && o->kind != IR_OPD_REG && o->kind != IR_OPD_SINK && o->kind != IR_OPD_SREG &&
            !(o->kind == IR_OPD_VEC && (o->vsel == '|' || in->op == IR_OP_MOV))) {
            verr_opd(c, 0, "%s: the destination (operand 1) must be a register", mn(c));
            continue;
        }
        switch (o->kind) {
        case IR_OPD_REG:
            check_reg_type(c, k, o, role, t);
            break;
        case IR_OPD_VEC: /* setp's d|p pair */
            if (o->vsel == '|' && c->f)
                for (uint32_t i = 0; i < o->u.vec.n; i++)
                    check_reg_type(c, k, &c->f->vecpool[o->u.vec.first + i], role, t);
            break;
        case IR_OPD_IMM:
            if (role != 'S' && kind == 'f')
                verr_opd(c, k, "%s: operand %u is an integer constant; expected a .%s value "
                         "(floating-point constants are written 0f..., 0d... or with a decimal "
                         "point)", mn(c), k + 1, ir_types[t].name);
            break;
        case IR_OPD_FIMM:
            if (role != 'P' && (is_int_kind(kind) || role == 'S'))
                verr_opd(c, k, "%s: operand %u is a floating-point constant; expected a .%s value",
                         mn(c), k + 1, role == 'S' ? "u32" : ir_types[t].name);
            break;
        }
    }
}

/* ld/ldu/st .vN: the data operand is a vector {a, b, ..} of N elements (or
 * a .vN register); without .vN, one value. */
static void check_ldst_vec(vctx *c)
{
    const ir_instr *in = c->in;
    unsigned k = in->op == IR_OP_ST ? 1 : 0;
    if (k >= in->nopd)
        return;
    const ir_operand *o = &in->opd[k];
    unsigned want = in->vec ? in->vec : 1, got;
    if (is_vec(o))
        got = o->u.vec.n;
    else if (o->kind == IR_OPD_REG && c->f && o->u.reg < c->f->nregs && !o->vsel)
        got = c->f->regs[o->u.reg].vec;
    else
        return;
    if (got == want)
        return;
    if (want == 1)
        verr_opd(c, k, "%s: operand %u is a vector of %u; without .v%u the %s moves one value", mn(c),
                 k + 1, got, got, in->op == IR_OP_ST ? "store" : "load");
    else if (got == 1)
        verr_opd(c, k, "%s: operand %u must be a vector of %u ({a, b%s}) for .v%u", mn(c), k + 1, want,
                 want > 2 ? ", ..." : "", want);
    else
        verr_opd(c, k, "%s: operand %u has %u elements; .v%u needs %u", mn(c), k + 1, got, want, want);
}

/* ---- .target and .version (ir/avail.def) ------------------------------------
 *
 * A form exists on a target and from a PTX ISA version on; ptxas refuses it
 * elsewhere ("Feature '.tile::gather4 ...' requires .target sm_100 or
 * higher", "... not supported on .target 'sm_90a'", "... requires PTX ISA
 * .version 8.6 or later").  The rules are avail.def's; a module with no
 * (or an unreadable) .target or .version is checked on what it has. */

static const struct { const char *name; uint8_t ptx; } known_targets[] = {
#define TARGET(name, ptx) { name, ptx },
#include "ir/avail.def"
#undef TARGET
};

typedef struct { int num; char suffix; } vtarget; /* sm_100a: 100, 'a' */

/* "sm_NNN", "sm_NNNa", "sm_NNNf" (n characters) */
static int parse_target(const char *s, size_t n, vtarget *t)
{
    size_t i = 3;
    int num = 0;
    if (n < 4 || memcmp(s, "sm_", 3) != 0)
        return 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9' && num < 100000; i++)
        num = num * 10 + (s[i] - '0');
    if (i == 3)
        return 0;
    t->num = num;
    t->suffix = i < n && (s[i] == 'a' || s[i] == 'f') ? s[i++] : 0;
    return i == n;
}

/* Is target t one of those that the rule's token names (avail.def)? */
static int token_admits(const vtarget *tok, const vtarget *t)
{
    switch (tok->suffix) {
    case 0: /* sm_90: that one or later, any suffix */
        return t->num >= tok->num;
    case 'a': /* architecture-specific: exactly that one */
        return t->num == tok->num && t->suffix == 'a';
    default: /* family-specific: an 'a' or 'f' target of the family from tok on */
        return t->num / 10 == tok->num / 10 && t->num >= tok->num && t->suffix;
    }
}

/* Calls fn on each token of a space-separated target list; stops at a
 * non-zero return and returns it. */
static int spec_each(const char *spec, int (*fn)(const vtarget *tok, const void *arg), const void *arg)
{
    for (const char *p = spec; *p;) {
        size_t n = strcspn(p, " ");
        vtarget tok;
        int r;
        if (n && parse_target(p, n, &tok) && (r = fn(&tok, arg)))
            return r;
        p += n;
        p += strspn(p, " ");
    }
    return 0;
}
static int admits_fn(const vtarget *tok, const void *t) { return token_admits(tok, t); }
static int spec_admits(const char *spec, const vtarget *t) { return spec_each(spec, admits_fn, t); }
static int baseline_admits_fn(const vtarget *tok, const void *t) { return !tok->suffix && token_admits(tok, t); }

/* The targets of a list in words: "sm_100 or later", or the known 'a'/'f'
 * targets it admits, an 'a' and 'f' pair written once ("sm_100a/f, sm_103a/f
 * or sm_110a/f"). */
static void spec_describe(const char *spec, char *buf, size_t len)
{
    char item[32][24];
    int n = 0;
    for (const char *p = spec; *p && n < 32;) {
        size_t k = strcspn(p, " ");
        vtarget tok;
        if (parse_target(p, k, &tok) && !tok.suffix)
            snprintf(item[n++], sizeof item[0], "sm_%d or later", tok.num);
        p += k;
        p += strspn(p, " ");
    }
    for (size_t i = 0; i < sizeof known_targets / sizeof known_targets[0] && n < 32; i++) {
        const char *name = known_targets[i].name;
        vtarget t;
        if (!parse_target(name, strlen(name), &t) || !t.suffix || !spec_admits(spec, &t) ||
            spec_each(spec, baseline_admits_fn, &t))
            continue;
        /* sm_NNNf right after sm_NNNa (the list's order): "sm_NNNa/f" */
        char *prev = n > 0 ? item[n - 1] : NULL;
        size_t l = prev ? strlen(prev) : 0;
        if (t.suffix == 'f' && l == strlen(name) && prev[l - 1] == 'a' && strncmp(prev, name, l - 1) == 0)
            snprintf(prev + l, sizeof item[0] - l, "/f");
        else
            snprintf(item[n++], sizeof item[0], "%s", name);
    }
    size_t o = 0;
    buf[0] = 0;
    if (!n)
        snprintf(buf, len, "%s", spec);
    for (int i = 0; i < n && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", item[i]);
}

unsigned ir_target_min_ptx(const char *target)
{
    for (size_t i = 0; i < sizeof known_targets / sizeof known_targets[0]; i++)
        if (strcmp(known_targets[i].name, target) == 0)
            return known_targets[i].ptx;
    return 0;
}

/* Does the module's .version come before PTX ISA ptx (x10)? */
static int version_below(const ir_module *m, unsigned ptx)
{
    return m->version_major < ptx / 10 || (m->version_major == ptx / 10 && m->version_minor < ptx % 10);
}

/* One rule that holds for the instruction: report what the module lacks,
 * at the instruction (at the operand `at` when that is >= 0). */
static void avail_need(vctx *c, const ir_module *m, const vtarget *t, int at, const char *feature,
                       unsigned ptx, const char *spec)
{
    int bad_t = t && !spec_admits(spec, t);
    int bad_v = m->version_major && version_below(m, ptx);
    if (!bad_t && !bad_v)
        return;
    char want[256];
    spec_describe(spec, want, sizeof want);
    if (!feature)
        feature = ir_ops[c->in->op].name;
    ir_loc loc = at >= 0 ? opd_loc(c, (unsigned)at) : c->in->loc;
    if (bad_t && bad_v)
        verr_at(c, loc, "%s: %s requires .target %s and PTX ISA %u.%u (this module: %s, .version %u.%u)",
                mn(c), feature, want, ptx / 10, ptx % 10, m->target, m->version_major, m->version_minor);
    else if (bad_t)
        verr_at(c, loc, "%s: %s requires .target %s (this module: %s)", mn(c), feature, want, m->target);
    else
        verr_at(c, loc, "%s: %s requires PTX ISA %u.%u (this module: .version %u.%u)", mn(c), feature,
                ptx / 10, ptx % 10, m->version_major, m->version_minor);
}

static int is_mbar_op(int op)
{
    switch (op) {
    case IR_OP_MBARRIER_INIT: case IR_OP_MBARRIER_INVAL: case IR_OP_MBARRIER_EXPECT_TX:
    case IR_OP_MBARRIER_COMPLETE_TX: case IR_OP_MBARRIER_ARRIVE: case IR_OP_MBARRIER_ARRIVE_DROP:
    case IR_OP_MBARRIER_TEST_WAIT: case IR_OP_MBARRIER_TRY_WAIT: case IR_OP_MBARRIER_PENDING_COUNT:
        return 1;
    }
    return 0;
}

/* The first operand that reads a special register in lo..hi, or -1. */
static int sreg_opd(const vctx *c, int lo, int hi)
{
    const ir_instr *in = c->in;
    for (unsigned k = 0; k < in->nopd; k++) {
        const ir_operand *o = &in->opd[k];
        if (o->kind == IR_OPD_SREG && (int)o->u.sreg >= lo && (int)o->u.sreg <= hi)
            return (int)k;
        if (o->kind == IR_OPD_VEC && c->f)
            for (uint32_t i = 0; i < o->u.vec.n && o->u.vec.first + i < c->f->nvecpool; i++) {
                const ir_operand *e = &c->f->vecpool[o->u.vec.first + i];
                if (e->kind == IR_OPD_SREG && (int)e->u.sreg >= lo && (int)e->u.sreg <= hi)
                    return (int)k;
            }
    }
    return -1;
}

/* The last operand is the integer constant v or more / exactly v. */
static int last_imm(const ir_instr *in, int64_t *v)
{
    if (!in->nopd || in->opd[in->nopd - 1].kind != IR_OPD_IMM)
        return 0;
    *v = in->opd[in->nopd - 1].u.imm;
    return 1;
}

static void check_avail(vctx *c, const ir_module *m)
{
    if (!m)
        return;
    vtarget tgt;
    const vtarget *t = parse_target(m->target, strlen(m->target), &tgt) ? &tgt : NULL;
    if (!t && !m->version_major)
        return;
    const ir_instr *in = c->in;
    int at;
    int64_t v;
#define OP(x) (in->op == IR_OP_##x)
#define MBAR is_mbar_op(in->op)
#define HAS(x) ir_has(in, IR_M_##x)
#define MODE(x) (in->mode == IR_M_##x)
#define DST(x) (in->space == IR_SPACE_##x)
#define SRC(x) (in->space2 == IR_SPACE_##x)
#define SEM(x) (in->sem == IR_M_##x)
#define SCOPE(x) (in->scope == IR_M_##x)
#define NOPD(n) (in->nopd == (n))
#define VALUE_GE(n) (last_imm(in, &v) && v >= (n))
#define VALUE_EQ(n) (last_imm(in, &v) && v == (n))
#define SREG(lo, hi) ((at = sreg_opd(c, IR_SR_##lo, IR_SR_##hi)) >= 0)
#define AVAIL(when, feature, ptx, spec) \
    at = -1;                            \
    if (when)                           \
        avail_need(c, m, t, at, feature, ptx, spec);
#include "ir/avail.def"
#undef AVAIL
#undef OP
#undef MBAR
#undef HAS
#undef MODE
#undef DST
#undef SRC
#undef SEM
#undef SCOPE
#undef NOPD
#undef VALUE_GE
#undef VALUE_EQ
#undef SREG
}

/* wgmma.mma_async's registers, as ptxas takes them: D and the A fragment
 * 32-bit (A not .f32), descriptors 64-bit, the sparsity metadata 32-bit */
static int reg_bits(const vctx *c, const ir_operand *o, char *kind)
{
    if (o->kind != IR_OPD_REG || !c->f)
        return -1;
    int t = c->f->regs[o->u.reg].type;
    *kind = ir_types[t].kind;
    return ir_types[t].bits;
}

static void wgmma_reg_types(vctx *c, const tc_wg_form *f)
{
    const ir_instr *in = c->in;
    char k;
    for (int v = 0; v < (f->a_regs ? 2 : 1); v++) {
        const ir_operand *o = &in->opd[v];
        for (uint32_t i = 0; c->f && i < o->u.vec.n; i++) {
            int b = reg_bits(c, &c->f->vecpool[o->u.vec.first + i], &k);
            if (b >= 0 && (b != 32 || (v == 1 && k == 'f'))) {
                verr_opd(c, (unsigned)v, "%s: %s registers must be 32-bit%s", mn(c), v ? "the A fragment's" : "D's",
                         v ? " integer or bit-size (.b32)" : "");
                return;
            }
        }
    }
    int descs[2] = { f->a_regs ? -1 : f->o_a, f->o_b };
    for (int i = 0; i < 2; i++) {
        int b = descs[i] >= 0 ? reg_bits(c, &in->opd[descs[i]], &k) : -1;
        if (b >= 0 && b != 64) {
            verr_opd(c, (unsigned)descs[i], "%s: a matrix descriptor is a 64-bit register", mn(c));
            return;
        }
    }
    if (f->sparse) {
        int b = reg_bits(c, &in->opd[f->o_meta], &k);
        if (b >= 0 && b != 32)
            verr_opd(c, f->o_meta, "%s: the sparsity metadata is a 32-bit register", mn(c));
    }
}

int ir_validate_instr(const ir_module *m, const ir_function *f, const ir_instr *in,
                      const ir_opd_locs *locs, ir_diag *d)
{
    vctx c;
    c.f = f;
    c.in = in;
    c.locs = locs;
    c.d = d;
    c.mn[0] = 0;
    c.errs = 0;
    c.path = d && d->path ? d->path : "<input>";
    const ir_opinfo *oi = &ir_ops[in->op];
    /* fence.proxy.tensormap::generic.acquire names the tensor map: [addr], 128
     * (PTX ISA "membar/fence"); opcodes.def bounds fence to 0 operands. */
    if (in->op == IR_OP_FENCE && ir_has(in, IR_M_TENSORMAP_GENERIC) && in->sem == IR_M_ACQUIRE) {
        if (in->nopd != 2)
            verr_opd(&c, count_at(&c, 2), "%s expects [addr], size (2 operands), got %u", mn(&c), in->nopd);
        else if (!is_addr(&in->opd[0]))
            verr_opd(&c, 0, "%s: operand 1 must be the tensor-map address [addr]", mn(&c));
        else if (in->opd[1].kind != IR_OPD_IMM || in->opd[1].u.imm != 128)
            verr_opd(&c, 1, "%s: the size operand must be 128 (the bytes of a tensor map)", mn(&c));
        if (!c.errs)
            check_avail(&c, m);
        return c.errs;
    }
    if (oi->nopd_min >= 0 && in->nopd < oi->nopd_min) {
        if (oi->nopd_min == oi->nopd_max)
            verr_opd(&c, in->nopd, "%s expects %d operand%s, got %u", mn(&c), oi->nopd_min, dims_word(oi->nopd_min), in->nopd);
        else
            verr_opd(&c, in->nopd, "%s expects at least %d operand%s, got %u", mn(&c), oi->nopd_min, dims_word(oi->nopd_min), in->nopd);
        return c.errs;
    }
    if (oi->nopd_max >= 0 && in->nopd > oi->nopd_max) {
        if (oi->nopd_min == oi->nopd_max)
            verr_opd(&c, (unsigned)oi->nopd_max, "%s expects %d operand%s, got %u", mn(&c), oi->nopd_max, dims_word(oi->nopd_max), in->nopd);
        else
            verr_opd(&c, (unsigned)oi->nopd_max, "%s expects at most %d operand%s, got %u", mn(&c), oi->nopd_max, dims_word(oi->nopd_max), in->nopd);
        return c.errs;
    }
    if (in->nopd && in->opd[0].kind == IR_OPD_SREG && writes_opd0(in->op))
        verr_opd(&c, 0, "%s: special register %s is read-only", mn(&c),
             ir_sreg_name((ir_sreg)in->opd[0].u.sreg));
    switch (in->op) {
    case IR_OP_CP_ASYNC_BULK_TENSOR:
    case IR_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
    case IR_OP_CP_ASYNC_BULK_PREFETCH_TENSOR:
        check_tensor(&c);
        break;
    case IR_OP_CP_ASYNC_BULK:
    case IR_OP_CP_REDUCE_ASYNC_BULK:
        check_bulk(&c);
        break;
    case IR_OP_CP_ASYNC_BULK_PREFETCH:
        if (!ir_has(in, IR_M_L2) || in->space != IR_SPACE_GLOBAL)
            verr(&c, "%s must be .L2.global", mn(&c));
        break;
    case IR_OP_CP_ASYNC_BULK_WAIT_GROUP:
        if (in->opd[0].kind != IR_OPD_IMM)
            verr_opd(&c, 0, "%s needs an integer constant operand", mn(&c));
        break;
    case IR_OP_MBARRIER_INIT: case IR_OP_MBARRIER_INVAL: case IR_OP_MBARRIER_EXPECT_TX:
    case IR_OP_MBARRIER_COMPLETE_TX: case IR_OP_MBARRIER_ARRIVE: case IR_OP_MBARRIER_ARRIVE_DROP:
    case IR_OP_MBARRIER_TEST_WAIT: case IR_OP_MBARRIER_TRY_WAIT: case IR_OP_MBARRIER_PENDING_COUNT:
        check_mbarrier(&c);
        break;
    case IR_OP_FENCE:
        check_fence(&c);
        break;
    case IR_OP_WGMMA_MMA_ASYNC: {
        tc_wg_form wf;
        char why[200];
        int k;
        if (tc_wgmma_decode(in, &wf, &k, why, sizeof why)) {
            if (k < 0)
                verr(&c, "%s: %s", mn(&c), why);
            else
                verr_opd(&c, (unsigned)k, "%s: %s", mn(&c), why);
        } else {
            wgmma_reg_types(&c, &wf);
        }
        break;
    }
    case IR_OP_WGMMA_FENCE: case IR_OP_WGMMA_COMMIT_GROUP: case IR_OP_WGMMA_WAIT_GROUP:
        if (!ir_has(in, IR_M_SYNC) || !ir_has(in, IR_M_ALIGNED))
            verr(&c, "%s needs .sync.aligned", mn(&c));
        else if (in->op == IR_OP_WGMMA_WAIT_GROUP && in->opd[0].kind != IR_OPD_IMM)
            verr_opd(&c, 0, "%s needs an integer constant operand", mn(&c));
        break;
    case IR_OP_BARRIER_CLUSTER:
        if (ir_has(in, IR_M_ARRIVE) == ir_has(in, IR_M_WAIT))
            verr(&c, "%s needs exactly one of .arrive or .wait", mn(&c));
        else if (ir_has(in, IR_M_WAIT) && in->sem && in->sem != IR_M_ACQUIRE)
            verr(&c, "%s: barrier.cluster.wait only takes .acquire", mn(&c));
        else if (ir_has(in, IR_M_ARRIVE) && in->sem && in->sem != IR_M_RELEASE && in->sem != IR_M_RELAXED)
            verr(&c, "%s: barrier.cluster.arrive takes .release or .relaxed", mn(&c));
        break;
    case IR_OP_ELECT:
        if (!ir_has(in, IR_M_SYNC))
            verr(&c, "%s: elect needs .sync", mn(&c));
        else if (in->nopd != 2)
            verr_opd(&c, count_at(&c, 2), "%s expects d|p, membermask (2 operands)", mn(&c));
        else if (in->opd[0].kind != IR_OPD_VEC || in->opd[0].vsel != '|')
            verr_opd(&c, 0, "%s expects d|p, membermask (2 operands)", mn(&c));
        break;
    case IR_OP_MAPA:
        if (in->space && in->space != IR_SPACE_SHARED_CLUSTER)
            verr(&c, "%s: mapa only maps .shared::cluster addresses", mn(&c));
        break;
    case IR_OP_GETCTARANK:
        if (in->space && in->space != IR_SPACE_SHARED_CLUSTER)
            verr(&c, "%s: getctarank only takes .shared::cluster addresses", mn(&c));
        break;
    case IR_OP_TENSORMAP_REPLACE:
        check_tensormap_replace(&c);
        break;
    case IR_OP_MMA:
        check_mma(&c);
        break;
    case IR_OP_TENSORMAP_CP_FENCEPROXY:
        if (!ir_has(in, IR_M_TENSORMAP_GENERIC) || in->sem != IR_M_RELEASE)
            verr(&c, "%s must be .global.shared::cta.tensormap::generic.release.<scope>.sync.aligned", mn(&c));
        else if (!is_addr(&in->opd[0]) || !is_addr(&in->opd[1]))
            verr_opd(&c, !is_addr(&in->opd[0]) ? 0 : 1, "%s expects [dst], [src], size", mn(&c));
        else if (in->opd[2].kind != IR_OPD_IMM || in->opd[2].u.imm != 128)
            verr_opd(&c, 2, "%s: the size operand must be 128 (the bytes of a tensor map)", mn(&c));
        break;
    case IR_OP_PREFETCH:
        if (!ir_has(in, IR_M_TENSORMAP))
            break;
        if (in->nopd == 1 && !is_addr(&in->opd[0]))
            verr_opd(&c, 0, "%s needs an address operand [a]", mn(&c));
        else if (in->space && in->space != IR_SPACE_CONST && in->space != IR_SPACE_PARAM)
            verr(&c, "%s: prefetch.tensormap takes .const, .param or no state space (generic)", mn(&c));
        break;
    case IR_OP_SETP:
        if (in->nopd == 4 && !in->boolop)
            verr_opd(&c, 3, "%s: a fourth (predicate) operand needs .and, .or or .xor", mn(&c));
        if (!in->cmp)
            verr(&c, "%s needs a comparison (.eq, .lt, ...)", mn(&c));
        break;
    case IR_OP_CREATEPOLICY: {
        /* createpolicy.fractional.prim{.sec}.b64 d{, fraction};
         * createpolicy.range{.global}.prim{.sec}.b64 d, [a], primary, total;
         * createpolicy.cvt.L2.b64 d, access-property.  prim: one of
         * .L2::evict_last/_normal/_first/_unchanged; sec: .L2::evict_first
         * or .L2::evict_unchanged. */
        int fr = ir_has(in, IR_M_FRACTIONAL), rg = ir_has(in, IR_M_RANGE), cv = ir_has(in, IR_M_CVT);
        unsigned npri = 0, bad2 = 0;
        for (unsigned i = 0; i < in->nmods; i++) {
            int m = in->mods[i];
            if (m == IR_M_L2_EVICT_LAST || m == IR_M_L2_EVICT_NORMAL || m == IR_M_L2_EVICT_FIRST ||
                m == IR_M_L2_EVICT_UNCHANGED) {
                if (npri == 1 && m != IR_M_L2_EVICT_FIRST && m != IR_M_L2_EVICT_UNCHANGED)
                    bad2 = 1;
                npri++;
            }
        }
        if (fr + rg + cv != 1)
            verr(&c, "%s needs exactly one of .fractional, .range, .cvt", mn(&c));
        else if (cv) {
            if (npri || !ir_has(in, IR_M_L2))
                verr(&c, "%s: the conversion form is createpolicy.cvt.L2.b64", mn(&c));
            else if (in->nopd != 2)
                verr_opd(&c, count_at(&c, 2), "%s expects cache-policy, access-property (2 operands)", mn(&c));
        } else {
            if (npri < 1 || npri > 2 || bad2)
                verr(&c, "%s needs a primary priority (.L2::evict_last, .L2::evict_normal, .L2::evict_first, "
                     ".L2::evict_unchanged) and at most a secondary one (.L2::evict_first, .L2::evict_unchanged)",
                     mn(&c));
            if (fr && in->nopd > 2)
                verr_opd(&c, 2, "%s expects cache-policy{, fraction}", mn(&c));
            if (rg && in->nopd != 4)
                verr_opd(&c, count_at(&c, 4), "%s expects cache-policy, [a], primary-size, total-size", mn(&c));
            else if (rg && !is_addr(&in->opd[1]))
                verr_opd(&c, 1, "%s: operand 2 must be an address [a]", mn(&c));
        }
        if (in->ntypes != 1 || in->types[0] != IR_T_B64)
            verr(&c, "%s: the policy is .b64", mn(&c));
        break;
    }
    case IR_OP_SET:
        if (!in->cmp)
            verr(&c, "%s needs a comparison (.eq, .lt, ...)", mn(&c));
        if (in->ntypes == 2) {
            /* a half-precision compare writes an integer mask or a half
             * type (set.CmpOp.dtype.f16: .u16 .s16 .u32 .s32; set.f16.stype;
             * .f16x2 sources: .u32 .s32 or the same .f16x2 / .bf16x2) -- never
             * .f32 or .f64, and a .bf16 source never an .f16 (as ptxas 13:
             * "Unexpected instruction types") */
            int dt = in->types[0], st = in->types[1];
            int half = st == IR_T_F16 || st == IR_T_BF16, half2 = st == IR_T_F16X2 || st == IR_T_BF16X2;
            int dint = dt == IR_T_U32 || dt == IR_T_S32 || dt == IR_T_U16 || dt == IR_T_S16;
            if (half && !dint && dt != IR_T_BF16 && !(dt == IR_T_F16 && st == IR_T_F16))
                verr(&c, "%s: a .%s compare writes .u16, .s16, .u32, .s32, %s.bf16, not .%s", mn(&c),
                     ir_types[st].name, st == IR_T_F16 ? ".f16 or " : "", ir_types[dt].name);
            else if (half2 && dt != IR_T_U32 && dt != IR_T_S32 && dt != st)
                verr(&c, "%s: a .%s compare writes .u32, .s32 or .%s, not .%s", mn(&c), ir_types[st].name,
                     ir_types[st].name, ir_types[dt].name);
        }
        break;
    case IR_OP_LD: case IR_OP_ST: case IR_OP_LDU: {
        unsigned a = in->op == IR_OP_ST ? 0 : 1;
        if (in->nopd > a && !is_addr(&in->opd[a]))
            verr_opd(&c, a, "%s: operand %u must be an address [..]", mn(&c), a + 1);
        check_ldst_vec(&c);
        break;
    }
    }
    check_typed_opds(&c);
    /* a form's target and version, once it is a well-formed form */
    if (!c.errs)
        check_avail(&c, m);
    return c.errs;
}
