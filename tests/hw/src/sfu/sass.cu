#define K(name, ins) extern "C" __global__ void name(float *o, const float *i){ float r; asm(ins " %0, %1;" : "=f"(r) : "f"(i[threadIdx.x])); o[threadIdx.x]=r; }
K(k_rcp, "rcp.approx.f32") K(k_rcpf, "rcp.approx.ftz.f32")
K(k_rsq, "rsqrt.approx.f32") K(k_rsqf, "rsqrt.approx.ftz.f32")
K(k_sqrt, "sqrt.approx.f32") K(k_sqrtf, "sqrt.approx.ftz.f32")
K(k_ex2, "ex2.approx.f32") K(k_ex2f, "ex2.approx.ftz.f32")
K(k_lg2, "lg2.approx.f32") K(k_lg2f, "lg2.approx.ftz.f32")
K(k_sin, "sin.approx.f32") K(k_sinf, "sin.approx.ftz.f32")
K(k_cos, "cos.approx.f32") K(k_cosf, "cos.approx.ftz.f32")
K(k_tanh, "tanh.approx.f32")
extern "C" __global__ void k_div(float *o, const float *i){ float r; asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(i[threadIdx.x]), "f"(i[threadIdx.x+32])); o[threadIdx.x]=r; }
extern "C" __global__ void k_divf(float *o, const float *i){ float r; asm("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(i[threadIdx.x]), "f"(i[threadIdx.x+32])); o[threadIdx.x]=r; }
extern "C" __global__ void k_diva(float *o, const float *i){ float r; asm("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(i[threadIdx.x]), "f"(i[threadIdx.x+32])); o[threadIdx.x]=r; }
extern "C" __global__ void k_divaf(float *o, const float *i){ float r; asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(i[threadIdx.x]), "f"(i[threadIdx.x+32])); o[threadIdx.x]=r; }
extern "C" __global__ void k_rcp64(double *o, const double *i){ double r; asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(i[threadIdx.x])); o[threadIdx.x]=r; }
extern "C" __global__ void k_rsq64(double *o, const double *i){ double r; asm("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(i[threadIdx.x])); o[threadIdx.x]=r; }
extern "C" __global__ void k_rsq64f(double *o, const double *i){ double r; asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(i[threadIdx.x])); o[threadIdx.x]=r; }
extern "C" __global__ void k_ex2h(unsigned short *o, const unsigned short *i){ unsigned short r; asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(i[threadIdx.x])); o[threadIdx.x]=r; }
extern "C" __global__ void k_ex2b(unsigned short *o, const unsigned short *i){ unsigned short r; asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(i[threadIdx.x])); o[threadIdx.x]=r; }
extern "C" __global__ void k_tanhh(unsigned short *o, const unsigned short *i){ unsigned short r; asm("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(i[threadIdx.x])); o[threadIdx.x]=r; }
extern "C" __global__ void k_tanhb(unsigned short *o, const unsigned short *i){ unsigned short r; asm("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(i[threadIdx.x])); o[threadIdx.x]=r; }
