/* sha256.h — SHA-256 (FIPS 180-4) of a byte string, for launch files'
 * expect.buffers[].sha256 (outputs too large to store as files). */
#ifndef PTXI_SHA256_H
#define PTXI_SHA256_H
#include <stddef.h>
#include <stdint.h>

void sha256(const uint8_t *data, uint64_t n, uint8_t out[32]);
/* out: 64 lowercase hex digits and a NUL. */
void sha256_hex(const uint8_t digest[32], char out[65]);

#endif
