/* json_number.c — JSON numbers as the transcript prints them: parsed as cJSON parses
 * them (the longest run of number characters, read by mf_strtod as far as it goes) and
 * printed back integers exactly, other values with up to 15 significant digits (enough
 * for every value a conversation carries). Shared by json_read.c (through cJSON),
 * json_reprint.c and json_scan.c, so all print the same number the same way. */
#include "tree.h"

#include <math.h>
#include <string.h>

static size_t put_digits(char *out, uint64_t v)
{
    char tmp[24];
    size_t k = 0, n = 0;
    do { tmp[k++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (k) out[n++] = tmp[--k];
    return n;
}

size_t mf_json_format_number(double v, char *out)
{
    size_t n = 0;
    if (!isfinite(v)) { memcpy(out, "null", 4); return 4; }
    if (v < 0) { out[n++] = '-'; v = -v; }
    if (v == floor(v) && v < 1e17) return n + put_digits(out + n, (uint64_t)v);
    /* Scientific decomposition: v = m * 10^e with 15 significant digits in m. Below
     * 1e-294, 10^(e-14) would underflow to 0 (and m come out of an infinity): scale such
     * tiny values up first. */
    int e = (int)floor(log10(v));
    double scaled = e - 14 < -290 ? v * 1e300 / pow(10.0, e - 14 + 300) : v / pow(10.0, e - 14);
    uint64_t m = (uint64_t)llround(scaled);
    if (m >= 1000000000000000ull) { m /= 10; e++; }
    char digits[24];
    size_t nd = put_digits(digits, m);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    if (e >= -6 && e < 17) {
        if (e < 0) {
            out[n++] = '0'; out[n++] = '.';
            for (int z = -1; z > e; z--) out[n++] = '0';
            memcpy(out + n, digits, nd); n += nd;
        } else {
            for (size_t i = 0; i < nd || (int)i <= e; i++) {
                if ((int)i == e + 1) out[n++] = '.';
                out[n++] = i < nd ? digits[i] : '0';
            }
        }
    } else {
        out[n++] = digits[0];
        if (nd > 1) { out[n++] = '.'; memcpy(out + n, digits + 1, nd - 1); n += nd - 1; }
        out[n++] = 'e';
        if (e < 0) { out[n++] = '-'; e = -e; } else out[n++] = '+';
        n += put_digits(out + n, (uint64_t)e);
    }
    return n;
}

size_t mf_json_scan_number(const char *s, size_t len, double *value)
{
    /* cJSON copies the run of characters a number may hold, then lets strtod take what it can. */
    size_t run = 0;
    while (run < len && ((s[run] >= '0' && s[run] <= '9') || s[run] == '+' || s[run] == '-' || s[run] == 'e' ||
                         s[run] == 'E' || s[run] == '.'))
        run++;
    char small[64];
    char *copy = run < sizeof small ? small : mf_alloc(run + 1);
    if (!copy) return SIZE_MAX;
    memcpy(copy, s, run);
    copy[run] = 0;
    char *end = copy;
    *value = mf_strtod(copy, &end);
    size_t used = (size_t)(end - copy);
    if (copy != small) mf_dealloc(copy);
    return used;
}
