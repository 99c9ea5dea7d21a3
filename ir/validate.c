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
        verr(c, "%s: a tensor load needs .mbarrier::complete_tx::bytes", c->mn);
    if (in->nopd < 3) {
        verr(c, "%s expects [dstMem], [tensorMap, tensorCoords], [mbar], got %u operands", c->mn, in->nopd);
        return;
    }
    if (!is_addr(&in->opd[2]))
        verr(c, "%s: the third operand must be the mbarrier address [mbar]", c->mn);
    int need_offs = mode == IR_M_IM2COL || mode == IR_M_IM2COL_W || mode == IR_M_IM2COL_W_128;
    if (need_offs) {
        int want = mode == IR_M_IM2COL ? dim - 2 : 2;
        const char *what = mode == IR_M_IM2COL ? "im2col offsets" : "{wHalo, wOffset}";
        if (k >= in->nopd || !is_vec(&in->opd[k]))
            verr(c, "%s needs the %s vector after [mbar]", c->mn, what);
        else if ((int)in->opd[k].u.vec.n != want)
            verr(c, "%s expects %d %s, got %u", c->mn, want,
                 mode == IR_M_IM2COL ? "im2col offsets" : "elements in {wHalo, wOffset}",
                 in->opd[k].u.vec.n);
        else
            k++;
    }
    if (ir_has(in, IR_M_MULTICAST_CLUSTER)) {
        if (k >= in->nopd || is_vec(&in->opd[k]) || is_addr(&in->opd[k]))
            verr(c, "%s: .multicast::cluster needs a ctaMask operand", c->mn);
        else
            k++;
        if (in->space != IR_SPACE_SHARED_CLUSTER)
            verr(c, "%s: .multicast::cluster needs destination .shared::cluster", c->mn);
    }
    if (ir_has(in, IR_M_L2_CACHE_HINT)) {
        if (k >= in->nopd)
            verr(c, "%s: .L2::cache_hint needs a cache-policy operand", c->mn);
        else
            k++;
    }
    if (k < in->nopd && !c->errs)
        verr(c, "%s has %u operands, expected %u", c->mn, in->nopd, k);
}

static void tensor_coords(vctx *c, const ir_operand *a)
{
    const ir_instr *in = c->in;
    if (!is_addr(a) || !a->u.addr.has_vec) {
        verr(c, "%s needs the tensor operand [tensorMap, {coordinates}]", c->mn);
        return;
    }
    int want = in->dim;
    if (in->mode == IR_M_TILE_GATHER4 || in->mode == IR_M_TILE_SCATTER4) {
        if (in->dim != 2)
            verr(c, "%s: %s is only defined for .2d", c->mn,
                 in->mode == IR_M_TILE_GATHER4 ? ".tile::gather4" : ".tile::scatter4");
        want = 5;
    }
    if (a->u.addr.vec_n != want)
        verr(c, "%s expects %d tensor coordinate%s, got %u", c->mn, want, dims_word(want),
             a->u.addr.vec_n);
}

