/* fuzz/fuzz_exec.c — libFuzzer target for execution: any bytes as PTX;
 * when they parse, each kernel entry (the first four) runs as a small
 * launch under a step limit, so that a kernel that loops forever ends as a
 * step-limit stop and a hang of the interpreter itself is a finding
 * (libFuzzer -timeout).  Every parameter gets a value: 8-byte ones the
 * address of a 64 KiB global buffer (so loads and stores land somewhere),
 * others small integers, 128-byte ones a zeroed (invalid) tensor map.  The
 * launch shape cycles through one CTA of 32 threads, two of 64, and a
 * cluster of two; the completion policy through deferred, eager and
 * random.  Faults, deadlocks and refusals are the interpreter's answers,
 * not findings; crashes, sanitizer reports and hangs are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "interp/interp.h"

static void quiet(ir_diag *d, const char *file, ir_loc loc, const char *sev, const char *msg)
{
    (void)d, (void)file, (void)loc, (void)sev, (void)msg;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    ir_diag d;
    memset(&d, 0, sizeof d);
    d.emit = quiet;
    ir_module *m = ptx_parse("fuzz.ptx", (const char *)data, size, &d);
    if (!m)
        return 0;
    FILE *devnull = fopen("/dev/null", "w");
    int ran = 0;
    for (uint32_t f = 0; f < m->nfuncs && ran < 4; f++) {
        const ir_function *fn = &m->funcs[f];
        if (!fn->is_entry || fn->param_bytes > 4096)
            continue;
        mem_global *g = mem_global_new();
        if (!g)
            break;
        uint64_t buf = mem_global_alloc(g, 65536, 256, "buf");
        uint8_t *params = calloc(fn->param_bytes + 8, 1);
        for (uint32_t p = 0; p < fn->nparams && params; p++) {
            const ir_symbol *s = &m->syms[fn->params[p]];
            uint64_t off = s->param_offset;
            if (off + s->size > fn->param_bytes)
                continue;
            if (s->size == 8)
                memcpy(params + off, &buf, 8);
            else if (s->size == 4 || s->size == 2 || s->size == 1) {
                uint32_t v = 4 + p;
                memcpy(params + off, &v, s->size);
            }
        }
        interp_launch l;
        memset(&l, 0, sizeof l);
        l.mod = m;
        l.entry = fn;
        static const uint32_t shapes[3][3] = {{1, 32, 1}, {2, 64, 1}, {2, 32, 2}};   /* grid, block, cluster */
        const uint32_t *sh = shapes[(size + f) % 3];
        l.grid[0] = sh[0];
        l.grid[1] = l.grid[2] = 1;
        l.block[0] = sh[1];
        l.block[1] = l.block[2] = 1;
        l.cluster[0] = sh[2] > 1 ? sh[2] : 0;
        l.cluster[1] = l.cluster[2] = sh[2] > 1 ? 1 : 0;
        l.dyn_smem = 1024;
        l.params = params;
        l.params_size = fn->param_bytes;
        l.gmem = g;
        l.jobs = 1;
        l.policy = (interp_policy)((size / 7 + f) % 3);
        l.seed = size;
        l.max_steps = 20000;
        l.printf_out = devnull;
        interp_result *res = malloc(sizeof *res);
        if (params && res)
            interp_run(&l, res);
        free(res);
        free(params);
        mem_global_free(g);
        ran++;
    }
    if (devnull)
        fclose(devnull);
    ir_module_free(m);
    return 0;
}
