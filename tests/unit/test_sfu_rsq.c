/* test_sfu_rsq.c — MUFU.RSQ and MUFU.SQRT (sfu/rsq.c) over every input of
 * their core range [1, 4), against the H100.
 *
 * Instead of 2^24 outputs per function, the H100's outputs are kept as one
 * FNV-1a hash per table segment (2^17 consecutive inputs), written by
 * `sfu/gen/rsq.c DIR hashes` from the probe's exhaustive sets
 * c_rsqrt.ftz_1_4 and c_sqrt.ftz_1_4.  A segment whose hash differs is
 * named with its inputs; the unit is monotone there except where the
 * H100 is not (rsqrt: nowhere; sqrt: 4 places), also checked. */
#include <stdio.h>
#include <stdlib.h>
#include "tests/unit/check.h"
#include "sfu/sfu.h"

static const uint64_t h100_hash[2][128] = {
    {   /* rsqrt.approx.ftz.f32 */
        0x5a58f88f7622d9f1ull, 0xf1791d05b0a661e7ull, 0x2e0f00a257d32c12ull, 0x76cc2cec78728154ull,
        0x9292ba743d162965ull, 0x7390cb8631f77b68ull, 0x0d7adcdcf3572db8ull, 0xfd2ef0fc896b8770ull,
        0x6d1e1ff3bfb0c696ull, 0x7062a7da29d0f661ull, 0x16e8fc88dc31f254ull, 0x3441b84ade4719acull,
        0x70b4a4daddf054ccull, 0xfa2c7f95e7014592ull, 0xce540196ee2f2cd1ull, 0x256fb5b37883132aull,
        0xc7d9605339805654ull, 0x0262c93d08c92907ull, 0x4900d3ed98ee3eceull, 0x8a8bae2f7682d49dull,
        0xaf769db4ffffae9cull, 0x94ad10f11948e13aull, 0x241f459aaf05f1abull, 0x41d8909fdcaef212ull,
        0xf8104a42794cf75full, 0xedb9ac5f9d31071aull, 0xbc20b2b3e9056328ull, 0x4c8f2c40bda01588ull,
        0x7025b58b0186c594ull, 0xf877d5759c382329ull, 0x6c5b6530d4566efeull, 0x1f8a94f9f8c11d99ull,
        0x74c8ed4a158fa097ull, 0xb0983ba88aeb791bull, 0xce66a6c940049b45ull, 0x3fc15f9088efbe5aull,
        0xe0006c43e5bb14d7ull, 0xc281ce8099f55fadull, 0xda8b6a4e0ea768e5ull, 0x14b5ffb6ab4b59ecull,
        0xa63ce7aca9552360ull, 0xd1eccb595a93bcd2ull, 0x3e1f98f8885e9a6bull, 0xa097ec5f1f2bf2d5ull,
        0x9361904ba5a0b550ull, 0xcc4f3f24d22c526aull, 0xf4d1a68b0a4c5847ull, 0x9ec120ff260435daull,
        0x002bccd02dd07012ull, 0x1c66b77685c06c20ull, 0x833baee230a04f63ull, 0xa4c057b0e378664bull,
        0xf953c7a0647d4dbbull, 0xf3a9b510c52a9792ull, 0x2488251714122f96ull, 0x7f01090460c7e169ull,
        0x07c758e38c84470bull, 0xbc6c3800ae895d71ull, 0x903081be33e0a244ull, 0x5e81194e171d4f66ull,
        0x419ea95f2f27e285ull, 0xbfde0f70f41e2470ull, 0xd9099e1fd4896443ull, 0x30798ab9c16f11e2ull,
        0x9ce4bf564248985eull, 0x94a9b53bfc50e94full, 0x242a35f56d1899acull, 0x76b9f32b150cb618ull,
        0xd3333facdad51272ull, 0xac10a5c0bf918d21ull, 0x90ebe36e083f0f31ull, 0x924ba632a23ab1a8ull,
        0x3086889c376ec7b0ull, 0x566b3e34518d7c2bull, 0x8de01802f5946e1bull, 0x4b99d4465ec9ff4dull,
        0xb5eab24734b3b3e1ull, 0x16b8f96c4ba8fedeull, 0xd3bb47bca99112fbull, 0x513fe4713ce7f1a8ull,
        0x3d780c20595eb0adull, 0x69be07deec0bae5cull, 0x92263eeb756d7ba0ull, 0xc244cc8e0cc45037ull,
        0xb0c50f9297e2caefull, 0x5a58706acbda7bc9ull, 0x7611b013629b7c3cull, 0xd6d19db8fab38d0eull,
        0xcd4ab4a92c8113d0ull, 0xdfad864d4890f961ull, 0xe88a0af0e7c4a9b5ull, 0xf166d441b3e06953ull,
        0xa5940636d1941547ull, 0xf4ee443d9e4077afull, 0x894e230a496f2d25ull, 0xfe16274f328babf2ull,
        0x216e922ff1878209ull, 0x88a779e8282eb126ull, 0x30b1cb13555770dcull, 0xfe9c771f5dfc4effull,
        0xc205a7964a21bd1aull, 0xd20e87d6d676c9deull, 0x8accea331999cbb3ull, 0x874a9d8287b557c4ull,
        0x2b82206f195f830cull, 0x69c365a5fa6f28c5ull, 0x12be17be7e811d37ull, 0xdf7cae2f506ddcdaull,
        0x58f301d669532a8full, 0xca2890f600036f92ull, 0xff18b1cb5f2d5fb1ull, 0x814a0929af52c649ull,
        0xcc7cf519aa1c0dcbull, 0x3d1a4dc248b1b3f8ull, 0xac47b88784e1c0a0ull, 0x5344226408700f75ull,
        0xe5a0eec841cd8c9full, 0x140cbf04b0b3b424ull, 0xc861100e389ec139ull, 0xd2e8993dcb2ddfb1ull,
        0xe9b860a7101ad0e6ull, 0x3fb8e24243ed4f7full, 0x3f3cf43ed2829b49ull, 0x14fcec8f35ceb843ull,
        0x670c6c4dabf74702ull, 0xbb0397d076da0667ull, 0x4f922ac4fed82fbcull, 0xe129e95753f5b29cull,
    },
    {   /* sqrt.approx.ftz.f32 */
        0xb83e17442a90d8b2ull, 0xd4de1785cf048b88ull, 0xb9883446444f3229ull, 0x676796b2a6c3b77full,
        0x8805654327a1fff9ull, 0x339a0787d180dc0dull, 0xf16bc83df84a085aull, 0x32eec079e2ce3f06ull,
        0xef6aa37a2451edf2ull, 0xa987d96b0e5c5b41ull, 0xb2e87648c282708full, 0x53edb5d5661a71e3ull,
        0xc2affbd85878891full, 0x88ab302e1542ea5aull, 0x216f7337f102216full, 0x4d603e41ed38d16aull,
        0x73d9df0baad2656cull, 0x967768ab724c50f7ull, 0x31a91894090ffa9dull, 0xa08eae4cdcd8e0dfull,
        0xe78eba8edb12c6faull, 0x49ab7d8aefaecfdaull, 0xbfab95860cc3a865ull, 0x8ad05851ebd0e42full,
        0x7c7387235e53cc7dull, 0x930453010ab8494eull, 0x2b7f54b8512f0822ull, 0x4b9f01f7bd6a1d5aull,
        0xfd38320f73398c30ull, 0xfba46616b2745bc8ull, 0x84d9b1e66f349372ull, 0x1222d93d7c363d06ull,
        0x43099417b936dc02ull, 0xfc7b7ea9c5771ebcull, 0xd5e4e75eb4fbc513ull, 0x0a1cf18ad43e7bfcull,
        0x4c3cf574a41fbcbeull, 0x632a0619eb28c08full, 0xe21d8c6243e09471ull, 0x62f805c3c5229982ull,
        0xdf474e4dff85fee2ull, 0x46b493e6bd472f0bull, 0x1973451b25c2d51eull, 0x2544ee4a1ffbd9f7ull,
        0x72a91d30c48fa70full, 0x5ce87d1f005be38aull, 0x7b1d7116039b8d53ull, 0x2736c9300121a113ull,
        0xa5297ba308da59caull, 0x5976784a1fe854c0ull, 0x8af55afcdceff6c5ull, 0x6a074eedd1be5b73ull,
        0x87d806c3e2f205b6ull, 0xe8487a617dbccf2bull, 0x397c775d7885b354ull, 0x46f926e99720b6ceull,
        0x84151784f1fedb5cull, 0x6bcbce62e9420376ull, 0x39d3fbaee8f5d7d7ull, 0x5e2eede549360b4bull,
        0xcfcd3b7228e4a76dull, 0x1aacfebffd6596a1ull, 0xdffa0c0616e1150bull, 0xb9d9e59513da7c26ull,
        0x748a1dc8b84874c3ull, 0x9b5645052392307cull, 0xa081c946ba8d670eull, 0xeaa9321cb673c635ull,
        0x5734ef4d59936968ull, 0xe9cbd218ccb70905ull, 0xd4f3cd7316b55362ull, 0x20f07c800027f4bdull,
        0xeb2798b2787d9d30ull, 0x976d573bef44b461ull, 0x5f798b0f365cc9dfull, 0x22039780e96fc089ull,
        0x3582a81f3bc20fd2ull, 0xf71c4c06e57f3fb3ull, 0x6e584603294a029cull, 0x0a7c16b41561bd9cull,
        0x26c2da530aaedbc1ull, 0x2cdb9c623ebaa866ull, 0xfdcdd7663ed3ac74ull, 0x72b2fc6476a4d1ceull,
        0x61470fb16825f3f3ull, 0xff748e7fb2d19926ull, 0xf49b901cfc07c8bcull, 0x979f27a68426ec75ull,
        0x8fb6984d85f32b9bull, 0x72152c19f05e109aull, 0xb2cc5658a3dacdeeull, 0xc0db413e24216a7full,
        0x9383275473d56e25ull, 0x022658979978139dull, 0xa97126fcbd942665ull, 0xb84a3ebbf908be32ull,
        0x7cd57d0f187ea852ull, 0xcf3a3972cd6b4353ull, 0x3ca959dfb9704163ull, 0x13fd548aada35bcfull,
        0x2ac8c237c8e76972ull, 0x4c1370fb41d5e568ull, 0x8befd45dc09c5e24ull, 0x4187afde9999eefcull,
        0x75fdf8b91d124fb2ull, 0x1f15abb9bb3cb835ull, 0x24a4cb233968910bull, 0x016f4c02d3bd8a72ull,
        0x1e248273f469bf39ull, 0xc6c2c8038158d044ull, 0x425cbf6f00816e7aull, 0xb3cf88716c7a1703ull,
        0x4b755c20f04f66ecull, 0x6fbf04b2ffec8ae2ull, 0xe9f8228640e10d6eull, 0xdc32558b1125bcdbull,
        0x0f175360f64cabb0ull, 0xc86d2ce92bc50e37ull, 0x0123ccae57bed5abull, 0xc543eeafda6d59c2ull,
        0x707df575903c6c86ull, 0x0e1d25f9f3dcfbfbull, 0x059e752612732658ull, 0x578f425eadf64e72ull,
        0x20ee00a02d8e6d4eull, 0x5d0ae1881719e72dull, 0xe51c27c673e0dc59ull, 0xf3bec07ec5003f82ull,
    },
};