static void check_tensor(vctx *c)
{
    const ir_instr *in = c->in;
    if (!in->dim) {
        verr(c, "%s needs a dimension (.1d to .5d)", c->mn);
        return;
    }
    if ((in->mode == IR_M_IM2COL || in->mode == IR_M_IM2COL_W || in->mode == IR_M_IM2COL_W_128 ||
         in->mode == IR_M_IM2COL_NO_OFFS) && in->dim < 3) {
        verr(c, "%s: im2col modes need .3d, .4d or .5d", c->mn);
        return;
    }
    if (in->op == IR_OP_CP_ASYNC_BULK_PREFETCH_TENSOR) {
        if (!ir_has(in, IR_M_L2) || in->space != IR_SPACE_GLOBAL)
            verr(c, "%s must be .L2.global", c->mn);
        if (in->nopd >= 1)
            tensor_coords(c, &in->opd[0]);
        int need_offs = in->mode == IR_M_IM2COL || in->mode == IR_M_IM2COL_W ||
                        in->mode == IR_M_IM2COL_W_128;
        if (need_offs && (in->nopd < 2 || !is_vec(&in->opd[1])))
            verr(c, "%s needs the im2col offsets vector", c->mn);
        return;
    }
    int load = is_shared(in->space) && in->space2 == IR_SPACE_GLOBAL;
    int store = in->space == IR_SPACE_GLOBAL && in->space2 == IR_SPACE_SHARED_CTA;
    if (in->op == IR_OP_CP_REDUCE_ASYNC_BULK_TENSOR) {
        if (!store)
            verr(c, "%s must copy .global.shared::cta", c->mn);
        if (!in->redop)
            verr(c, "%s needs a reduction (.add .min .max .inc .dec .and .or .xor)", c->mn);
        if (!ir_has(in, IR_M_BULK_GROUP))
            verr(c, "%s needs .bulk_group", c->mn);
        if (in->nopd >= 1)
            tensor_coords(c, &in->opd[0]);
        return;
    }
    if (!load && !store) {
        verr(c, "%s: direction must be .shared::cluster.global, .shared::cta.global or .global.shared::cta", c->mn);
        return;
    }
    if (load) {
        if (in->mode == IR_M_TILE_SCATTER4 || in->mode == IR_M_IM2COL_NO_OFFS)
            verr(c, "%s: this mode is only for stores", c->mn);
        if (in->nopd >= 2)
            tensor_coords(c, &in->opd[1]);
        tensor_load(c);
    } else {
        if (!ir_has(in, IR_M_BULK_GROUP))
            verr(c, "%s: a tensor store needs .bulk_group", c->mn);
        if (in->mode == IR_M_TILE_GATHER4 || in->mode == IR_M_IM2COL_W || in->mode == IR_M_IM2COL_W_128 ||
            ir_has(in, IR_M_MULTICAST_CLUSTER))
            verr(c, "%s: this mode is only for loads", c->mn);
        if (in->nopd >= 1)
            tensor_coords(c, &in->opd[0]);
        unsigned want = 2 + ir_has(in, IR_M_L2_CACHE_HINT);
        if (in->nopd != want && !c->errs)
            verr(c, "%s expects %u operands, got %u", c->mn, want, in->nopd);
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
        verr(c, "%s: direction must be .shared::cluster.global, .shared::cluster.shared::cta or .global.shared::cta", c->mn);
        return;
    }
    if ((g2s || s2s) && !ir_has(in, IR_M_MBARRIER_COMPLETE_TX_BYTES))
        verr(c, "%s needs .mbarrier::complete_tx::bytes", c->mn);
    if (s2g && !ir_has(in, IR_M_BULK_GROUP))
        verr(c, "%s needs .bulk_group", c->mn);
    unsigned want = (g2s || s2s) ? 4 : 3;
    if (ir_has(in, IR_M_MULTICAST_CLUSTER))
        want++;
    if (ir_has(in, IR_M_L2_CACHE_HINT))
        want++;
    if (ir_has(in, IR_M_CP_MASK))
        want++;
    if (in->nopd != want)
        verr(c, "%s expects %u operands, got %u", c->mn, want, in->nopd);
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
            verr(c, "%s needs a reduction (.add .min .max .inc .dec .and .or .xor)", c->mn);
            return;
        }
        if (in->ntypes != 1)
            verr(c, "%s needs one element type", c->mn);
        else if (!type_in(in, ok))
            verr(c, "%s: .%s does not support .%s", c->mn, ir_mods[in->redop].text,
                 ir_types[in->types[0]].name);
    }
    for (unsigned k = 0; k < 2 && k < in->nopd; k++)
        if (!is_addr(&in->opd[k]))
            verr(c, "%s: operand %u must be an address [..]", c->mn, k + 1);
}

