/* text_class.c — which estimator class each code point belongs to, and counting the
 * classes over UTF-8 text fast (this loop is the estimator's hot path). */
#include "base.h"

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

/* The class of every BMP code point, filled from mf_classify at first use (so the two
 * cannot disagree, and the 64 KB cost nothing in the .wasm file). A lookup replaces the
 * chain of range checks on the hot path. */
static uint8_t bmp_class[65536];
static bool bmp_ready;

static void init_table(void)
{
    for (uint32_t c = 0; c < 65536; c++) bmp_class[c] = (uint8_t)mf_classify(c);
    bmp_ready = true;
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

/* Four class counters packed in one 64-bit register, 16 bits each: a run of one class
 * then costs an add, not a load-add-store chain through memory. */
#define PACKED_LIMIT 32768u
static void unpack(uint64_t *acc, uint64_t counts[])
{
    for (int k = 0; k < MF_CLASS_COUNT; k++) counts[k] += (*acc >> (16 * k)) & 0xFFFF;
    *acc = 0;
}

#define ONE(cls) (1ull << (16 * (cls)))

/* Ideographs U+4000-U+9FFF from p[i]: three-byte sequences with lead bytes E4-E9, all CJK
 * except the Yijing hexagrams U+4DC0-U+4DFF (E4 B7 xx). Chinese text is mostly runs of
 * these, so they are counted by their bytes' shape without decoding or a table lookup.
 * Returns where the run ends: before `stop`, and after at most `max` ideographs.
 * Not SIMD: checking 16 at a time (three gathers of 48 bytes) was measured at +3 % on the
 * bench's Chinese text and -6 % on its Chinese conversation; runs are short (a clause
 * between two punctuation marks: a median of 13 ideographs), and their ends cost more
 * than their middles. */
static size_t ideograph_run(const unsigned char *p, size_t i, size_t stop, size_t len, size_t max)
{
    if (len - i < 3) return i;
    size_t limit = len - 2; /* a sequence starting before it is whole */
    if (limit > stop) limit = stop;
    if (limit - i > 3 * max) limit = i + 3 * max;
    while (i < limit && p[i] - 0xE4u <= 0xE9u - 0xE4u && (p[i + 1] & 0xC0) == 0x80 && (p[i + 2] & 0xC0) == 0x80 &&
           !(p[i] == 0xE4 && p[i + 1] == 0xB7))
        i += 3;
    return i;
}

/* Counts from p[i] until `stop` (a sequence that starts before it is finished), decoding
 * UTF-8 inline. Invalid bytes count as one "other" each, exactly as mf_utf8_decode says. */
static size_t count_scalar(const unsigned char *p, size_t i, size_t stop, size_t len, uint64_t counts[])
{
    uint64_t acc = 0;
    unsigned run = 0;
    while (i < stop) {
        if (++run == PACKED_LIMIT) { unpack(&acc, counts); run = 0; }
        unsigned b = p[i];
        if (b < 0x80) { acc += ONE(bmp_class[b]); i++; continue; }
        if (b - 0xE4u <= 0xE9u - 0xE4u) {
            /* at most 8,192 at once, so the packed counters (< PACKED_LIMIT + 8,192) cannot overflow */
            size_t end = ideograph_run(p, i, stop, len, 8192);
            if (end > i) {
                unsigned n = (unsigned)((end - i) / 3);
                acc += n * ONE(MF_CLASS_CJK);
                run += n;
                if (run >= PACKED_LIMIT) { unpack(&acc, counts); run = 0; }
                i = end;
                continue;
            }
        }
        if ((b & 0xF0) == 0xE0 && len - i >= 3) { /* CJK is all here */
            unsigned b1 = p[i + 1], b2 = p[i + 2];
            uint32_t cp = ((b & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
            if ((b1 & 0xC0) == 0x80 && (b2 & 0xC0) == 0x80 && cp >= 0x800 && (cp & 0xF800) != 0xD800) {
                acc += ONE(bmp_class[cp]);
                i += 3;
                continue;
            }
        }
        uint32_t cp;
        size_t n = mf_utf8_decode(p + i, len - i, &cp);
        acc += ONE(cp < 65536 ? bmp_class[cp] : mf_classify(cp));
        i += n;
    }
    unpack(&acc, counts);
    return i;
}

void mf_count_classes(const char *text, size_t len, uint64_t counts[MF_CLASS_COUNT])
{
    if (!bmp_ready) init_table();
    const unsigned char *p = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
#ifdef __wasm_simd128__
        if (len - i >= 16 && p[i] < 0x80) {
            size_t used = count_ascii_simd(p + i, len - i, counts);
            i += used;
            if (used && len - i >= 16) continue; /* more blocks to try after a flush */
        }
        /* Scalar for a while, then the SIMD path gets another chance. */
        size_t stop = len - i > 256 ? i + 256 : len;
#else
        size_t stop = len;
#endif
        i = count_scalar(p, i, stop, len, counts);
    }
}

size_t mf_count_code_points(const char *text, size_t len)
{
    /* The class counter already walks code points at full speed: their sum is the count. */
    uint64_t counts[MF_CLASS_COUNT] = {0, 0, 0, 0};
    if (text && len) mf_count_classes(text, len, counts);
    return (size_t)(counts[0] + counts[1] + counts[2] + counts[3]);
}
