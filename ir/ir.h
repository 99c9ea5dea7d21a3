/* ir.h — the IR: the contract between the PTX front end and the interpreter.
 *
 * A module (ir_module) holds module-scope variables and functions (entries
 * and .funcs).  A function holds its parameters, its register declarations
 * (each register gets a dense slot number), and a flat array of decoded
 * instructions.  An instruction is an opcode (opcodes.def), its modifiers
 * as enums in source order (mods.def) plus a bit-set for O(1) tests, its
 * types (types.def), resolved operands (register slot, immediate, symbol,
 * address, vector, label -> instruction index, special register), an
 * optional predicate guard and its source location.  The decoded fields
 * (space, cmp, rnd, dim, mode, ...) are filled by the builder so that the
 * interpreter never looks at text.
 *
 * Everything a module owns lives in its arena (ir_arena) and is freed at
 * once by ir_module_free().
 */
#ifndef PTXI_IR_H
#define PTXI_IR_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>

/* ---- tables ------------------------------------------------------------ */

typedef enum {
#define OP(id, name, mn, mx) IR_OP_##id,
#include "ir/opcodes.def"
#undef OP
    IR_OP__COUNT
} ir_opcode;

typedef enum {
    IR_T_NONE = 0,
#define TY(id, name, bits, kind) IR_T_##id,
#include "ir/types.def"
#undef TY
    IR_T__COUNT
} ir_type;

typedef enum {
    IR_M_NONE = 0,
#define MOD(id, text, cls) IR_M_##id,
#include "ir/mods.def"
#undef MOD
    IR_M__COUNT
} ir_mod;

typedef struct {
    const char *name;
    int8_t nopd_min, nopd_max;
} ir_opinfo;
typedef struct {
    const char *name;
    uint8_t bits;
    char kind;
} ir_typeinfo;
typedef struct {
    const char *text;
    const char *cls;
} ir_modinfo;

extern const ir_opinfo ir_ops[IR_OP__COUNT];
extern const ir_typeinfo ir_types[IR_T__COUNT];
extern const ir_modinfo ir_mods[IR_M__COUNT];

/* Look-ups used by the front end only (never on the execution path). */
ir_mod ir_mod_lookup(const char *text, size_t len);    /* IR_M_NONE if unknown */
ir_type ir_type_lookup(const char *text, size_t len);  /* IR_T_NONE if unknown */

/* ---- special registers ---------------------------------------------------*/

typedef enum {
    IR_SR_NONE = 0,
    IR_SR_TID_X, IR_SR_TID_Y, IR_SR_TID_Z,
    IR_SR_NTID_X, IR_SR_NTID_Y, IR_SR_NTID_Z,
    IR_SR_CTAID_X, IR_SR_CTAID_Y, IR_SR_CTAID_Z,
    IR_SR_NCTAID_X, IR_SR_NCTAID_Y, IR_SR_NCTAID_Z,
    IR_SR_LANEID, IR_SR_WARPID, IR_SR_NWARPID, IR_SR_SMID, IR_SR_NSMID,
    IR_SR_GRIDID, IR_SR_LANEMASK_EQ, IR_SR_LANEMASK_LE, IR_SR_LANEMASK_LT,
    IR_SR_LANEMASK_GE, IR_SR_LANEMASK_GT,
    IR_SR_CLOCK, IR_SR_CLOCK_HI, IR_SR_CLOCK64, IR_SR_GLOBALTIMER,
    IR_SR_GLOBALTIMER_LO, IR_SR_GLOBALTIMER_HI,
    IR_SR_CLUSTERID_X, IR_SR_CLUSTERID_Y, IR_SR_CLUSTERID_Z,
    IR_SR_NCLUSTERID_X, IR_SR_NCLUSTERID_Y, IR_SR_NCLUSTERID_Z,
    IR_SR_CLUSTER_CTAID_X, IR_SR_CLUSTER_CTAID_Y, IR_SR_CLUSTER_CTAID_Z,
    IR_SR_CLUSTER_NCTAID_X, IR_SR_CLUSTER_NCTAID_Y, IR_SR_CLUSTER_NCTAID_Z,
    IR_SR_CLUSTER_CTARANK, IR_SR_CLUSTER_NCTARANK, IR_SR_IS_EXPLICIT_CLUSTER,
    IR_SR_DYNAMIC_SMEM_SIZE, IR_SR_TOTAL_SMEM_SIZE, IR_SR_AGGR_SMEM_SIZE,
    IR_SR_ENVREG0,      /* %envreg0..31 = IR_SR_ENVREG0 + n */
    IR_SR_PM0 = IR_SR_ENVREG0 + 32, /* %pm0..7 */
    /* appended by the front end */
    IR_SR_RESERVED_SMEM_OFFSET_BEGIN = IR_SR_PM0 + 8, IR_SR_RESERVED_SMEM_OFFSET_END,
    IR_SR_RESERVED_SMEM_OFFSET_CAP, IR_SR_RESERVED_SMEM_OFFSET_0,
    IR_SR_RESERVED_SMEM_OFFSET_1, IR_SR_CURRENT_GRAPH_EXEC,
    IR_SR__COUNT
} ir_sreg;