static void check_mbarrier(vctx *c)
{
    const ir_instr *in = c->in;
    if (in->space && !is_shared(in->space))
        verr(c, "%s: mbarrier objects live in .shared memory", c->mn);
    if (in->op == IR_OP_MBARRIER_TRY_WAIT || in->op == IR_OP_MBARRIER_TEST_WAIT ||
        in->op == IR_OP_MBARRIER_INIT || in->op == IR_OP_MBARRIER_ARRIVE ||
        in->op == IR_OP_MBARRIER_ARRIVE_DROP || in->op == IR_OP_MBARRIER_EXPECT_TX ||
        in->op == IR_OP_MBARRIER_COMPLETE_TX || in->op == IR_OP_MBARRIER_INVAL) {
        if (in->ntypes != 1 || in->types[0] != IR_T_B64)
            verr(c, "%s needs type .b64", c->mn);
    }
    if ((in->op == IR_OP_MBARRIER_ARRIVE || in->op == IR_OP_MBARRIER_ARRIVE_DROP) &&
        ir_has(in, IR_M_EXPECT_TX) && in->nopd != 3)
        verr(c, "%s expects state, [addr], txCount, got %u operands", c->mn, in->nopd);
    if (in->space == IR_SPACE_SHARED_CLUSTER && (in->op == IR_OP_MBARRIER_ARRIVE ||
        in->op == IR_OP_MBARRIER_ARRIVE_DROP) && in->nopd && in->opd[0].kind != IR_OPD_SINK)
        verr(c, "%s: a remote (.shared::cluster) arrive has no state result; write '_'", c->mn);
    for (unsigned k = 0; k < in->nopd; k++) {
        int want_addr = in->op == IR_OP_MBARRIER_INIT || in->op == IR_OP_MBARRIER_INVAL ||
                        in->op == IR_OP_MBARRIER_EXPECT_TX || in->op == IR_OP_MBARRIER_COMPLETE_TX
                        ? k == 0 : k == 1;
        if (in->op == IR_OP_MBARRIER_PENDING_COUNT)
            want_addr = 0;
        if (want_addr && !is_addr(&in->opd[k]))
            verr(c, "%s: operand %u must be the mbarrier address [addr]", c->mn, k + 1);
    }
}

static void check_fence(vctx *c)
{
    const ir_instr *in = c->in;
    if (ir_has(in, IR_M_PROXY)) {
        int ok = ir_has(in, IR_M_ASYNC) || ir_has(in, IR_M_ALIAS) ||
                 ir_has(in, IR_M_TENSORMAP_GENERIC);
        if (!ok)
            verr(c, "%s: fence.proxy needs a proxy kind (.alias, .async, .async.shared::cta, "
                 ".async.shared::cluster, .async.global, .tensormap::generic)", c->mn);
        if (ir_has(in, IR_M_TENSORMAP_GENERIC) && (!in->sem || !in->scope))
            verr(c, "%s: fence.proxy.tensormap::generic needs .release or .acquire and a scope", c->mn);
    } else if (ir_has(in, IR_M_MBARRIER_INIT)) {
        if (in->sem != IR_M_RELEASE || in->scope != IR_M_CLUSTER)
            verr(c, "%s: only fence.mbarrier_init.release.cluster exists", c->mn);
    }
}

