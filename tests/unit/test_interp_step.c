/* test_interp_step.c — the step API the debugger builds on: breakpoints,
 * warp/lane inspection, registers, shared memory, mbarriers, in-flight ops. */
#include <stdlib.h>
#include "tests/unit/check.h"
#include "interp/interp.h"
#define TH_HEADER ".version 8.0\n.target sm_90a\n.address_size 64\n"

static const char *src = TH_HEADER
".visible .entry k(.param .u64 out)\n{\n"
"  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
"  .shared .align 8 .b64 bar;\n"
"  ld.param.u64 %rd1, [out];\n"                 /* 0 */
"  mov.u32 %r1, %tid.x;\n"                      /* 1 */
"  mov.u32 %r2, bar;\n"                         /* 2 */
"  mbarrier.init.shared::cta.b64 [%r2], 32;\n"  /* 3 */
"  mbarrier.arrive.shared::cta.b64 _, [%r2];\n" /* 4 */
"  add.s32 %r3, %r1, 5;\n"                      /* 5 */
"  st.global.u32 [%rd1], %r3;\n"                /* 6 */
"  ret;\n}\n";

int main(void)
{
    ir_diag d;
    memset(&d, 0, sizeof d);
    ir_module *m = ptx_parse("step.ptx", src, strlen(src), &d);
    CHECK("parses", m != NULL);
    if (!m) CHECK_DONE();
    mem_global *g = mem_global_new();
    uint64_t out = mem_global_alloc(g, 256, 256, "out");
    interp_launch l;
    memset(&l, 0, sizeof l);
    l.mod = m;
    l.entry = ir_find_function(m, "k");
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 32; l.block[1] = l.block[2] = 1;
    l.params = (const uint8_t *)&out;
    l.params_size = 8;
    l.gmem = g;
    interp_ctx *c = interp_new(&l);
    CHECK("interp_new", c != NULL);
    int func = (int)(l.entry - m->funcs);
    CHECK("break at pc 5", interp_break_add(c, func, 5) >= 0);
    interp_event ev;
    int k = interp_run_until(c, 0, false, &ev);
    CHECK_EQ_U64("stops at the breakpoint", k, INTERP_EV_BREAK);
    CHECK_EQ_U64("event pc", ev.pc, 5);
    CHECK_EQ_U64("all lanes there", ev.lanes, 0xffffffffu);
    interp_warp_info wi;
    CHECK("warp info", interp_warp_get(c, 0, 0, &wi) == 0 && wi.pc[7] == 5 && wi.ready == 0xffffffffu);
    uint64_t v = 0;
    uint32_t slot = 0;
    for (uint32_t i = 0; i < l.entry->nregs; i++)
        if (!strcmp(l.entry->regs[i].name, "%r1"))
            slot = i;
    CHECK("register %r1 of lane 7 is its tid", interp_reg_get(c, 0, 0, 7, slot, &v) && v == 7);
    interp_cta_info ci;
    CHECK("cta info", interp_cta_get(c, 0, &ci) == 0 && ci.smem_size >= 1032 && interp_ncta(c) == 1);
    interp_mbar mb;
    CHECK("mbarrier completed its phase (32 arrivals)",
          interp_mbar_get(c, 0, 1024, &mb) && mb.initialised && mb.phase == 1 && mb.pending == 32);
    CHECK_EQ_U64("nothing in flight", interp_ninflight(c), 0);
    k = interp_step(c, &ev);
    CHECK_EQ_U64("step executes the add", k, INTERP_EV_NONE);
    k = interp_run_until(c, 0, false, &ev);
    CHECK_EQ_U64("runs to the end", k, INTERP_EV_DONE);
    CHECK_EQ_U64("result ok", interp_get_result(c)->status, INTERP_OK);
    uint32_t r;
    memcpy(&r, mem_global_host(g, out, 4), 4);
    CHECK_EQ_U64("last lane's store", r, 36);
    char where[256];
    interp_where(c, func, 4, where, sizeof where);
    CHECK("interp_where quotes the source", strstr(where, "step.ptx:") && strstr(where, "mbarrier.arrive"));
    interp_free(c);
    mem_global_free(g);
    ir_module_free(m);
    CHECK_DONE();
}
