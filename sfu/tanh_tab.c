/* tanh_tab.c — MUFU.TANH's coefficients, reconstructed from the H100's
 * outputs by sfu/gen/tanh_fit.c (do not edit; regenerate with the command
 * there).  Binade i covers x in [2^(i-8), 2^(i-7)); sfu/tanh.c says how
 * the unit uses them. */
#include <stdint.h>

const unsigned char sfu_tanh_read[11] = {0, 0, 0, 0, 0, 0, 0, 19, 20, 0, 0};
const unsigned char sfu_tanh_lsb[11] = {0, 0, 0, 0, 0, 0, 0, 37, 37, 0, 0};
const unsigned short sfu_tanh_first[11] = {0, 0, 0, 0, 0, 0, 0, 0, 4, 12, 12};
/* {C0, C1, C2} per segment */
const int64_t sfu_tanh_coef[12][3] = {
    {63512576000, 103142, -24648},
    {76223741952, 90748, -25152},
    {87294803968, 78126, -24152},
    {96744833024, 66022, -22172},
    {104673640448, 54922, -19646},
    {111230255104, 45102, -16956},
    {116588085248, 36634, -14288},
    {120923258880, 29501, -11846},
    {124403318784, 23590, -9684},
    {127179194368, 18760, -7844},
    {129382154240, 14850, -6288},
    {131123347456, 11716, -5018},
};
