/* enums.c — launch-file names of the tensor-map enums, and element sizes.
 *
 * Launch files (../shared/conformance/FORMAT.md) spell the driver's enum
 * names without their CU_TENSOR_MAP_<KIND>_ prefix: "FLOAT16",
 * "128B_ATOM_32B", "L2_64B", "NAN_REQUEST_ZERO_FMA", mode "W"/"W128".
 * One table per kind, listed in enum order (values as in cuda.h), serves
 * both directions.  tma_enum_value also accepts the full cuda.h spelling
 * ("CU_TENSOR_MAP_DATA_TYPE_FLOAT16"), so names pasted from CUDA code work.
 */
#include <string.h>
#include "tma/tma.h"

typedef struct {
    const char *kind;     /* launch-file key */
    const char *prefix;   /* cuda.h prefix of the enumerators */
    const char *const *names;
    int n;
} enum_table;

static const char *const dtype_names[] = {
    "UINT8", "UINT16", "UINT32", "INT32", "UINT64", "INT64", "FLOAT16", "FLOAT32",
    "FLOAT64", "BFLOAT16", "FLOAT32_FTZ", "TFLOAT32", "TFLOAT32_FTZ",
    "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B",
};
static const char *const interleave_names[] = {"NONE", "16B", "32B"};
static const char *const swizzle_names[] = {
    "NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B",
    "96B",   /* ptxi's TMA_SWIZZLE_96B: not in cuda.h, so no launch file encodes it */
};
static const char *const l2_names[] = {"NONE", "L2_64B", "L2_128B", "L2_256B"};
static const char *const oob_names[] = {"NONE", "NAN_REQUEST_ZERO_FMA"};
static const char *const mode_names[] = {"W", "W128"};
/* "encode" key of a launch file; values are TMA_MAP_* (index + 1). */
static const char *const encode_names[] = {"tiled", "im2col", "im2col_wide"};

#define N(a) (int)(sizeof a / sizeof a[0])
static const enum_table tables[] = {
    {"data_type", "CU_TENSOR_MAP_DATA_TYPE_", dtype_names, N(dtype_names)},
    {"interleave", "CU_TENSOR_MAP_INTERLEAVE_", interleave_names, N(interleave_names)},
    {"swizzle", "CU_TENSOR_MAP_SWIZZLE_", swizzle_names, N(swizzle_names)},
    {"l2_promotion", "CU_TENSOR_MAP_L2_PROMOTION_", l2_names, N(l2_names)},
    {"oob_fill", "CU_TENSOR_MAP_FLOAT_OOB_FILL_", oob_names, N(oob_names)},
    {"mode", "CU_TENSOR_MAP_IM2COL_WIDE_MODE_", mode_names, N(mode_names)},
    {"encode", "", encode_names, N(encode_names)},
};

static const enum_table *find_table(const char *kind)
{
    if (!kind)
        return NULL;
    for (int i = 0; i < N(tables); i++)
        if (!strcmp(tables[i].kind, kind))
            return &tables[i];
    return NULL;
}

int tma_enum_value(const char *kind, const char *name)
{
    const enum_table *t = find_table(kind);
    if (!t || !name)
        return -1;
    size_t pl = strlen(t->prefix);
    if (pl && !strncmp(name, t->prefix, pl))
        name += pl;
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->names[i], name))
            return !strcmp(kind, "encode") ? i + TMA_MAP_TILED : i;
    return -1;
}

const char *tma_enum_name(const char *kind, int value)
{
    const enum_table *t = find_table(kind);
    if (!t)
        return NULL;
    if (!strcmp(kind, "encode"))
        value -= TMA_MAP_TILED;
    return value >= 0 && value < t->n ? t->names[value] : NULL;
}

unsigned tma_dtype_bits(int data_type)
{
    static const unsigned char bits[] = {8, 16, 32, 32, 64, 64, 16, 32, 64, 16, 32, 32, 32, 4, 4, 6};
    return data_type >= 0 && data_type < N(bits) ? bits[data_type] : 0;
}
