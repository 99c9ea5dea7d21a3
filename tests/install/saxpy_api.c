/* saxpy_api.c — a program against the installed ptxi.h / libptxi: run the
 * sample saxpy kernel (y = a*x + y over n floats) through the public API,
 * compare with the same sum computed here, and check the errors a caller
 * meets (unknown kernel, PTX that does not parse, a runaway kernel's step
 * limit).  Prints tests/run.sh's PASS/FAIL lines.
 *   usage: saxpy_api SAXPY.ptx SPIN.ptx */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <ptxi.h>

static int fails;
static void check(const char *what, int ok, const char *detail)
{
    printf("%s install/api/%s%s%s\n", ok ? "PASS" : "FAIL", what, ok ? "" : ": ", ok ? "" : detail);
    fails += !ok;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: saxpy_api SAXPY.ptx SPIN.ptx\n");
        return 2;
    }
    enum { N = 1000 };
    static float x[N], y[N], want[N], got[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = 1.0f - (float)i;
        want[i] = 2.0f * x[i] + y[i];
    }
    check("version", strcmp(ptxi_version(), PTXI_VERSION) == 0, ptxi_version());
    ptxi_module *m;
    int r = ptxi_module_load(argv[1], &m);
    check("module_load", r == PTXI_OK, ptxi_module_errmsg(m));
    ptxi_launch *l = ptxi_launch_new(m, "saxpy");
    unsigned grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    r = ptxi_launch_shape(l, grid, block, NULL, 0);
    r |= ptxi_launch_buffer(l, "x", sizeof x, x);
    r |= ptxi_launch_buffer(l, "y", sizeof y, y);
    r |= ptxi_launch_param(l, "s32", N);
    r |= ptxi_launch_param_f32(l, 2.0f);
    r |= ptxi_launch_param_pointer(l, "x", 0);
    r |= ptxi_launch_param_pointer(l, "y", 0);
    check("describe", r == PTXI_OK, ptxi_launch_errmsg(l));
    r = ptxi_launch_run(l);
    check("run", r == PTXI_OK, ptxi_launch_report(l));
    r = ptxi_launch_read(l, "y", got, sizeof got);
    int same = r == PTXI_OK;
    for (int i = 0; i < N && same; i++)
        same = got[i] == want[i];
    check("result", same, "y differs from 2*x + y");
    check("steps", ptxi_launch_steps(l) > 0, "no instruction counted");
    /* the same launch, stepped: not done after 10 warp instructions, the
     * same bytes at the end */
    int done = 1;
    r = ptxi_launch_start(l);
    r |= ptxi_launch_step(l, 10, &done);
    check("step_started", r == PTXI_OK && !done, ptxi_launch_errmsg(l));
    check("step_read_midway", ptxi_launch_read(l, "y", got, sizeof got) == PTXI_OK, ptxi_launch_errmsg(l));
    int nstep = 0;
    while (!done && r == PTXI_OK && nstep++ < 100000)
        r = ptxi_launch_step(l, 100, &done);
    r |= ptxi_launch_read(l, "y", got, sizeof got);
    same = r == PTXI_OK && done;
    for (int i = 0; i < N && same; i++)
        same = got[i] == want[i];
    check("step_to_end", same, ptxi_launch_errmsg(l));
    ptxi_launch_free(l);

    l = ptxi_launch_new(m, "no_such_kernel");
    ptxi_launch_shape(l, grid, block, NULL, 0);
    r = ptxi_launch_run(l);
    check("unknown_kernel", r == PTXI_ERROR && strstr(ptxi_launch_report(l), "no .entry named"),
          ptxi_launch_report(l));
    ptxi_launch_free(l);
    ptxi_module_free(m);

    r = ptxi_module_load_text(".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k() { bogus; }\n",
                              "bad.ptx", &m);
    check("parse_error", r == PTXI_ERROR && strstr(ptxi_module_errmsg(m), "bad.ptx:4:"), ptxi_module_errmsg(m));
    ptxi_module_free(m);

    r = ptxi_module_load(argv[2], &m);
    l = ptxi_launch_new(m, "spin");
    unsigned one[3] = {1, 1, 1}, warp[3] = {32, 1, 1};
    ptxi_launch_shape(l, one, warp, NULL, 0);
    ptxi_launch_buffer(l, "flag", 4, NULL);
    ptxi_launch_param_pointer(l, "flag", 0);
    ptxi_launch_limits(l, 5000, 0);
    r = ptxi_launch_run(l);
    check("step_limit", r == PTXI_STEP_LIMIT && strstr(ptxi_launch_report(l), "every warp"),
          ptxi_launch_report(l));
    ptxi_launch_limits(l, 0, 0.2);
    r = ptxi_launch_run(l);
    check("timeout", r == PTXI_INTERRUPTED && strstr(ptxi_launch_report(l), "time limit"), ptxi_launch_report(l));
    ptxi_launch_limits(l, 3000, 0);
    r = ptxi_launch_start(l);
    int dn = 0, k = 0;
    while (r == PTXI_OK && !dn && k++ < 100)
        r = ptxi_launch_step(l, 500, &dn);
    check("step_limit_stepping", r == PTXI_STEP_LIMIT && dn && strstr(ptxi_launch_errmsg(l), "every warp"),
          ptxi_launch_errmsg(l));
    check("status_name", !strcmp(ptxi_status_name(PTXI_INTERRUPTED), "interrupted"), "");
    ptxi_launch_free(l);
    ptxi_module_free(m);
    return fails ? 1 : 0;
}
