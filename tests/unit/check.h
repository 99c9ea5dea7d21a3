/* check.h — tiny assertion helpers for unit tests (tests/run.sh protocol:
 * one "PASS name" or "FAIL name: why" line per check). */
#ifndef PTXI_TEST_CHECK_H
#define PTXI_TEST_CHECK_H
#include <stdio.h>
#include <string.h>
#include <inttypes.h>
static int check_failures;
#define CHECK(name, cond) do { if (cond) printf("PASS %s\n", name); \
    else { printf("FAIL %s: %s (%s:%d)\n", name, #cond, __FILE__, __LINE__); check_failures++; } } while (0)
#define CHECK_EQ_U64(name, got, want) do { uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
    if (g_ == w_) printf("PASS %s\n", name); \
    else { printf("FAIL %s: got 0x%" PRIx64 ", want 0x%" PRIx64 " (%s:%d)\n", name, g_, w_, __FILE__, __LINE__); check_failures++; } } while (0)
#define CHECK_DONE() return check_failures ? 1 : 0
#endif