/* "%tid.x" -> IR_SR_TID_X etc.; IR_SR_NONE if not a special register. */
ir_sreg ir_sreg_lookup(const char *text, size_t len);
const char *ir_sreg_name(ir_sreg s);

/* ---- source locations ----------------------------------------------------*/

typedef struct {
    uint32_t line;   /* 1-based line in the .ptx file */
    uint16_t col;    /* 1-based column */
    uint16_t file;   /* index into ir_module.files (the .ptx path is 0) */
} ir_loc;

/* ---- state spaces ----------------------------------------------------- */

typedef enum {
    IR_SPACE_NONE = 0,   /* generic */
    IR_SPACE_REG, IR_SPACE_SREG,
    IR_SPACE_GLOBAL, IR_SPACE_SHARED_CTA, IR_SPACE_SHARED_CLUSTER,
    IR_SPACE_LOCAL, IR_SPACE_CONST, IR_SPACE_PARAM, IR_SPACE_PARAM_FUNC,
    IR_SPACE_TEX
} ir_space;

/* ---- operands ------------------------------------------------------------*/

typedef enum {
    IR_OPD_NONE = 0,
    IR_OPD_REG,     /* u.reg: register slot in the function                */
    IR_OPD_IMM,     /* u.imm: integer immediate (as 64-bit two's complement)*/
    IR_OPD_FIMM,    /* u.fimm: 0f/0d or decimal float; bits in u.imm too   */
    IR_OPD_SYM,     /* u.sym: a variable's address / a function / a param  */
    IR_OPD_ADDR,    /* [base + off] (u.addr), optional vector (tensor coords)*/
    IR_OPD_VEC,     /* {a, b, ...}: u.vec.first/n into ir_function.vecpool */
    IR_OPD_LABEL,   /* u.label: resolved instruction index in the function */
    IR_OPD_SREG,    /* u.sreg: special register                             */
    IR_OPD_SINK,    /* _                                                    */
} ir_opd_kind;
/* IR_OPD_FIMM: u.imm holds the bits as written (0f: 32-bit pattern, 0d and
 * decimal: double bits), fimm the value; type is IR_T_F32 for 0f, else
 * IR_T_F64; vsel records the written form ('f', 'd', 'e' decimal).
 * IR_OPD_VEC with vsel == '|' is the predicate pair `d|p` of setp, set,
 * elect.sync, ... (2 elements, counted as one operand). */

typedef enum {
    IR_BASE_NONE = 0, /* [imm]                                          */
    IR_BASE_REG,      /* [%r + off]                                     */
    IR_BASE_SYM,      /* [sym + off]: module/local variable or param    */
} ir_base_kind;

typedef struct ir_operand {
    uint8_t kind;    /* ir_opd_kind */
    uint8_t neg;     /* !%p predicate negation as an operand; '-' on reg (rare) */
    uint8_t vsel;    /* .x/.y/.z/.w or .b0.. selector on a register, 0 = none */
    uint8_t type;    /* optional per-operand type (e.g. call arguments), IR_T_NONE */
    uint16_t xsel;   /* SIMD video selector/mask on a register (vadd2 %r1.h10,
                        vmax4 %r2.b3210), 0 = none: bit 15 'b' (else 'h'),
                        bits 12-14 the digit count (1-4), bits 0-11 the digits,
                        3 bits each, the first written in the highest slot.
                        Byte/half selectors of one digit (.b0-.b3, .h0, .h1)
                        are vsel codes instead. */
    union {
        uint32_t reg;
        int64_t imm;
        uint32_t sym;     /* index into ir_module.syms */
        uint32_t label;   /* instruction index */
        uint32_t sreg;    /* ir_sreg */
        struct {
            uint32_t first; /* into ir_function.vecpool */
            uint32_t n;
        } vec;
        struct {
            uint8_t base_kind;  /* ir_base_kind */
            uint8_t has_vec;    /* [tmap, {c0, c1}] : vec_first/vec_n valid */
            uint8_t base32;     /* IR_BASE_REG with a 32-bit register: the
                                 * address wraps modulo 2^32 (set when built) */
            uint16_t vec_n;
            uint32_t base;      /* register slot or symbol index */
            int64_t off;
            uint32_t vec_first; /* into ir_function.vecpool */
        } addr;
    } u;
    double fimm;      /* value of a float immediate (IR_OPD_FIMM) */
} ir_operand;

