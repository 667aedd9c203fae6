/* test_features_ascii.c — the 64-byte mask path for ASCII (text_features_ascii.c) counts
 * exactly what the code-point path counts. Feeding a text one code point at a time never
 * reaches the mask path (it needs 16 bytes in one piece), so that is the reference; the
 * texts are random mixes of what the mask path treats separately — runs of every kind
 * crossing block edges, runs carried in from non-ASCII text, lone spaces before digits,
 * repeated punctuation — and of the non-ASCII code points that hand it back. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "helpers.h"
#include "suites.h"
#include "text_features.h"

static uint64_t rng_state;
static uint32_t next_random(void)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(rng_state >> 33);
}
static uint32_t below(uint32_t n) { return next_random() % n; }

/* Pieces the mask path counts with a run or a mask of its own, and ones that hand the text
 * back to the code-point path (UTF-8 letters and ideographs, an invalid byte). */
static const char *const PIECES[] = {
    "the", "station", "strengths", "rhythm", "a", "I", "y", "Zz", "getHostByName", "HTTPServer", "XMLHttpRequest",
    "README", "CONSTANT_NAME", "antidisestablishmentarianism", "qwrtpsdfg", "0", "7", "42", "123", "2026", "1234567",
    "12345678901234567890", "deadbeef", "a1b2c3", "v2", "sha256", "0x7f3a9c", "utf8mb4", " ", " ", " ", "  ", "    ",
    "\t", "\n", "\n", "\r\n", "\n    ", "\n\t\t", "\n\n", " \n ", "\n \n", "--", "----------", "**", "==", "...", ",",
    ".", ":", ";", "\"", "'", "(", ")", "[", "]", "{", "}", "{\"key\": ", "\"},", "/usr/lib/x86_64-linux-gnu/",
    "#!", "$(", "=>", "&&", "||", "\\", "@", "`", "~", "^", "_", "\x01", "\x7f", "\x1b[0m", "caf\xC3\xA9",
    "\xC3\xA9t\xC3\xA9", "\xD0\xBF\xD1\x80\xD0\xB8", "\xE4\xB8\xAD\xE6\x96\x87", "\xE3\x80\x82", "\xF0\x9F\x98\x80",
    "\xE2\x94\x80\xE2\x94\x80", "\xFF", "na\xC3\xAFve", "\xC3\xA9\x61\x62\x63",
};
#define PIECE_COUNT (sizeof PIECES / sizeof PIECES[0])

/* A random text of about `target` bytes; ASCII-only when `ascii`. */
static size_t random_text(char *out, size_t cap, size_t target, int ascii)
{
    size_t n = 0;
    while (n < target) {
        const char *piece = PIECES[below(PIECE_COUNT)];
        size_t k = strlen(piece);
        int non_ascii = 0;
        for (size_t i = 0; i < k; i++) non_ascii |= (unsigned char)piece[i] >= 0x80;
        if ((ascii && non_ascii) || n + k > cap) continue;
        memcpy(out + n, piece, k);
        n += k;
    }
    return n;
}

static void count_by_code_point(const char *text, size_t len, uint64_t counts[])
{
    mf_feature_state st;
    mf_features_begin(&st);
    size_t at = 0;
    while (at < len) {
        size_t next = at + 1;
        while (next < len && ((unsigned char)text[next] & 0xC0) == 0x80) next++;
        mf_features_feed(&st, text + at, next - at, counts);
        at = next;
    }
    mf_features_end(&st, counts);
}

static void count_in_pieces(const char *text, size_t len, size_t max_piece, uint64_t counts[])
{
    mf_feature_state st;
    mf_features_begin(&st);
    size_t at = 0;
    while (at < len) {
        size_t next = at + 1 + below((uint32_t)max_piece);
        if (next > len) next = len;
        while (next < len && ((unsigned char)text[next] & 0xC0) == 0x80) next++;
        mf_features_feed(&st, text + at, next - at, counts);
        at = next;
    }
    mf_features_end(&st, counts);
}

/* The first feature where a and b differ, or -1. */
static int first_difference(const uint64_t a[], const uint64_t b[])
{
    for (int f = 0; f < MF_FEATURE_COUNT; f++)
        if (a[f] != b[f]) return f;
    return -1;
}

void test_features_ascii(void)
{
    static char text[9000];
    rng_state = 20261130;
    int whole_wrong = 0, pieces_wrong = 0, texts = 0;
    for (int round = 0; round < 3000; round++) {
        size_t target = round < 1000 ? 16 + below(200) : 16 + below(8000);
        size_t len = random_text(text, sizeof text, target, round % 3 != 0);
        uint64_t reference[MF_FEATURE_COUNT] = {0}, whole[MF_FEATURE_COUNT] = {0}, pieces[MF_FEATURE_COUNT] = {0};
        count_by_code_point(text, len, reference);
        count_features_whole(text, len, whole);
        count_in_pieces(text, len, 100, pieces);
        int f = first_difference(whole, reference);
        if (f >= 0 && !whole_wrong++)
            printf("     text %d (%zu bytes): feature %d is %llu whole, %llu one code point at a time\n", round, len, f,
                   (unsigned long long)whole[f], (unsigned long long)reference[f]);
        f = first_difference(pieces, reference);
        if (f >= 0 && !pieces_wrong++)
            printf("     text %d (%zu bytes) in pieces: feature %d is %llu, %llu one code point at a time\n", round, len,
                   f, (unsigned long long)pieces[f], (unsigned long long)reference[f]);
        texts++;
    }
    CHECK("3,000 random texts: the mask path counts every feature as the code-point path does", whole_wrong == 0);
    CHECK("the same texts fed in random pieces (the paths handing over mid-run) count the same", pieces_wrong == 0);
    CHECK_EQ_U64("all 3,000 texts were compared", texts, 3000);

    /* Facts at the edges of a block, with a 64-byte block's worth of letters around them. */
    char buf[200];
    memset(buf, 'a', 130);
    memcpy(buf + 130, " 1", 3);
    uint64_t c[MF_FEATURE_COUNT] = {0}, ref[MF_FEATURE_COUNT] = {0};
    count_features_whole(buf, 132, c);
    CHECK_EQ_U64("a 130-letter word across three blocks is one W11 word", c[MF_F_W11], 1);
    CHECK_EQ_U64("... with a letter past its 8th for each of 122", c[MF_F_LONG], 122);
    CHECK_EQ_U64("... and its lone space before a digit is WS1D", c[MF_F_WS1D], 1);
    count_by_code_point(buf, 132, ref);
    CHECK("... as the code-point path counts it", first_difference(c, ref) < 0);
}
