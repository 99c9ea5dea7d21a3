/* tc.h — the tensor-core room's public face.
 *
 * The room models the H100's tensor cores: numerics (dot.h), the warp-level
 * matrix instructions ldmatrix/stmatrix/movmatrix, mma.sync, mma.sp and wmma
 * (warp.h), and the asynchronous warpgroup instruction wgmma.mma_async with its
 * shared-memory matrix descriptors (wgmma.h).  One table, shapes.def, lists
 * every shape and type combination; the parser's validation and the execution
 * both read it.  The interpreter calls in through the functions declared in
 * these headers only.
 */
#ifndef PTXI_TC_H
#define PTXI_TC_H

#include "tc/dot.h"
#include "tc/warp.h"
#include "tc/wgmma.h"

#endif
