/* ir/validate.c — legality of one built instruction: operand counts from
 * opcodes.def, then the rules of the TMA family (PTX ISA 9.x, sections
 * "cp.async.bulk.tensor", "cp.reduce.async.bulk(.tensor)",
 * "cp.async.bulk.prefetch.tensor", "mbarrier", "fence.proxy", ...) that
 * decide which modifier combinations and operand shapes exist.  Names in
 * messages are the ones kernel engineers read in the ISA manual.
 * Undefined/duplicate names are caught while building (parser/build.c).
 */
#include <string.h>
#include <stdarg.h>
#include "ir/ir.h"

typedef struct {
    const ir_function *f;
    const ir_instr *in;
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

static void verr(vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verr(vctx *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ir_diag_error(c->d, c->path, c->in->loc, "%s", msg);
    c->errs++;
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
        verr(c, "%s expects [dstMem], [tensorMap, tensorCoords], [mbar], got %u operands", mn(c), in->nopd);
        return;
    }
    if (!is_addr(&in->opd[2]))
        verr(c, "%s: the third operand must be the mbarrier address [mbar]", mn(c));
    int need_offs = mode == IR_M_IM2COL || mode == IR_M_IM2COL_W || mode == IR_M_IM2COL_W_128;
    if (need_offs) {
        int want = mode == IR_M_IM2COL ? dim - 2 : 2;
        const char *what = mode == IR_M_IM2COL ? "im2col offsets" : "{wHalo, wOffset}";
        if (k >= in->nopd || !is_vec(&in->opd[k]))
            verr(c, "%s needs the %s vector after [mbar]", mn(c), what);
        else if ((int)in->opd[k].u.vec.n != want)
            verr(c, "%s expects %d %s, got %u", mn(c), want,
                 mode == IR_M_IM2COL ? "im2col offsets" : "elements in {wHalo, wOffset}",
                 in->opd[k].u.vec.n);
        else
            k++;
    }
    if (ir_has(in, IR_M_MULTICAST_CLUSTER)) {
        if (k >= in->nopd || is_vec(&in->opd[k]) || is_addr(&in->opd[k]))
            verr(c, "%s: .multicast::cluster needs a ctaMask operand", mn(c));
        else
            k++;
        if (in->space != IR_SPACE_SHARED_CLUSTER)
            verr(c, "%s: .multicast::cluster needs destination .shared::cluster", mn(c));
    }
    if (ir_has(in, IR_M_L2_CACHE_HINT)) {
        if (k >= in->nopd)
            verr(c, "%s: .L2::cache_hint needs a cache-policy operand", mn(c));
        else
            k++;
    }
    if (k < in->nopd && !c->errs)
        verr(c, "%s has %u operands, expected %u", mn(c), in->nopd, k);
}

static void tensor_coords(vctx *c, const ir_operand *a)
{
    const ir_instr *in = c->in;
    if (!is_addr(a) || !a->u.addr.has_vec) {
        verr(c, "%s needs the tensor operand [tensorMap, {coordinates}]", mn(c));
        return;
    }
    int want = in->dim;
    if (in->mode == IR_M_TILE_GATHER4 || in->mode == IR_M_TILE_SCATTER4) {
        if (in->dim != 2)
            verr(c, "%s: %s is only defined for .2d", mn(c),
                 in->mode == IR_M_TILE_GATHER4 ? ".tile::gather4" : ".tile::scatter4");
        want = 5;
    }
    if (a->u.addr.vec_n != want)
        verr(c, "%s expects %d tensor coordinate%s, got %u", mn(c), want, dims_word(want),
             a->u.addr.vec_n);
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
            tensor_coords(c, &in->opd[0]);
        int need_offs = in->mode == IR_M_IM2COL || in->mode == IR_M_IM2COL_W ||
                        in->mode == IR_M_IM2COL_W_128;
        if (need_offs && (in->nopd < 2 || !is_vec(&in->opd[1])))
            verr(c, "%s needs the im2col offsets vector", mn(c));
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
            tensor_coords(c, &in->opd[0]);
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
            tensor_coords(c, &in->opd[1]);
        tensor_load(c);
    } else {
        if (!ir_has(in, IR_M_BULK_GROUP))
            verr(c, "%s: a tensor store needs .bulk_group", mn(c));
        if (in->mode == IR_M_TILE_GATHER4 || in->mode == IR_M_IM2COL_W || in->mode == IR_M_IM2COL_W_128 ||
            ir_has(in, IR_M_MULTICAST_CLUSTER))
            verr(c, "%s: this mode is only for loads", mn(c));
        if (in->nopd >= 1)
            tensor_coords(c, &in->opd[0]);
        unsigned want = 2 + ir_has(in, IR_M_L2_CACHE_HINT);
        if (in->nopd != want && !c->errs)
            verr(c, "%s expects %u operands, got %u", mn(c), want, in->nopd);
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
        verr(c, "%s expects %u operands, got %u", mn(c), want, in->nopd);
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
            verr(c, "%s: operand %u must be an address [..]", mn(c), k + 1);
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
        verr(c, "%s expects state, [addr], txCount, got %u operands", mn(c), in->nopd);
    if (in->space == IR_SPACE_SHARED_CLUSTER && (in->op == IR_OP_MBARRIER_ARRIVE ||
        in->op == IR_OP_MBARRIER_ARRIVE_DROP) && in->nopd && in->opd[0].kind != IR_OPD_SINK)
        verr(c, "%s: a remote (.shared::cluster) arrive has no state result; write '_'", mn(c));
    for (unsigned k = 0; k < in->nopd; k++) {
        int want_addr = in->op == IR_OP_MBARRIER_INIT || in->op == IR_OP_MBARRIER_INVAL ||
                        in->op == IR_OP_MBARRIER_EXPECT_TX || in->op == IR_OP_MBARRIER_COMPLETE_TX
                        ? k == 0 : k == 1;
        if (in->op == IR_OP_MBARRIER_PENDING_COUNT)
            want_addr = 0;
        if (want_addr && !is_addr(&in->opd[k]))
            verr(c, "%s: operand %u must be the mbarrier address [addr]", mn(c), k + 1);
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
        verr(c, "%s expects %s, got %u operands", mn(c),
             fields[found].ord ? "[addr], ord, value (3 operands)" : "[addr], value (2 operands)",
             in->nopd);
    else if (!is_addr(&in->opd[0]))
        verr(c, "%s: operand 1 must be the tensor-map address [addr]", mn(c));
    int ty = fields[found].b64 ? IR_T_B64 : IR_T_B32;
    if (in->ntypes < 1 || in->types[in->ntypes - 1] != ty)
        verr(c, "%s: .%s needs type .%s", mn(c), ir_mods[fields[found].mod].text, ir_types[ty].name);
}

/* Does the instruction write its first operand?  (A special register there
 * is an error: they are read-only.) */
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

int ir_validate_instr(const ir_module *m, const ir_function *f, const ir_instr *in, ir_diag *d)
{
    (void)m;
    vctx c;
    c.f = f;
    c.in = in;
    c.d = d;
    c.mn[0] = 0;
    c.errs = 0;
    c.path = d && d->path ? d->path : "<input>";
    const ir_opinfo *oi = &ir_ops[in->op];
    /* fence.proxy.tensormap::generic.acquire names the tensor map: [addr], 128
     * (PTX ISA "membar/fence"); opcodes.def bounds fence to 0 operands. */
    if (in->op == IR_OP_FENCE && ir_has(in, IR_M_TENSORMAP_GENERIC) && in->sem == IR_M_ACQUIRE) {
        if (in->nopd != 2)
            verr(&c, "%s expects [addr], size (2 operands), got %u", mn(&c), in->nopd);
        else if (!is_addr(&in->opd[0]))
            verr(&c, "%s: operand 1 must be the tensor-map address [addr]", mn(&c));
        else if (in->opd[1].kind != IR_OPD_IMM || in->opd[1].u.imm != 128)
            verr(&c, "%s: the size operand must be 128 (the bytes of a tensor map)", mn(&c));
        return c.errs;
    }
    if (oi->nopd_min >= 0 && in->nopd < oi->nopd_min) {
        if (oi->nopd_min == oi->nopd_max)
            verr(&c, "%s expects %d operand%s, got %u", mn(&c), oi->nopd_min, dims_word(oi->nopd_min), in->nopd);
        else
            verr(&c, "%s expects at least %d operand%s, got %u", mn(&c), oi->nopd_min, dims_word(oi->nopd_min), in->nopd);
        return c.errs;
    }
    if (oi->nopd_max >= 0 && in->nopd > oi->nopd_max) {
        if (oi->nopd_min == oi->nopd_max)
            verr(&c, "%s expects %d operand%s, got %u", mn(&c), oi->nopd_max, dims_word(oi->nopd_max), in->nopd);
        else
            verr(&c, "%s expects at most %d operand%s, got %u", mn(&c), oi->nopd_max, dims_word(oi->nopd_max), in->nopd);
        return c.errs;
    }
    if (in->nopd && in->opd[0].kind == IR_OPD_SREG && writes_opd0(in->op))
        verr(&c, "%s: special register %s is read-only", mn(&c),
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
            verr(&c, "%s needs an integer constant operand", mn(&c));
        break;
    case IR_OP_MBARRIER_INIT: case IR_OP_MBARRIER_INVAL: case IR_OP_MBARRIER_EXPECT_TX:
    case IR_OP_MBARRIER_COMPLETE_TX: case IR_OP_MBARRIER_ARRIVE: case IR_OP_MBARRIER_ARRIVE_DROP:
    case IR_OP_MBARRIER_TEST_WAIT: case IR_OP_MBARRIER_TRY_WAIT: case IR_OP_MBARRIER_PENDING_COUNT:
        check_mbarrier(&c);
        break;
    case IR_OP_FENCE:
        check_fence(&c);
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
        else if (in->nopd != 2 || in->opd[0].kind != IR_OPD_VEC || in->opd[0].vsel != '|')
            verr(&c, "%s expects d|p, membermask (2 operands)", mn(&c));
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
    case IR_OP_TENSORMAP_CP_FENCEPROXY:
        if (!ir_has(in, IR_M_TENSORMAP_GENERIC) || in->sem != IR_M_RELEASE)
            verr(&c, "%s must be .global.shared::cta.tensormap::generic.release.<scope>.sync.aligned", mn(&c));
        else if (!is_addr(&in->opd[0]) || !is_addr(&in->opd[1]))
            verr(&c, "%s expects [dst], [src], size", mn(&c));
        else if (in->opd[2].kind != IR_OPD_IMM || in->opd[2].u.imm != 128)
            verr(&c, "%s: the size operand must be 128 (the bytes of a tensor map)", mn(&c));
        break;
    case IR_OP_PREFETCH:
        if (!ir_has(in, IR_M_TENSORMAP))
            break;
        if (in->nopd == 1 && !is_addr(&in->opd[0]))
            verr(&c, "%s needs an address operand [a]", mn(&c));
        else if (in->space && in->space != IR_SPACE_CONST && in->space != IR_SPACE_PARAM)
            verr(&c, "%s: prefetch.tensormap takes .const, .param or no state space (generic)", mn(&c));
        break;
    case IR_OP_SETP:
        if (in->nopd == 4 && !in->boolop)
            verr(&c, "%s: a fourth (predicate) operand needs .and, .or or .xor", mn(&c));
        if (!in->cmp)
            verr(&c, "%s needs a comparison (.eq, .lt, ...)", mn(&c));
        break;
    case IR_OP_LD: case IR_OP_ST: {
        unsigned a = in->op == IR_OP_LD ? 1 : 0;
        if (in->nopd > a && !is_addr(&in->opd[a]))
            verr(&c, "%s: operand %u must be an address [..]", mn(&c), a + 1);
        break;
    }
    }
    return c.errs;
}
