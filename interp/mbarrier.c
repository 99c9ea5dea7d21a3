/* mbarrier.c — the mbarrier object, modelled in its 8 bytes of shared memory.
 *
 * Encoding of the 64-bit word (ptxi's own; hardware's is undocumented, and
 * kernels only ever touch it through mbarrier instructions):
 *
 *   bits  0..19  pending arrivals in the current phase   (0 .. 2^20-1)
 *   bits 20..39  expected arrival count of each phase     (1 .. 2^20-1)
 *   bits 40..61  transaction count, 22-bit two's complement (±(2^20-1))
 *   bit  62      initialised
 *   bit  63      current phase parity
 *
 * Transitions (PTX ISA 9.7.13.15): init sets expected = pending = count,
 * tx = 0, parity 0.  expect-tx adds to tx; complete-tx subtracts; arrive
 * subtracts from pending (arrive_drop also from expected).  The phase
 * completes when pending == 0 and tx == 0: parity flips, pending is
 * reloaded from expected.  tx may go negative when a copy lands before the
 * expect-tx that announces it (legal on hardware: both are counted in the
 * same phase).
 *
 * The state token returned by arrive is the word before the arrival; its
 * bit 63 is the parity of the phase the thread arrived in, which is all
 * test_wait/try_wait need (a phase is complete once the current parity
 * differs from the token's).
 *
 * Misuse is an error (the caller adds the location): init with a count out
 * of range, arrive / expect-tx / complete-tx on an uninitialised barrier,
 * more arrivals than pending, tx-count leaving ±(2^20-1).  Re-initialising
 * a barrier is allowed (as on hardware; PTX only requires the old one to be
 * invalidated first, which kernels often skip).
 */
#include <stdio.h>
#include "interp/internal.h"

#define MB_CNT_MAX ((1u << 20) - 1)
#define MB_TX_MAX ((int32_t)((1u << 20) - 1))

static uint32_t mb_pending(uint64_t w) { return (uint32_t)(w & 0xfffff); }
static uint32_t mb_expected(uint64_t w) { return (uint32_t)(w >> 20 & 0xfffff); }
static int32_t mb_tx(uint64_t w)
{
    int32_t t = (int32_t)(w >> 40 & 0x3fffff);
    return t & 0x200000 ? t - 0x400000 : t;
}
static bool mb_init(uint64_t w) { return w >> 62 & 1; }
static uint32_t mb_phase(uint64_t w) { return (uint32_t)(w >> 63); }

static uint64_t mb_make(uint32_t phase, uint32_t expected, uint32_t pending, int32_t tx)
{
    return (uint64_t)phase << 63 | 1ull << 62 | ((uint64_t)(uint32_t)tx & 0x3fffff) << 40 |
           (uint64_t)(expected & 0xfffff) << 20 | (pending & 0xfffff);
}

void interp_mbar_decode(uint64_t w, interp_mbar *out)
{
    out->initialised = mb_init(w);
    out->phase = mb_phase(w);
    out->expected = mb_expected(w);
    out->pending = mb_pending(w);
    out->tx = mb_tx(w);
}

/* Complete the phase if nothing is outstanding. */
static uint64_t mb_settle(uint64_t w)
{
    if (mb_pending(w) == 0 && mb_tx(w) == 0)
        return mb_make(mb_phase(w) ^ 1, mb_expected(w), mb_expected(w), 0);
    return w;
}

int ip_mbar_init(uint64_t *word, uint32_t count, char *why, size_t n)
{
    if (count < 1 || count > MB_CNT_MAX) {
        snprintf(why, n, "mbarrier.init with count %u (must be 1..%u)", count, MB_CNT_MAX);
        return -1;
    }
    *word = mb_make(0, count, count, 0);
    return 0;
}

static int need_init(uint64_t w, const char *what, char *why, size_t n)
{
    if (mb_init(w))
        return 0;
    snprintf(why, n, "%s on an mbarrier that is not initialised: mbarrier.init it first, ordered before "
             "other threads' use by bar.sync or fence.mbarrier_init", what);
    return -1;
}

