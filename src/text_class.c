/* text_class.c — which estimator class each code point belongs to, and counting the
 * classes over UTF-8 text fast (this loop is the estimator's hot path). */
#include "internal.h"

#include <string.h>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

/* CJK: Han, kana, Hangul syllables, CJK symbols and full-width forms. */
static bool is_cjk(uint32_t cp)
{
    return (cp >= 0x2E80 && cp <= 0x2FDF) || (cp >= 0x3001 && cp <= 0x303F) ||
           (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3100 && cp <= 0x31FF) ||
           (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
           (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x20000 && cp <= 0x2FA1F);
}

/* The code points Python's `\s` matches in a str pattern. */
static bool is_space(uint32_t cp)
{
    return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 ||
           cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
           cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

mf_char_class mf_classify(uint32_t cp)
{
    if (cp < 0x80) {
        if ((cp >= '0' && cp <= '9') || ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z'))
            return MF_CLASS_ALNUM;
        return is_space(cp) ? MF_CLASS_SPACE : MF_CLASS_OTHER;
    }
    if (is_space(cp)) return MF_CLASS_SPACE;
    return is_cjk(cp) ? MF_CLASS_CJK : MF_CLASS_OTHER;
}

/* Class of every ASCII byte, built once from mf_classify so the two cannot disagree. */
static uint8_t ascii_class[128];
static bool ascii_ready;

static void init_ascii(void)
{
    for (uint32_t c = 0; c < 128; c++) ascii_class[c] = (uint8_t)mf_classify(c);
    ascii_ready = true;
}

#ifdef __wasm_simd128__
/* Counts ALNUM and SPACE bytes in 16-byte all-ASCII blocks; returns the bytes consumed
 * (it stops at the first block holding a non-ASCII byte). Lane counters are 8-bit, so
 * they are widened every 255 blocks. */
static size_t count_ascii_simd(const unsigned char *p, size_t len, uint64_t counts[])
{
    size_t i = 0;
    while (i + 16 <= len) {
        v128_t acc_alnum = wasm_i8x16_splat(0), acc_space = wasm_i8x16_splat(0);
        size_t blocks = 0;
        while (blocks < 255 && i + 16 <= len) {
            v128_t v = wasm_v128_load(p + i);
            if (wasm_i8x16_bitmask(v)) goto flush; /* a non-ASCII byte in this block */
            v128_t digit = wasm_u8x16_lt(wasm_i8x16_sub(v, wasm_i8x16_splat('0')), wasm_i8x16_splat(10));
            v128_t lower = wasm_v128_or(v, wasm_i8x16_splat(0x20));
            v128_t letter = wasm_u8x16_lt(wasm_i8x16_sub(lower, wasm_i8x16_splat('a')), wasm_i8x16_splat(26));
            v128_t space = wasm_v128_or(
                wasm_u8x16_lt(wasm_i8x16_sub(v, wasm_i8x16_splat(0x09)), wasm_i8x16_splat(5)),
                wasm_u8x16_lt(wasm_i8x16_sub(v, wasm_i8x16_splat(0x1C)), wasm_i8x16_splat(5)));
            /* A true lane is 0xFF (-1): subtracting it adds one. */
            acc_alnum = wasm_i8x16_sub(acc_alnum, wasm_v128_or(digit, letter));
            acc_space = wasm_i8x16_sub(acc_space, space);
            i += 16;
            blocks++;
        }
    flush:;
        v128_t a16 = wasm_u16x8_extadd_pairwise_u8x16(acc_alnum);
        v128_t s16 = wasm_u16x8_extadd_pairwise_u8x16(acc_space);
        v128_t a32 = wasm_u32x4_extadd_pairwise_u16x8(a16);
        v128_t s32 = wasm_u32x4_extadd_pairwise_u16x8(s16);
        uint64_t alnum = (uint64_t)wasm_u32x4_extract_lane(a32, 0) + wasm_u32x4_extract_lane(a32, 1) +
                         wasm_u32x4_extract_lane(a32, 2) + wasm_u32x4_extract_lane(a32, 3);
        uint64_t space = (uint64_t)wasm_u32x4_extract_lane(s32, 0) + wasm_u32x4_extract_lane(s32, 1) +
                         wasm_u32x4_extract_lane(s32, 2) + wasm_u32x4_extract_lane(s32, 3);
        counts[MF_CLASS_ALNUM] += alnum;
        counts[MF_CLASS_SPACE] += space;
        counts[MF_CLASS_OTHER] += (uint64_t)blocks * 16 - alnum - space;
        if (blocks < 255) break; /* stopped early: non-ASCII block or end of input */
    }
    return i;
}
#endif

void mf_count_classes(const char *text, size_t len, uint64_t counts[MF_CLASS_COUNT])
{
    if (!ascii_ready) init_ascii();
    const unsigned char *p = (const unsigned char *)text;
    uint64_t local[MF_CLASS_COUNT] = {0, 0, 0, 0};
    size_t i = 0;
    while (i < len) {
#ifdef __wasm_simd128__
        if (len - i >= 16) {
            size_t used = count_ascii_simd(p + i, len - i, local);
            i += used;
            if (i + 16 <= len && used) continue; /* more blocks to try after a flush */
        }
#endif
        /* Scalar: ASCII by table, else decode one code point. Runs until the next
         * 16-byte-aligned chance for the SIMD path or the end. */
        size_t stop = len;
#ifdef __wasm_simd128__
        if (len - i > 64) stop = i + 64;
#endif
        while (i < stop) {
            unsigned char c = p[i];
            if (c < 0x80) { local[ascii_class[c]]++; i++; continue; }
            uint32_t cp;
            size_t n = mf_utf8_decode(p + i, len - i, &cp);
            /* An invalid byte decodes as U+FFFD, which classifies as "other". */
            local[mf_classify(cp)]++;
            i += n;
        }
    }
    for (int k = 0; k < MF_CLASS_COUNT; k++) counts[k] += local[k];
}