static uint64_t seg_hash(bool sqrt, uint32_t g, uint32_t *first)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = g << 17; i < (g + 1) << 17; i++) {
        uint32_t x = 0x3f800000u + i, y = sqrt ? sfu_sqrt(x, true) : sfu_rsqrt(x, true);
        if (i == g << 17)
            *first = y;
        for (int b = 0; b < 4; b++) h = (h ^ ((y >> (8 * b)) & 255)) * 1099511628211ull;
    }
    return h;
}

int main(void)
{
    for (int f = 0; f < 2; f++) {
        const char *form = f ? "sqrt.approx.ftz.f32" : "rsqrt.approx.ftz.f32";
        int bad = 0;
        for (uint32_t g = 0; g < 128; g++) {
            uint32_t first = 0;
            if (seg_hash(f, g, &first) != h100_hash[f][g] && bad++ < 5)
                printf("# %s: inputs 0x%08x..0x%08x differ from the H100's (segment %u; model at 0x%08x: 0x%08x)\n", form,
                       0x3f800000u + (g << 17), 0x3f800000u + ((g + 1) << 17) - 1, g, 0x3f800000u + (g << 17), first);
        }
        char name[160];
        snprintf(name, sizeof name, "%s: all 2^24 inputs of [1, 4) as the H100 (%d of 128 segments differ)", form, bad);
        CHECK(name, bad == 0);
        /* where the output steps against the function's direction */
        int back = 0;
        uint32_t prev = f ? sfu_sqrt(0x3f800000u, true) : sfu_rsqrt(0x3f800000u, true);
        for (uint32_t x = 0x3f800001u; x < 0x40800000u; x++) {
            uint32_t y = f ? sfu_sqrt(x, true) : sfu_rsqrt(x, true);
            back += f ? y < prev : y > prev;
            prev = y;
        }
        snprintf(name, sizeof name, "%s: %d steps against monotony over [1, 4) (H100: %d)", form, back, f ? 4 : 0);
        CHECK(name, back == (f ? 4 : 0));
    }
    CHECK_DONE();
}
