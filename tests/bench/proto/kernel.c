/* kernel.c — a prototype of a faster class-counting kernel, for the boundary diagnostic
 * only (tests/bench/proto/kernel.mjs builds it into a temporary folder and checks that it
 * counts exactly as midfold's mfw_estimate_text does). Not part of midfold.
 *
 * Differences from src/text_class.c:
 * - one class table for the whole BMP (64 KB, filled at first use, so it costs nothing
 *   in the .wasm), instead of range chains;
 * - UTF-8 decoding inline, with a 3-byte fast path (CJK is all 3-byte);
 * - counts packed in one 64-bit register (16 bits per class, flushed every 32,768 code
 *   points) instead of incrementing counts[] in memory, which for a run of one class
 *   is a load-add-store dependency chain;
 * - the ASCII SIMD path of text_class.c, unchanged.
 * Semantics are the same: invalid UTF-8 counts one "other" per invalid byte. */
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

enum { CJK = 0, ALNUM = 1, SPACE = 2, OTHER = 3 };

static uint8_t cls[65536];
static int ready;

static void fill(uint32_t lo, uint32_t hi, uint8_t c) { for (uint32_t x = lo; x <= hi; x++) cls[x] = c; }

static void init(void)
{
    fill(0, 0xFFFF, OTHER);
    static const uint32_t cjk[][2] = {{0x2E80, 0x2FDF}, {0x3001, 0x303F}, {0x3040, 0x30FF}, {0x3100, 0x31FF},
                                      {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7AF}, {0xF900, 0xFAFF},
                                      {0xFF00, 0xFFEF}};
    for (size_t i = 0; i < sizeof cjk / sizeof cjk[0]; i++) fill(cjk[i][0], cjk[i][1], CJK);
    fill('0', '9', ALNUM); fill('A', 'Z', ALNUM); fill('a', 'z', ALNUM);
    static const uint32_t sp[][2] = {{0x09, 0x0D}, {0x1C, 0x20}, {0x85, 0x85}, {0xA0, 0xA0}, {0x1680, 0x1680},
                                     {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
                                     {0x3000, 0x3000}};
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) fill(sp[i][0], sp[i][1], SPACE);
    ready = 1;
}

static size_t ascii_simd(const unsigned char *p, size_t len, uint64_t counts[4])
{
    size_t i = 0;
    while (i + 16 <= len) {
        v128_t acc_alnum = wasm_i8x16_splat(0), acc_space = wasm_i8x16_splat(0);
        size_t blocks = 0;
        while (blocks < 255 && i + 16 <= len) {
            v128_t v = wasm_v128_load(p + i);
            if (wasm_i8x16_bitmask(v)) goto flush;
            v128_t digit = wasm_u8x16_lt(wasm_i8x16_sub(v, wasm_i8x16_splat('0')), wasm_i8x16_splat(10));
            v128_t lower = wasm_v128_or(v, wasm_i8x16_splat(0x20));
            v128_t letter = wasm_u8x16_lt(wasm_i8x16_sub(lower, wasm_i8x16_splat('a')), wasm_i8x16_splat(26));
            v128_t space = wasm_v128_or(
                wasm_u8x16_lt(wasm_i8x16_sub(v, wasm_i8x16_splat(0x09)), wasm_i8x16_splat(5)),
                wasm_u8x16_lt(wasm_i8x16_sub(v, wasm_i8x16_splat(0x1C)), wasm_i8x16_splat(5)));
            acc_alnum = wasm_i8x16_sub(acc_alnum, wasm_v128_or(digit, letter));
            acc_space = wasm_i8x16_sub(acc_space, space);
            i += 16;
            blocks++;
        }
    flush:;
        v128_t a32 = wasm_u32x4_extadd_pairwise_u16x8(wasm_u16x8_extadd_pairwise_u8x16(acc_alnum));
        v128_t s32 = wasm_u32x4_extadd_pairwise_u16x8(wasm_u16x8_extadd_pairwise_u8x16(acc_space));
        uint64_t alnum = (uint64_t)wasm_u32x4_extract_lane(a32, 0) + wasm_u32x4_extract_lane(a32, 1) +
                         wasm_u32x4_extract_lane(a32, 2) + wasm_u32x4_extract_lane(a32, 3);
        uint64_t space = (uint64_t)wasm_u32x4_extract_lane(s32, 0) + wasm_u32x4_extract_lane(s32, 1) +
                         wasm_u32x4_extract_lane(s32, 2) + wasm_u32x4_extract_lane(s32, 3);
        counts[ALNUM] += alnum;
        counts[SPACE] += space;
        counts[OTHER] += (uint64_t)blocks * 16 - alnum - space;
        if (blocks < 255) break;
    }
    return i;
}