int ir_validate_instr(const ir_module *m, const ir_function *f, const ir_instr *in, ir_diag *d)
{
    (void)m;
    vctx c = { f, in, d, NULL, "", 0 };
    c.path = d && d->path ? d->path : "<input>";
    ir_format_mnemonic(in, c.mn, sizeof c.mn);
    const ir_opinfo *oi = &ir_ops[in->op];
    /* fence.proxy.tensormap::generic.acquire names the tensor map: [addr], 128
     * (PTX ISA "membar/fence"); opcodes.def bounds fence to 0 operands. */
    if (in->op == IR_OP_FENCE && ir_has(in, IR_M_TENSORMAP_GENERIC) && in->sem == IR_M_ACQUIRE) {
        if (in->nopd != 2)
            verr(&c, "%s expects [addr], size (2 operands), got %u", c.mn, in->nopd);
        return c.errs;
    }
    if (oi->nopd_min >= 0 && in->nopd < oi->nopd_min) {
        if (oi->nopd_min == oi->nopd_max)
            verr(&c, "%s expects %d operand%s, got %u", c.mn, oi->nopd_min, dims_word(oi->nopd_min), in->nopd);
        else
            verr(&c, "%s expects at least %d operand%s, got %u", c.mn, oi->nopd_min, dims_word(oi->nopd_min), in->nopd);
        return c.errs;
    }
    if (oi->nopd_max >= 0 && in->nopd > oi->nopd_max) {
        if (oi->nopd_min == oi->nopd_max)
            verr(&c, "%s expects %d operand%s, got %u", c.mn, oi->nopd_max, dims_word(oi->nopd_max), in->nopd);
        else
            verr(&c, "%s expects at most %d operand%s, got %u", c.mn, oi->nopd_max, dims_word(oi->nopd_max), in->nopd);
        return c.errs;
    }
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
            verr(&c, "%s must be .L2.global", c.mn);
        break;
    case IR_OP_CP_ASYNC_BULK_WAIT_GROUP:
        if (in->opd[0].kind != IR_OPD_IMM)
            verr(&c, "%s needs an integer constant operand", c.mn);
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
            verr(&c, "%s needs exactly one of .arrive or .wait", c.mn);
        else if (ir_has(in, IR_M_WAIT) && in->sem && in->sem != IR_M_ACQUIRE)
            verr(&c, "%s: barrier.cluster.wait only takes .acquire", c.mn);
        else if (ir_has(in, IR_M_ARRIVE) && in->sem && in->sem != IR_M_RELEASE && in->sem != IR_M_RELAXED)
            verr(&c, "%s: barrier.cluster.arrive takes .release or .relaxed", c.mn);
        break;
    case IR_OP_ELECT:
        if (!ir_has(in, IR_M_SYNC))
            verr(&c, "%s: elect needs .sync", c.mn);
        break;
    case IR_OP_MAPA:
        if (in->space && in->space != IR_SPACE_SHARED_CLUSTER)
            verr(&c, "%s: mapa only maps .shared::cluster addresses", c.mn);
        break;
    case IR_OP_GETCTARANK:
        if (in->space && in->space != IR_SPACE_SHARED_CLUSTER)
            verr(&c, "%s: getctarank only takes .shared::cluster addresses", c.mn);
        break;
    case IR_OP_TENSORMAP_REPLACE:
        if (!ir_has(in, IR_M_TILE))
            verr(&c, "%s needs .tile", c.mn);
        break;
    case IR_OP_TENSORMAP_CP_FENCEPROXY:
        if (!ir_has(in, IR_M_TENSORMAP_GENERIC) || in->sem != IR_M_RELEASE)
            verr(&c, "%s must be .global.shared::cta.tensormap::generic.release.<scope>.sync.aligned", c.mn);
        break;
    case IR_OP_PREFETCH:
        if (ir_has(in, IR_M_TENSORMAP) && in->nopd == 1 && !is_addr(&in->opd[0]))
            verr(&c, "%s needs an address operand [a]", c.mn);
        break;
    case IR_OP_SETP:
        if (in->nopd == 4 && !in->boolop)
            verr(&c, "%s: a fourth (predicate) operand needs .and, .or or .xor", c.mn);
        if (!in->cmp)
            verr(&c, "%s needs a comparison (.eq, .lt, ...)", c.mn);
        break;
    case IR_OP_LD: case IR_OP_ST: {
        unsigned a = in->op == IR_OP_LD ? 1 : 0;
        if (in->nopd > a && !is_addr(&in->opd[a]))
            verr(&c, "%s: operand %u must be an address [..]", c.mn, a + 1);
        break;
    }
    }
    return c.errs;
}
