/* strtod.c — the number parser cJSON is built with (-Dstrtod=mf_strtod). libc's strtod
 * is exact but brings long-double soft-float into the wasm module (about a fifth of its
 * size). JSON numbers in conversations are line numbers, counts and the odd float:
 * this parser is exact whenever the digits fit in 2^53 and the power of ten is at most
 * 22 (every such number), and within a few units in the last place otherwise. */
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

double mf_strtod(const char *s, char **end);

static double pow10_of(int e)
{
    static const double exact[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    double r = 1.0;
    while (e > 22) { r *= 1e22; e -= 22; }
    return r * exact[e];
}

double mf_strtod(const char *s, char **end)
{
    const char *p = s;
    bool negative = false;
    if (*p == '-' || *p == '+') negative = *p++ == '-';
    uint64_t mantissa = 0;
    int dropped = 0, scale = 0; /* digits beyond 19 and digits after the point */
    const char *digits = p;
    while (*p >= '0' && *p <= '9') {
        if (mantissa < 1000000000000000000ull) mantissa = mantissa * 10 + (uint64_t)(*p - '0');
        else dropped++;
        p++;
    }
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') {
            if (mantissa < 1000000000000000000ull) { mantissa = mantissa * 10 + (uint64_t)(*p - '0'); scale++; }
            p++;
        }
    }
    if (p == digits || (p == digits + 1 && *digits == '.')) {
        if (end) *end = (char *)s;
        return 0.0;
    }
    int exponent = 0;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        bool neg_exp = false;
        if (*q == '-' || *q == '+') neg_exp = *q++ == '-';
        if (*q >= '0' && *q <= '9') {
            while (*q >= '0' && *q <= '9') {
                if (exponent < 100000) exponent = exponent * 10 + (*q - '0');
                q++;
            }
            if (neg_exp) exponent = -exponent;
            p = q;
        }
    }
    if (end) *end = (char *)p;
    int e10 = exponent + dropped - scale;
    double v = (double)mantissa;
    if (mantissa == 0) v = 0.0;
    else if (e10 > 308 + 19) v = 1e308 * 10.0; /* overflow: infinity, as strtod */
    else if (e10 < -343) v = 0.0;
    else if (e10 >= 0) v *= pow10_of(e10);
    else if (e10 >= -308) v /= pow10_of(-e10);
    else v = v / pow10_of(308) / pow10_of(-e10 - 308);
    return negative ? -v : v;
}