#define UNPACK(acc, counts)                                                                        \
    do {                                                                                           \
        for (int k_ = 0; k_ < 4; k_++) (counts)[k_] += ((acc) >> (16 * k_)) & 0xFFFF;               \
        (acc) = 0;                                                                                 \
    } while (0)

/* Scalar counting of up to `stop` bytes from p[*at]; packed counters, flushed by caller. */
static size_t scalar(const unsigned char *p, size_t i, size_t stop, size_t len, uint64_t counts[4])
{
    uint64_t acc = 0;
    unsigned run = 0;
    while (i < stop) {
        if (++run == 32768) { UNPACK(acc, counts); run = 0; }
        unsigned b = p[i];
        if (b < 0x80) { acc += 1ull << (16 * cls[b]); i++; continue; }
        if ((b & 0xF0) == 0xE0 && i + 2 < len) {
            unsigned b1 = p[i + 1], b2 = p[i + 2];
            uint32_t cp = ((b & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F);
            if (((b1 & 0xC0) == 0x80) & ((b2 & 0xC0) == 0x80) & (cp >= 0x800) & ((cp & 0xF800) != 0xD800)) {
                acc += 1ull << (16 * cls[cp]);
                i += 3;
                continue;
            }
            acc += 1ull << (16 * OTHER);
            i++;
            continue;
        }
        if (b >= 0xC2 && b <= 0xDF && i + 1 < len && (p[i + 1] & 0xC0) == 0x80) {
            acc += 1ull << (16 * cls[((b & 0x1F) << 6) | (p[i + 1] & 0x3F)]);
            i += 2;
            continue;
        }
        if (b >= 0xF0 && b <= 0xF4 && i + 3 < len && (p[i + 1] & 0xC0) == 0x80 && (p[i + 2] & 0xC0) == 0x80 &&
            (p[i + 3] & 0xC0) == 0x80) {
            uint32_t cp = ((b & 0x07) << 18) | ((p[i + 1] & 0x3F) << 12) | ((p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F);
            if (cp >= 0x10000 && cp <= 0x10FFFF) {
                acc += 1ull << (16 * (cp >= 0x20000 && cp <= 0x2FA1F ? CJK : OTHER));
                i += 4;
                continue;
            }
        }
        acc += 1ull << (16 * OTHER); /* an invalid byte */
        i++;
    }
    UNPACK(acc, counts);
    return i;
}

__attribute__((used, visibility("default"))) double proto_estimate_text(const unsigned char *p, size_t len)
{
    static const uint64_t milli[4] = {1500, 250, 250, 500};
    if (!ready) init();
    uint64_t counts[4] = {0, 0, 0, 0};
    size_t i = 0;
    while (i < len) {
        if (len - i >= 16 && p[i] < 0x80) {
            size_t used = ascii_simd(p + i, len - i, counts);
            i += used;
            if (used && i + 16 <= len) continue;
        }
        /* Scalar for up to 256 bytes (a sequence that starts before the stop is finished),
         * then the SIMD path gets another chance if an ASCII byte comes next. */
        size_t stop = len - i > 256 ? i + 256 : len;
        i = scalar(p, i, stop, len, counts);
    }
    return (double)(counts[0] * milli[0] + counts[1] * milli[1] + counts[2] * milli[2] + counts[3] * milli[3]);
}

static unsigned char heap[64 << 20];
__attribute__((used, visibility("default"))) unsigned char *proto_buffer(void) { return heap; }