/* ---- instructions -------------------------------------------------------- */

#define IR_MAX_MODS 16
#define IR_MAX_TYPES 4
#define IR_MAX_OPDS 10
#define IR_MODSET_WORDS ((IR_M__COUNT + 63) / 64)

typedef struct ir_instr {
    uint16_t op;                 /* ir_opcode */
    uint8_t nmods, ntypes, nopd;
    uint8_t guard_neg;           /* @!%p */
    uint16_t mods[IR_MAX_MODS];  /* modifiers in source order, printer uses */
    uint8_t types[IR_MAX_TYPES]; /* types in source order (cvt.f32.s32: f32, s32) */
    int32_t guard;               /* predicate register slot, -1 = none */
    uint64_t modset[IR_MODSET_WORDS]; /* bit per ir_mod present */
    /* Decoded modifier classes (0 = absent), filled by the builder. */
    uint8_t space;    /* ir_space of the (first) state-space modifier; for
                         copies: destination space */
    uint8_t space2;   /* second state space (copies: source space) */
    uint8_t cmp;      /* ir_mod of the comparison (IR_M_EQ...) */
    uint8_t boolop;   /* ir_mod of setp's combining op (IR_M_AND/OR/XOR) */
    uint8_t rnd;      /* ir_mod of the rounding modifier */
    uint8_t dim;      /* 1..5 for .1d .. .5d */
    uint8_t mode;     /* ir_mod of the TMA mode (IR_M_TILE, IR_M_IM2COL, ...) */
    uint8_t scope;    /* ir_mod of scope */
    uint8_t sem;      /* ir_mod of memory-ordering semantics */
    uint8_t vec;      /* 1, 2, 4 or 8 */
    uint16_t redop;   /* ir_mod of atom/red/cp.reduce/redux/bar.red op */
    ir_operand opd[IR_MAX_OPDS];
    ir_loc loc;
    uint32_t aux;     /* builder/interpreter private (e.g. call target fn) */
    /* Front end: bit k set = the k-th written suffix after the opcode name
     * was a type (types and modifiers interleave, e.g. prmt.b32.f4e); the
     * printer replays mods[]/types[] in that order. */
    uint32_t partmask;
} ir_instr;

static inline bool ir_has(const ir_instr *in, ir_mod m)
{
    return (in->modset[m >> 6] >> (m & 63)) & 1;
}

/* ---- symbols: variables, parameters, functions ------------------------- */

typedef enum {
    IR_SYM_VAR,   /* a variable in a state space */
    IR_SYM_PARAM, /* a kernel or function parameter */
    IR_SYM_FUNC,  /* a .func or .entry (index in ir_module.funcs in .func_index) */
} ir_sym_kind;

typedef struct ir_symbol {
    const char *name;
    uint8_t kind;      /* ir_sym_kind */
    uint8_t space;     /* ir_space */
    uint8_t type;      /* element type (ir_type) */
    uint8_t vec;       /* .v2/.v4 element vector, 1 if none */
    uint8_t linkage;   /* 0, or 'v' visible, 'e' extern, 'w' weak, 'c' common */
    uint8_t is_ptr;    /* .param .u64 .ptr ... */
    uint8_t ptr_space; /* .ptr.global etc */
    uint32_t align;    /* bytes; 0 = natural */
    uint64_t nelem;    /* array elements (1 for scalars; 0 for `[]` unsized) */
    uint64_t size;     /* bytes = nelem * vec * elemsize */
    uint8_t *init;     /* initial bytes (size bytes) or NULL = zero */
    /* Initialisers that name other symbols (generic(sym), sym+off): */
    uint32_t ninit_relocs;
    struct ir_init_reloc { uint64_t offset; uint32_t sym; int64_t addend; uint8_t bytes; uint8_t generic; } *init_relocs;
    int32_t func_index; /* IR_SYM_FUNC: index into ir_module.funcs */
    int32_t owner;      /* -1 module scope, else function index (locals, params) */
    uint32_t param_offset; /* IR_SYM_PARAM: byte offset in the param block */
    ir_loc loc;
    uint8_t is_array;      /* declared with [..] (printer) */
    uint32_t ptr_align;    /* .ptr .align N: alignment of the pointee */
    const char *proto;     /* `.callprototype ...` text (kind FUNC, func_index -1) */
    uint32_t reg1;         /* a `.reg` parameter of a defined .func: its register
                            * slot in that function + 1 (the body names it as a
                            * register); 0 otherwise */
} ir_symbol;

