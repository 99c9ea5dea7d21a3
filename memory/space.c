/* space.c — names of the state spaces for diagnostics.
 *
 * The windows themselves are constants in mem.h; the interpreter owns the
 * per-CTA and per-thread backing stores (interp/), because they live and
 * die with CTAs and threads.
 */
#include "memory/mem.h"
#include "ir/ir.h"

const char *mem_space_name(int space)
{
    switch (space) {
    case IR_SPACE_NONE: return "generic";
    case IR_SPACE_GLOBAL: return "global";
    case IR_SPACE_SHARED_CTA: return "shared::cta";
    case IR_SPACE_SHARED_CLUSTER: return "shared::cluster";
    case IR_SPACE_LOCAL: return "local";
    case IR_SPACE_CONST: return "const";
    case IR_SPACE_PARAM: return "param";
    case IR_SPACE_PARAM_FUNC: return "param::func";
    case IR_SPACE_TEX: return "tex";
    default: return "?";
    }
}