int ip_mbar_expect_tx(uint64_t *word, uint32_t tx, char *why, size_t n)
{
    uint64_t w = *word;
    if (need_init(w, "expect-tx", why, n))
        return -1;
    int64_t t = (int64_t)mb_tx(w) + tx;
    if (tx > (uint32_t)MB_TX_MAX || t > MB_TX_MAX) {
        snprintf(why, n, "tx-count overflow: %d + %u bytes expected is above the limit %d",
                 mb_tx(w), tx, MB_TX_MAX);
        return -1;
    }
    /* bytes that landed before their expect_tx: the announcement that
     * brings the count back to zero with no arrival pending completes the
     * phase, as any other transition to (0 pending, 0 bytes) does */
    *word = mb_settle(mb_make(mb_phase(w), mb_expected(w), mb_pending(w), (int32_t)t));
    return 0;
}

int ip_mbar_complete_tx(uint64_t *word, uint32_t tx, char *why, size_t n)
{
    uint64_t w = *word;
    if (need_init(w, "complete-tx", why, n))
        return -1;
    int64_t t = (int64_t)mb_tx(w) - tx;
    if (tx > (uint32_t)MB_TX_MAX || t < -MB_TX_MAX) {
        snprintf(why, n, "tx-count underflow: %d - %u bytes completed is below the limit -%d",
                 mb_tx(w), tx, MB_TX_MAX);
        return -1;
    }
    /* A copy bringing more bytes than the phase still expects, with every
     * arrival made: the hardware completes the phase when the count
     * reaches zero, in the middle of the copy (issue 10); the rest of its
     * bytes count against the next phase. */
    int32_t cur = mb_tx(w);
    if (mb_pending(w) == 0 && cur > 0 && (int64_t)tx > cur) {
        uint64_t nw = mb_settle(mb_make(mb_phase(w), mb_expected(w), 0, 0));
        *word = mb_make(mb_phase(nw), mb_expected(nw), mb_pending(nw), -(int32_t)(tx - (uint32_t)cur));
        return 0;
    }
    *word = mb_settle(mb_make(mb_phase(w), mb_expected(w), mb_pending(w), (int32_t)t));
    return 0;
}

int ip_mbar_arrive(uint64_t *word, uint32_t count, bool drop, bool has_tx, uint32_t tx,
                   uint64_t *token, char *why, size_t n)
{
    uint64_t w = *word;
    if (need_init(w, drop ? "mbarrier.arrive_drop" : "mbarrier.arrive", why, n))
        return -1;
    if (token)
        *token = w;
    if (count < 1 || count > MB_CNT_MAX) {
        snprintf(why, n, "arrival count %u (must be 1..%u)", count, MB_CNT_MAX);
        return -1;
    }
    if (has_tx) {
        if (ip_mbar_expect_tx(&w, tx, why, n))
            return -1;
    }
    uint32_t pend = mb_pending(w), exp = mb_expected(w);
    if (count > pend) {
        snprintf(why, n, "%u arrival(s) on an mbarrier with only %u pending in its phase "
                 "(expected count %u): more threads arrive than it was initialised for",
                 count, pend, exp);
        return -1;
    }
    if (drop) {
        if (count > exp) {
            snprintf(why, n, "arrive_drop of %u below an expected count of %u", count, exp);
            return -1;
        }
        exp -= count;
    }
    *word = mb_settle(mb_make(mb_phase(w), exp, pend - count, mb_tx(w)));
    return 0;
}

/* parity_form: arg is the parity of the phase waited for (complete once the
 * current parity differs).  Otherwise arg is a state token from arrive. */
bool ip_mbar_test(uint64_t word, bool parity_form, uint64_t arg)
{
    uint32_t p = parity_form ? (uint32_t)(arg & 1) : (uint32_t)(arg >> 63);
    return mb_phase(word) != p;
}

uint32_t ip_mbar_pending(uint64_t token)
{
    return mb_pending(token);
}

const char *ip_mbar_describe(uint64_t w, char *buf, size_t n)
{
    if (!mb_init(w)) {
        snprintf(buf, n, "NOT initialised");
        return buf;
    }
    int32_t tx = mb_tx(w);
    int k = snprintf(buf, n, "phase parity %u, %u of %u arrivals pending, ", mb_phase(w), mb_pending(w),
                     mb_expected(w));
    if (k < 0 || (size_t)k >= n)
        return buf;
    if (tx >= 0)
        snprintf(buf + k, n - (size_t)k, "tx-count %d bytes outstanding", tx);
    else
        snprintf(buf + k, n - (size_t)k, "tx-count %d (%d bytes more completed than expect-tx announced)", tx,
                 -tx);
    return buf;
}