/* ---- registers ------------------------------------------------------------*/

typedef struct ir_regdecl {
    const char *name;   /* full name, e.g. "%r12" (ranges are expanded) */
    uint8_t type;       /* ir_type */
    uint8_t vec;        /* .v2/.v4 register: 1 if scalar */
    ir_loc loc;
} ir_regdecl;

/* ---- functions --------------------------------------------------------- */

typedef struct ir_function {
    const char *name;
    bool is_entry;
    uint8_t linkage;           /* see ir_symbol.linkage */
    bool is_decl;              /* prototype only (no body) */
    uint32_t sym;              /* its symbol index */
    /* parameters (symbols, in declaration order) */
    uint32_t nparams;
    uint32_t *params;          /* symbol indices */
    uint32_t param_bytes;      /* size of the param block (entry params) */
    uint32_t nrets;
    uint32_t *rets;            /* return-parameter symbol indices (.func) */
    /* performance directives, 0 when absent */
    uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
    uint32_t minnctapersm, maxnreg, maxclusterrank;
    bool explicitcluster, noreturn;
    /* registers: slot i is regs[i]; predicates included */
    uint32_t nregs;
    ir_regdecl *regs;
    /* local-scope variables (.local/.shared declared in the body): symbols */
    uint32_t nlocals;
    uint32_t *locals;
    /* body */
    uint32_t ninstrs;
    ir_instr *instrs;
    uint32_t nvecpool;
    ir_operand *vecpool;       /* elements of vector operands */
    /* labels, for the printer and the debugger */
    uint32_t nlabels;
    struct ir_label { const char *name; uint32_t instr; } *labels;
    ir_loc loc;
    /* Front end: declarations, scopes, labels and pragmas in source order,
     * each placed before instruction `instr` (printer only). */
    uint32_t nevents;
    struct ir_event {
        uint32_t instr;
        uint8_t kind;      /* IR_EV_* */
        uint32_t idx;      /* reg slot / symbol / label index / pragma string */
        uint32_t n;        /* IR_EV_REG: slots declared; >1 or range = `<n>` */
        uint8_t range;
    } *events;
    /* `.pragma` directives: each is its string list, quotes included and
     * joined by ", " (`"nounroll"`, `"a", "b"`), without the ';'.  The first
     * nhead_pragmas stand between the header and the body (entry scope:
     * `.entry k() .pragma "nounroll"; {`); IR_EV_PRAGMA events place the
     * others in the body.  No semantics: kept so that print keeps them. */
    uint32_t npragmas, nhead_pragmas;
    const char **pragmas;
} ir_function;
enum { IR_EV_SCOPE_OPEN = 1, IR_EV_SCOPE_CLOSE, IR_EV_REG, IR_EV_SYM, IR_EV_LABEL, IR_EV_PRAGMA };

/* ---- module ------------------------------------------------------------*/

typedef struct ir_arena ir_arena;

typedef struct ir_module {
    ir_arena *arena;
    const char *path;          /* the .ptx file */
    uint32_t version_major, version_minor;
    char target[32];           /* "sm_90a" */
    bool target_debug, texmode_unified;
    uint32_t address_size;     /* 32 or 64 */
    uint32_t nfiles;           /* .file directives (debug info): files[N] is `.file N`'s path */
    const char **files;
    /* .loc directives (ir/srcmap.c): srclines[L] is the source line in
     * force at PTX line L (1..nsrclines); NULL when the PTX has no .loc. */
    uint32_t nsrclines;
    struct ir_srcline { uint32_t line; uint16_t file; } *srclines;
    uint32_t nsyms;
    ir_symbol *syms;           /* every symbol, module and function scope */
    uint32_t nfuncs;
    ir_function *funcs;
    /* Source text kept for diagnostics (line lookup). */
    const char *src;
    size_t src_len;
    /* Front end: module-scope items in source order (printer). */
    uint32_t nitems;
    struct ir_item { uint8_t kind; uint32_t idx; } *items; /* IR_ITEM_* */
    uint32_t npragmas;
    const char **pragmas;      /* module-scope `.pragma` string lists (IR_ITEM_PRAGMA) */
} ir_module;
enum { IR_ITEM_SYM = 1, IR_ITEM_FUNC_DECL, IR_ITEM_FUNC_DEF, IR_ITEM_PRAGMA };

