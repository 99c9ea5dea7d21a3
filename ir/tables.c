/* ir/tables.c — the opcode, type and modifier tables, generated from the
 * .def X-macros, and the text -> enum look-ups the front end uses.
 *
 * Look-ups go through small open-addressing hash tables built once on
 * first use (the tables are constant, so a race between two threads that
 * build them at once only writes identical values).  They are never on the
 * execution path: the interpreter reads decoded enums.
 */
#include <string.h>
#include "ir/ir.h"

const ir_opinfo ir_ops[IR_OP__COUNT] = {
#define OP(id, name, mn, mx) [IR_OP_##id] = { name, mn, mx },
#include "ir/opcodes.def"
#undef OP
};

const ir_typeinfo ir_types[IR_T__COUNT] = {
    [IR_T_NONE] = { "", 0, 0 },
#define TY(id, name, bits, kind) [IR_T_##id] = { name, bits, kind },
#include "ir/types.def"
#undef TY
};

const ir_modinfo ir_mods[IR_M__COUNT] = {
    [IR_M_NONE] = { "", "" },
#define MOD(id, text, cls) [IR_M_##id] = { text, #cls },
#include "ir/mods.def"
#undef MOD
};

static const char *sreg_names[IR_SR__COUNT] = {
    [IR_SR_TID_X] = "%tid.x", [IR_SR_TID_Y] = "%tid.y", [IR_SR_TID_Z] = "%tid.z",
    [IR_SR_NTID_X] = "%ntid.x", [IR_SR_NTID_Y] = "%ntid.y", [IR_SR_NTID_Z] = "%ntid.z",
    [IR_SR_CTAID_X] = "%ctaid.x", [IR_SR_CTAID_Y] = "%ctaid.y", [IR_SR_CTAID_Z] = "%ctaid.z",
    [IR_SR_NCTAID_X] = "%nctaid.x", [IR_SR_NCTAID_Y] = "%nctaid.y", [IR_SR_NCTAID_Z] = "%nctaid.z",
    [IR_SR_LANEID] = "%laneid", [IR_SR_WARPID] = "%warpid", [IR_SR_NWARPID] = "%nwarpid",
    [IR_SR_SMID] = "%smid", [IR_SR_NSMID] = "%nsmid", [IR_SR_GRIDID] = "%gridid",
    [IR_SR_LANEMASK_EQ] = "%lanemask_eq", [IR_SR_LANEMASK_LE] = "%lanemask_le",
    [IR_SR_LANEMASK_LT] = "%lanemask_lt", [IR_SR_LANEMASK_GE] = "%lanemask_ge",
    [IR_SR_LANEMASK_GT] = "%lanemask_gt",
    [IR_SR_CLOCK] = "%clock", [IR_SR_CLOCK_HI] = "%clock_hi", [IR_SR_CLOCK64] = "%clock64",
    [IR_SR_GLOBALTIMER] = "%globaltimer", [IR_SR_GLOBALTIMER_LO] = "%globaltimer_lo",
    [IR_SR_GLOBALTIMER_HI] = "%globaltimer_hi",
    [IR_SR_CLUSTERID_X] = "%clusterid.x", [IR_SR_CLUSTERID_Y] = "%clusterid.y",
    [IR_SR_CLUSTERID_Z] = "%clusterid.z",
    [IR_SR_NCLUSTERID_X] = "%nclusterid.x", [IR_SR_NCLUSTERID_Y] = "%nclusterid.y",
    [IR_SR_NCLUSTERID_Z] = "%nclusterid.z",
    [IR_SR_CLUSTER_CTAID_X] = "%cluster_ctaid.x", [IR_SR_CLUSTER_CTAID_Y] = "%cluster_ctaid.y",
    [IR_SR_CLUSTER_CTAID_Z] = "%cluster_ctaid.z",
    [IR_SR_CLUSTER_NCTAID_X] = "%cluster_nctaid.x", [IR_SR_CLUSTER_NCTAID_Y] = "%cluster_nctaid.y",
    [IR_SR_CLUSTER_NCTAID_Z] = "%cluster_nctaid.z",
    [IR_SR_CLUSTER_CTARANK] = "%cluster_ctarank", [IR_SR_CLUSTER_NCTARANK] = "%cluster_nctarank",
    [IR_SR_IS_EXPLICIT_CLUSTER] = "%is_explicit_cluster",
    [IR_SR_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size", [IR_SR_TOTAL_SMEM_SIZE] = "%total_smem_size",
    [IR_SR_AGGR_SMEM_SIZE] = "%aggr_smem_size",
    [IR_SR_RESERVED_SMEM_OFFSET_BEGIN] = "%reserved_smem_offset_begin",
    [IR_SR_RESERVED_SMEM_OFFSET_END] = "%reserved_smem_offset_end",
    [IR_SR_RESERVED_SMEM_OFFSET_CAP] = "%reserved_smem_offset_cap",
    [IR_SR_RESERVED_SMEM_OFFSET_0] = "%reserved_smem_offset_0",
    [IR_SR_RESERVED_SMEM_OFFSET_1] = "%reserved_smem_offset_1",
    [IR_SR_CURRENT_GRAPH_EXEC] = "%current_graph_exec",
};
static char sreg_numbered[40][12]; /* "%envreg0".."%envreg31", "%pm0".."%pm7" */

/* ---- a tiny constant-table hash ---------------------------------------- */

#define LK_SIZE 1024 /* power of two, > 2 * entries of every table */

static uint32_t lk_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

typedef struct { const char *const *names; size_t stride; int count; uint16_t slot[LK_SIZE]; int built; } lk_table;

static const char *lk_name(const lk_table *t, int i)
{
    return *(const char *const *)((const char *)t->names + (size_t)i * t->stride);
}

static void lk_build(lk_table *t)
{
    for (int i = 1; i < t->count; i++) {
        const char *nm = lk_name(t, i);
        if (!nm || !*nm)
            continue;
        uint32_t h = lk_hash(nm, strlen(nm)) & (LK_SIZE - 1);
        while (t->slot[h])
            h = (h + 1) & (LK_SIZE - 1);
        t->slot[h] = (uint16_t)i;
    }
    t->built = 1;
}

static int lk_find(lk_table *t, const char *s, size_t n)
{
    if (!t->built)
        lk_build(t);
    uint32_t h = lk_hash(s, n) & (LK_SIZE - 1);
    for (;;) {
        int i = t->slot[h];
        if (!i)
            return 0;
        const char *nm = lk_name(t, i);
        if (strncmp(nm, s, n) == 0 && nm[n] == 0)
            return i;
        h = (h + 1) & (LK_SIZE - 1);
    }
}

static lk_table mod_tab = { &ir_mods[0].text, sizeof(ir_modinfo), IR_M__COUNT, {0}, 0 };
static lk_table type_tab = { &ir_types[0].name, sizeof(ir_typeinfo), IR_T__COUNT, {0}, 0 };

static lk_table sreg_tab = { sreg_names, sizeof(char *), IR_SR__COUNT, {0}, 0 };

/* Opcode 0 (ADD) would read as "absent" in the slot array, so opcodes are
 * stored shifted by one. */
static const char *op_names_shifted[IR_OP__COUNT + 1];
static lk_table op_tab1 = { op_names_shifted, sizeof(char *), IR_OP__COUNT + 1, {0}, 0 };

ir_mod ir_mod_lookup(const char *text, size_t len) { return (ir_mod)lk_find(&mod_tab, text, len); }
ir_type ir_type_lookup(const char *text, size_t len) { return (ir_type)lk_find(&type_tab, text, len); }

/* Opcode by its dotted base name; -1 if none. */
int ir_op_lookup(const char *text, size_t len)
{
    if (!op_tab1.built)
        for (int i = 0; i < IR_OP__COUNT; i++)
            op_names_shifted[i + 1] = ir_ops[i].name;
    int i = lk_find(&op_tab1, text, len);
    return i ? i - 1 : -1;
}

static void sreg_init(void)
{
    for (int i = 0; i < 32; i++) {
        snprintf(sreg_numbered[i], sizeof sreg_numbered[i], "%%envreg%u", (unsigned)i & 31u);
        sreg_names[IR_SR_ENVREG0 + i] = sreg_numbered[i];
    }
    for (int i = 0; i < 8; i++) {
        snprintf(sreg_numbered[32 + i], sizeof sreg_numbered[0], "%%pm%u", (unsigned)i & 7u);
        sreg_names[IR_SR_PM0 + i] = sreg_numbered[32 + i];
    }
}

ir_sreg ir_sreg_lookup(const char *text, size_t len)
{
    if (!sreg_tab.built)
        sreg_init();
    return (ir_sreg)lk_find(&sreg_tab, text, len);
}

const char *ir_sreg_name(ir_sreg s)
{
    if (!sreg_tab.built)
        sreg_init();
    return (s > 0 && s < IR_SR__COUNT && sreg_names[s]) ? sreg_names[s] : "%?";
}
