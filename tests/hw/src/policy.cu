// policy.cu - createpolicy as the H100 encodes it (tests/hw/policy).
// nvcc -arch=sm_90a -ptx policy.cu -o ../ptx/policy_sm90a.ptx
// Thread i takes fraction fs[i] (in (0, 1]) and the range (as[i], ps[i],
// ts[i]) and writes 40 policies to out[40 i ..]: the 12 priority
// combinations as .fractional with fs[i], as .range, as .fractional without
// a fraction; the .cvt.L2 of as[i]; three immediate fractions; and .range
// without .global.
extern "C" __global__ void pol(unsigned long long *out, const float *fs, const unsigned long long *as,
                               const unsigned *pss, const unsigned *tss, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long r, *o = out + 40ull * i, a = as[i];
    float f = fs[i];
    unsigned ps = pss[i], ts = tss[i];
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, %1;" : "=l"(r) : "f"(f)); o[0] = r;
    asm volatile("createpolicy.range.global.L2::evict_last.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[12] = r;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0;" : "=l"(r)); o[24] = r;
    asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, %1;" : "=l"(r) : "f"(f)); o[1] = r;
    asm volatile("createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[13] = r;
    asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0;" : "=l"(r)); o[25] = r;
    asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0, %1;" : "=l"(r) : "f"(f)); o[2] = r;
    asm volatile("createpolicy.range.global.L2::evict_last.L2::evict_unchanged.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[14] = r;
    asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0;" : "=l"(r)); o[26] = r;
    asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, %1;" : "=l"(r) : "f"(f)); o[3] = r;
    asm volatile("createpolicy.range.global.L2::evict_normal.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[15] = r;
    asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0;" : "=l"(r)); o[27] = r;
    asm volatile("createpolicy.fractional.L2::evict_normal.L2::evict_first.b64 %0, %1;" : "=l"(r) : "f"(f)); o[4] = r;
    asm volatile("createpolicy.range.global.L2::evict_normal.L2::evict_first.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[16] = r;
    asm volatile("createpolicy.fractional.L2::evict_normal.L2::evict_first.b64 %0;" : "=l"(r)); o[28] = r;
    asm volatile("createpolicy.fractional.L2::evict_normal.L2::evict_unchanged.b64 %0, %1;" : "=l"(r) : "f"(f)); o[5] = r;
    asm volatile("createpolicy.range.global.L2::evict_normal.L2::evict_unchanged.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[17] = r;
    asm volatile("createpolicy.fractional.L2::evict_normal.L2::evict_unchanged.b64 %0;" : "=l"(r)); o[29] = r;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, %1;" : "=l"(r) : "f"(f)); o[6] = r;
    asm volatile("createpolicy.range.global.L2::evict_first.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[18] = r;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0;" : "=l"(r)); o[30] = r;
    asm volatile("createpolicy.fractional.L2::evict_first.L2::evict_first.b64 %0, %1;" : "=l"(r) : "f"(f)); o[7] = r;
    asm volatile("createpolicy.range.global.L2::evict_first.L2::evict_first.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[19] = r;
    asm volatile("createpolicy.fractional.L2::evict_first.L2::evict_first.b64 %0;" : "=l"(r)); o[31] = r;
    asm volatile("createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %0, %1;" : "=l"(r) : "f"(f)); o[8] = r;
    asm volatile("createpolicy.range.global.L2::evict_first.L2::evict_unchanged.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[20] = r;
    asm volatile("createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %0;" : "=l"(r)); o[32] = r;
    asm volatile("createpolicy.fractional.L2::evict_unchanged.b64 %0, %1;" : "=l"(r) : "f"(f)); o[9] = r;
    asm volatile("createpolicy.range.global.L2::evict_unchanged.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[21] = r;
    asm volatile("createpolicy.fractional.L2::evict_unchanged.b64 %0;" : "=l"(r)); o[33] = r;
    asm volatile("createpolicy.fractional.L2::evict_unchanged.L2::evict_first.b64 %0, %1;" : "=l"(r) : "f"(f)); o[10] = r;
    asm volatile("createpolicy.range.global.L2::evict_unchanged.L2::evict_first.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[22] = r;
    asm volatile("createpolicy.fractional.L2::evict_unchanged.L2::evict_first.b64 %0;" : "=l"(r)); o[34] = r;
    asm volatile("createpolicy.fractional.L2::evict_unchanged.L2::evict_unchanged.b64 %0, %1;" : "=l"(r) : "f"(f)); o[11] = r;
    asm volatile("createpolicy.range.global.L2::evict_unchanged.L2::evict_unchanged.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[23] = r;
    asm volatile("createpolicy.fractional.L2::evict_unchanged.L2::evict_unchanged.b64 %0;" : "=l"(r)); o[35] = r;
    asm volatile("createpolicy.cvt.L2.b64 %0, %1;" : "=l"(r) : "l"(a)); o[36] = r;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 0.5;" : "=l"(r)); o[37] = r;
    asm volatile("createpolicy.fractional.L2::evict_normal.L2::evict_first.b64 %0, 0.999;" : "=l"(r)); o[38] = r;
    asm volatile("createpolicy.range.L2::evict_unchanged.L2::evict_first.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(a), "r"(ps), "r"(ts)); o[39] = r;
}
