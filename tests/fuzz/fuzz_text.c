/* fuzz_text.c — mf_estimate_text and mf_count_code_points on raw bytes.
 *
 * Invariants:
 * - the code point count equals an independent decoder's (written from the Unicode
 *   standard's table of well-formed sequences; an invalid byte counts as one);
 * - the estimate is the sum of each code point's class weight (bareagent: CJK 1500,
 *   letter/digit and space 250, anything else and invalid bytes 500 milli-tokens), with
 *   the classes taken from the documented ranges, not from text_class.c;
 * - estimates add up: estimate(a + b) == estimate(a) + estimate(b) for a split at a
 *   code point boundary (checked at up to 12 boundaries,
 *   spread over the input and next to multi-byte sequences), and so do counts;
 * - an unknown profile counts as the reference profile;
 * - the calibrated profiles' feature pass counts text given in pieces (split between
 *   code points) exactly as text given whole, and 'safe' prices each text as the
 *   largest of the five fitted profiles;
 * - in particular, text fed one code point at a time (which never reaches the 64-byte
 *   ASCII mask path: it needs 16 bytes in one piece) counts as text given whole. */
#include <string.h>

#include "common.h"
#include "text_features.h"

static const uint64_t WEIGHT[MF_CLASS_COUNT] = {[MF_CLASS_CJK] = 1500, [MF_CLASS_ALNUM] = 250,
                                                [MF_CLASS_SPACE] = 250, [MF_CLASS_OTHER] = 500};

static bool in(uint32_t cp, uint32_t lo, uint32_t hi) { return cp >= lo && cp <= hi; }

/* The classes as midfold.h and the JS test helpers document them. */
static mf_char_class classify(uint32_t cp)
{
    if (in(cp, '0', '9') || in(cp, 'A', 'Z') || in(cp, 'a', 'z')) return MF_CLASS_ALNUM;
    if (in(cp, 0x09, 0x0D) || in(cp, 0x1C, 0x20) || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
        in(cp, 0x2000, 0x200A) || in(cp, 0x2028, 0x2029) || cp == 0x202F || cp == 0x205F || cp == 0x3000)
        return MF_CLASS_SPACE;
    if (in(cp, 0x2E80, 0x2FDF) || in(cp, 0x3001, 0x303F) || in(cp, 0x3040, 0x30FF) || in(cp, 0x3100, 0x31FF) ||
        in(cp, 0x3400, 0x4DBF) || in(cp, 0x4E00, 0x9FFF) || in(cp, 0xAC00, 0xD7AF) || in(cp, 0xF900, 0xFAFF) ||
        in(cp, 0xFF00, 0xFFEF) || in(cp, 0x20000, 0x2FA1F))
        return MF_CLASS_CJK;
    return MF_CLASS_OTHER;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    uint64_t total = mf_estimate_text(s, size, MF_PROFILE_BAREAGENT);
    size_t count = mf_count_code_points(s, size);

    size_t ref_count = 0;
    uint64_t ref_milli = 0;
    size_t boundaries[12];
    size_t nb = 0, stride = size / 6 + 1;
    for (size_t i = 0; i < size; ref_count++) {
        uint32_t cp;
        size_t n = fuzz_utf8_next(data + i, size - i, &cp);
        ref_milli += WEIGHT[classify(cp)];
        i += n;
        if (i < size && nb < 12 && (i % stride == 0 || nb < 3 || (n > 1 && nb < 8))) boundaries[nb++] = i;
    }
    CHECK(count == ref_count, "code points %zu, reference %zu", count, ref_count);
    CHECK(total == ref_milli, "estimate %llu, reference %llu", (unsigned long long)total, (unsigned long long)ref_milli);
    CHECK(mf_estimate_text(s, size, (mf_profile)1000) == total, "unknown profile differs");

    uint64_t best = 0;
    for (int p = MF_PROFILE_O200K; p <= MF_PROFILE_CLAUDE; p++) {
        uint64_t e = mf_estimate_text(s, size, (mf_profile)p);
        if (e > best) best = e;
    }
    uint64_t safe = mf_estimate_text(s, size, MF_PROFILE_SAFE);
    CHECK(safe == best, "safe %llu, largest fitted %llu", (unsigned long long)safe, (unsigned long long)best);
    uint64_t whole[MF_FEATURE_COUNT] = {0};
    mf_feature_state st;
    mf_features_begin(&st);
    mf_features_feed(&st, s, size, whole);
    mf_features_end(&st, whole);
    uint64_t by_code_point[MF_FEATURE_COUNT] = {0};
    mf_features_begin(&st);
    for (size_t i = 0; i < size;) {
        uint32_t cp;
        size_t n = fuzz_utf8_next(data + i, size - i, &cp);
        mf_features_feed(&st, s + i, n, by_code_point);
        i += n;
    }
    mf_features_end(&st, by_code_point);
    for (int f = 0; f < MF_FEATURE_COUNT; f++)
        CHECK(by_code_point[f] == whole[f], "feature %d: %llu one code point at a time, %llu whole", f,
              (unsigned long long)by_code_point[f], (unsigned long long)whole[f]);
    for (size_t k = 0; k < nb; k++) {
        size_t at = boundaries[k];
        uint64_t a = mf_estimate_text(s, at, MF_PROFILE_BAREAGENT);
        uint64_t b = mf_estimate_text(s + at, size - at, MF_PROFILE_BAREAGENT);
        CHECK(a + b == total, "split at %zu: %llu + %llu != %llu", at, (unsigned long long)a,
              (unsigned long long)b, (unsigned long long)total);
        CHECK(mf_count_code_points(s, at) + mf_count_code_points(s + at, size - at) == count, "count split at %zu", at);
        if (k < 4) {
            uint64_t pieces[MF_FEATURE_COUNT] = {0};
            mf_features_begin(&st);
            mf_features_feed(&st, s, at, pieces);
            mf_features_feed(&st, s + at, size - at, pieces);
            mf_features_end(&st, pieces);
            for (int f = 0; f < MF_FEATURE_COUNT; f++)
                CHECK(pieces[f] == whole[f], "feature %d: %llu in two pieces (cut at %zu), %llu whole", f,
                      (unsigned long long)pieces[f], at, (unsigned long long)whole[f]);
        }
    }
    return 0;
}
