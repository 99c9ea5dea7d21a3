/* dot_tmp_tcg.c — TEMPORARY stand-in for tc_dot (helper tcn writes the real
 * one in tc/dot.c): exact products summed in long double, rounded once.
 * Deleted before the branch's final commit. */
#include <math.h>
#include <string.h>
#include "tc/dot.h"
#include "interp/fp.h"

static long double val(int t, uint32_t v)
{
    switch (t) {
    case TC_T_F16: return fp_f16_to_f32((uint16_t)v);
    case TC_T_BF16: { uint32_t u = v << 16; float f; memcpy(&f, &u, 4); return f; }
    case TC_T_TF32: case TC_T_F32: { uint32_t u = t == TC_T_TF32 ? v & 0xFFFFE000u : v; float f; memcpy(&f, &u, 4); return f; }
    case TC_T_E4M3: return fp_f16_to_f32(fp_e4m3_to_f16((uint8_t)v));
    case TC_T_E5M2: return fp_f16_to_f32(fp_e5m2_to_f16((uint8_t)v));
    case TC_T_S8: return (int8_t)v;
    case TC_T_U8: return (uint8_t)v;
    default: return 0;
    }
}

uint64_t tc_dot(const struct tc_dot_op *op, const uint32_t *a, const uint32_t *b, int n, uint64_t c)
{
    if (op->dtype == TC_T_S32) {
        int64_t s = op->no_c ? 0 : (int32_t)c;
        if (op->atype == TC_T_B1) {
            for (int i = 0; i < n / 32; i++)
                s += __builtin_popcount(a[i] & b[i]);
        } else {
            for (int i = 0; i < n; i++)
                s += (int64_t)val(op->atype, a[i]) * (int64_t)val(op->btype, b[i]);
        }
        if (op->satfinite)
            s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        return (uint32_t)(int32_t)s;
    }
    long double s = 0;
    if (!op->no_c)
        s = op->ctype == TC_T_F16 ? fp_f16_to_f32((uint16_t)c) : val(TC_T_F32, (uint32_t)c);
    for (int i = 0; i < n; i++)
        s += val(op->atype, a[i]) * val(op->btype, b[i]);
    if (op->dtype == TC_T_F16)
        return fp_f64_to_f16((double)s, 0);
    float f = (float)s;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
