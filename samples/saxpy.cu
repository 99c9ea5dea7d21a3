// saxpy.cu — y = a*x + y over n floats: a plain (non-TMA) kernel.
//   nvcc -arch=sm_90a -O3 -ptx saxpy.cu -o saxpy.ptx
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