/* arena */
ir_arena *ir_arena_new(void);
void *ir_arena_alloc(ir_arena *a, size_t n);        /* zeroed, 16-aligned */
void *ir_arena_alloc_raw(ir_arena *a, size_t n);    /* not zeroed, 16-aligned */
void ir_arena_adopt(ir_arena *a, void *p);          /* free(p) with the arena */
void *ir_big_realloc(void *p, size_t n);            /* realloc for big arrays; aborts on OOM */
void *ir_arena_extend(ir_arena *a, void *p, size_t old, size_t n); /* grow/shrink the last block */
ir_arena *ir_arena_sub(ir_arena *a);                /* an arena freed with `a` */
char *ir_arena_strdup(ir_arena *a, const char *s, size_t n);
void ir_arena_free(ir_arena *a);

/* ---- front-end entry points (parser/, ir/) ----------------------------- */

/* Diagnostics sink: every error/warning goes through it. */
typedef struct ir_diag {
    unsigned nerrors, nwarnings;
    void (*emit)(struct ir_diag *d, const char *file, ir_loc loc,
                 const char *severity, const char *msg);  /* NULL = stderr */
    void *user;
    const char *src;           /* for quoting the line; set by the parser */
    size_t src_len;
    const char *path;          /* file being parsed; set by the parser */
} ir_diag;

/* Parse + build + validate.  Returns NULL if any error was reported (all
 * errors are reported, not only the first).  `path` is used in messages. */
ir_module *ptx_parse(const char *path, const char *src, size_t len, ir_diag *diag);
ir_module *ptx_parse_file(const char *path, ir_diag *diag);
void ir_module_free(ir_module *m);

/* Front-end internals shared by lexer/, parser/ and ir/ (added by the
 * front end; other folders need not call them). */
void ir_diag_error(ir_diag *d, const char *file, ir_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int ir_op_lookup(const char *text, size_t len);  /* -1 if not an opcode name */
/* Where an instruction's operands were written, for diagnostics (the IR
 * keeps only the instruction's own location): opd[k] is operand k's first
 * character, opd[nopd] the ';' that ends the instruction (where a missing
 * operand belongs), coords[k] the '{' of operand k's [tensorMap, {..}].
 * Line 0 = unknown: the message points at the instruction. */
typedef struct ir_opd_locs {
    ir_loc opd[IR_MAX_OPDS + 2];
    ir_loc coords[IR_MAX_OPDS];
} ir_opd_locs;
/* Legality of one built instruction: operand counts, operand kinds and
 * register types, and the rules of the TMA family; then, when `m` is given
 * and the form is well formed, whether m's .target and .version have it
 * (ir/avail.def).  Reports through `d` (at the operand concerned when
 * `locs` is given, else at the instruction) and returns the number of
 * errors. */
int ir_validate_instr(const ir_module *m, const ir_function *f, const ir_instr *in,
                      const ir_opd_locs *locs, ir_diag *d);
/* The PTX ISA version (x10: 86 = 8.6) that `.target` needs, as ptxas
 * knows it (ir/avail.def's TARGET list); 0 for a target not listed. */
unsigned ir_target_min_ptx(const char *target);
/* The mnemonic of `in` as written (opcode name, then modifiers and types). */
int ir_format_mnemonic(const ir_instr *in, char *buf, size_t len);

/* Print the module back as PTX text that parses to the same IR. */
void ir_print_module(const ir_module *m, FILE *out);
/* Canonical dump used by round-trip tests (no locations, no label names). */
void ir_dump_canonical(const ir_module *m, FILE *out);

/* Helpers for users of the IR. */
const ir_function *ir_find_function(const ir_module *m, const char *name);
const ir_symbol *ir_find_symbol(const ir_module *m, const char *name, int32_t owner);
/* One instruction as PTX text (debugger disassembly, error messages). */
int ir_format_instr(const ir_module *m, const ir_function *f, const ir_instr *in,
                    char *buf, size_t len);
/* High-level source lines from .file/.loc (ir/srcmap.c).  The parser
 * calls ir_srcmap_build once; ir_src_of gives the file (as .file wrote
 * it) and line in force at a PTX line, false if none. */
typedef struct ir_srcline ir_srcline;
void ir_srcmap_build(ir_module *m);
bool ir_src_of(const ir_module *m, uint32_t ptx_line, const char **file, uint32_t *line);

/* The source line `line` (1-based) of the module without its newline. */
const char *ir_source_line(const ir_module *m, uint32_t line, size_t *len);

#endif
