/* test_interp_mbar.c — the mbarrier state machine on its 8-byte word:
 * phase and tx-count arithmetic, limits and misuse (interp/mbarrier.c). */
#include "tests/unit/check.h"
#include "interp/internal.h"

int main(void)
{
    uint64_t w = 0, tok = 0;
    char why[256];
    interp_mbar m;
    CHECK("init count 0 rejected", ip_mbar_init(&w, 0, why, sizeof why) != 0);
    CHECK("init count 2^20 rejected", ip_mbar_init(&w, 1u << 20, why, sizeof why) != 0);
    CHECK("arrive before init rejected", ip_mbar_arrive(&w, 1, false, false, 0, &tok, why, sizeof why) != 0);
    CHECK("message says not initialised", strstr(why, "not initialised") != NULL);
    CHECK("init 3", ip_mbar_init(&w, 3, why, sizeof why) == 0);
    interp_mbar_decode(w, &m);
    CHECK("init state", m.initialised && m.phase == 0 && m.expected == 3 && m.pending == 3 && m.tx == 0);
    CHECK("arrive 1", ip_mbar_arrive(&w, 1, false, false, 0, &tok, why, sizeof why) == 0);
    CHECK_EQ_U64("pending_count of the token", ip_mbar_pending(tok), 3);
    CHECK("phase 0 not complete (parity 0)", !ip_mbar_test(w, true, 0));
    CHECK("state-token wait not complete", !ip_mbar_test(w, false, tok));
    CHECK("expect_tx 64", ip_mbar_expect_tx(&w, 64, why, sizeof why) == 0);
    CHECK("arrive 2 more", ip_mbar_arrive(&w, 2, false, false, 0, NULL, why, sizeof why) == 0);
    interp_mbar_decode(w, &m);
    CHECK("arrivals done, tx outstanding: same phase", m.phase == 0 && m.pending == 0 && m.tx == 64);
    CHECK("complete_tx 32", ip_mbar_complete_tx(&w, 32, why, sizeof why) == 0);
    CHECK("still waiting for 32 bytes", !ip_mbar_test(w, true, 0));
    CHECK("complete_tx 32 more", ip_mbar_complete_tx(&w, 32, why, sizeof why) == 0);
    interp_mbar_decode(w, &m);
    CHECK("phase flipped, pending reloaded", m.phase == 1 && m.pending == 3 && m.tx == 0);
    CHECK("parity 0 wait completes", ip_mbar_test(w, true, 0));
    CHECK("token wait completes", ip_mbar_test(w, false, tok));
    /* a copy landing before its expect_tx: tx goes negative, then balances */
    CHECK("early complete_tx", ip_mbar_complete_tx(&w, 16, why, sizeof why) == 0);
    interp_mbar_decode(w, &m);
    CHECK("tx may go negative", m.tx == -16 && m.phase == 1);
    CHECK("arrive.expect_tx", ip_mbar_arrive(&w, 3, false, true, 16, NULL, why, sizeof why) == 0);
    interp_mbar_decode(w, &m);
    CHECK("balanced phase completes", m.phase == 0 && m.pending == 3);
    /* limits */
    CHECK("expect_tx up to 2^20-1", ip_mbar_expect_tx(&w, (1u << 20) - 1, why, sizeof why) == 0);
    CHECK("tx overflow rejected", ip_mbar_expect_tx(&w, 1, why, sizeof why) != 0);
    CHECK("overflow message", strstr(why, "overflow") != NULL);
    CHECK("complete it", ip_mbar_complete_tx(&w, (1u << 20) - 1, why, sizeof why) == 0);
    CHECK("underflow below -(2^20-1) rejected", ip_mbar_complete_tx(&w, 1u << 20, why, sizeof why) != 0);
    CHECK("too many arrivals rejected", ip_mbar_arrive(&w, 4, false, false, 0, NULL, why, sizeof why) != 0);
    /* arrive_drop lowers the expected count of later phases */
    CHECK("arrive_drop", ip_mbar_arrive(&w, 1, true, false, 0, NULL, why, sizeof why) == 0);
    CHECK("two more arrive", ip_mbar_arrive(&w, 2, false, false, 0, NULL, why, sizeof why) == 0);
    interp_mbar_decode(w, &m);
    CHECK("next phase expects 2", m.phase == 1 && m.expected == 2 && m.pending == 2);
    CHECK_DONE();
}
