/* land.c — the order in which --complete=random lands a load's chunks.
 *
 * What the H100 does (tests/hw/tma_order, measured by polling shared
 * memory from 15 warps while one thread's load lands): a tensor tile load,
 * a plain cp.async.bulk and a multicast load all write shared memory in
 * 16-byte chunks whose order is NOT deterministic.  The trend is the
 * engine's order (box row after box row; rank correlation of landing time
 * with address 0.98-0.999), but any piece may overtake another: with the
 * data in L2 6-18% of neighbouring 256-byte rows land reversed and a row
 * can overtake rows up to 134 further on; from HBM 36-43% of neighbours,
 * and pieces as far apart as the whole 64 KiB box swap.  Where rows start
 * on 32-byte boundaries of global and shared memory the two 16-byte chunks
 * of a sector always landed together (no split in 344 667 landing steps);
 * out of phase sectors split.  A chunk was never seen half written, and a
 * whole 128-byte line or 256-byte row often landed at once.
 *
 * So random:N does not pick one order: each load draws one of four kinds
 * of order the hardware showed (seeded by the policy's generator, so one
 * seed always lands the same way):
 *   0  the engine's order;
 *   1  whole box rows, each delayed by up to two rows and one in 32 by up
 *      to a third of the box (L2-warm loads);
 *   2  128-byte line pieces of rows, 3  32-byte sectors: each delayed by up
 *      to 0.6 of the load in twelve waves (what lands in one wave keeps the
 *      engine's order), one in 32 by up to the whole load, as from HBM:
 *      there about 40% of neighbouring rows, 30% of rows 16 apart and
 *      10-20% of rows 64 apart landed reversed.
 * A unit never splits: the pieces the policy lands are whole units. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "tma/tma.h"

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Does chunk j (engine order) start a unit / a group of kind `kind`? */
static bool unit_start(uint32_t j, uint32_t per_row, int lead)
{
    uint32_t jr = j % per_row;
    return jr == 0 || lead < 0 || (jr + (uint32_t)lead) % 2 == 0;
}

static bool group_start(uint32_t j, uint32_t per_row, int lead, int kind)
{
    uint32_t jr = j % per_row;
    switch (kind) {
    case 0: return j == 0;
    case 1: return jr == 0;
    case 2: return jr == 0 || (unit_start(j, per_row, lead) && (jr + (uint32_t)(lead > 0)) % 8 == 0);
    default: return unit_start(j, per_row, lead);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t tma_land_order(const uint32_t *in, uint32_t n, uint32_t per_row, int lead, uint64_t seed,
                        uint32_t *out, uint32_t *uend, uint64_t *key, int *kind_out)
{
    if (!n)
        return 0;
    if (!per_row || per_row > n)
        per_row = n;
    uint64_t s = seed;
    int kind = (int)(mix(&s) % 4);
    if (kind_out)
        *kind_out = kind;
    uint32_t ng = 0;
    for (uint32_t j = 0; j < n; j++)
        if (group_start(j, per_row, lead, kind))
            key[ng++] = j;
    uint32_t nrows = (n + per_row - 1) / per_row;
    uint64_t span = (uint64_t)ng * 3 / 5 + 1, wave = span / 12 + 1;
    for (uint32_t g = 0; g < ng; g++) {
        uint64_t d = 0, x = mix(&s);
        if (kind == 1) /* rows: a near neighbour swaps, 1 in 32 is late */
            d = (x >> 2) % 32 == 0 ? (x >> 7) % (nrows / 3 + 1) : x % 3;
        else if (kind >= 2) /* up to 0.6 of the load late in 12 waves; 1 in 32 up to all of it */
            d = (x >> 5) % 32 == 0 ? (x >> 10) % ng : x % span / wave * wave;
        key[g] |= (uint64_t)(g + d) << 32; /* ties: the engine's order */
    }
    qsort(key, ng, sizeof *key, cmp_u64);
    uint32_t m = 0, u = 0;
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t j = (uint32_t)key[g];
        do {
            out[m++] = in[j++];
            if (j == n || unit_start(j, per_row, lead))
                uend[u++] = m;
        } while (j < n && !group_start(j, per_row, lead, kind));
    }
    return u;
}
