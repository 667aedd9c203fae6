/* test_profiles.c — the calibrated profiles: the C feature pass agrees with its
 * specification (tools/calibrate/model.mjs) on the known answers it wrote
 * (tests/fixtures/estimator/vectors.json), whole and in pieces, and every profile prices
 * them as the fit did. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "check.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"
#include "profiles.h"
#include "text_features.h"

static const char *const PROFILE_NAMES[] = {"o200k", "cl100k", "deepseek", "qwen", "claude"};
static const mf_profile PROFILE_IDS[] = {MF_PROFILE_O200K, MF_PROFILE_CL100K, MF_PROFILE_DEEPSEEK, MF_PROFILE_QWEN,
                                         MF_PROFILE_CLAUDE};

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) { buf[n] = 0; *len = (size_t)n; }
    return buf;
}

static size_t from_hex(const char *hex, char *out)
{
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (char)v;
    }
    return n;
}

static uint64_t feature_of(const char *text, int feature)
{
    uint64_t counts[MF_FEATURE_COUNT] = {0};
    count_features_whole(text, strlen(text), counts);
    return counts[feature];
}

/* Facts the two vocabulary-free refinements exist for: a word made of letter pairs that
 * vocabularies merge costs less than one of the same shape made of pairs they split, and an
 * ideograph outside the common set costs more than a common one. */
static void letter_pairs_and_rare_ideographs(void)
{
    CHECK("common letter pairs (\"station\") expect fewer boundaries than rare ones (\"stqxjvn\")",
          feature_of("station", MF_F_BND) < feature_of("stqxjvn", MF_F_BND));
    CHECK("a camel-case step adds no letter-pair boundary, an ALL_CAPS pair counts as a capital pair",
          feature_of("aB", MF_F_BND) == 0 && feature_of("aB", MF_F_BNDU) == 0 && feature_of("AB", MF_F_BNDU) > 0 &&
          feature_of("AB", MF_F_BND) == 0);
    CHECK("letters apart (\"a b\", \"a1b\", \"é\") make no pair",
          feature_of("a b", MF_F_BND) + feature_of("a1b", MF_F_BND) + feature_of("caf\xC3\xA9s", MF_F_BND) ==
          feature_of("caf", MF_F_BND));
    CHECK("each vocabulary's table has its own view: DeepSeek-V3 splits \"gethostbyname\" more than o200k does",
          feature_of("gethostbyname", MF_F_BND_DS) > feature_of("gethostbyname", MF_F_BND) &&
          feature_of("gethostbyname", MF_F_BND_QW) > 0);
    {
        /* Longer than the lower-case loop's 8,192-letter stretch: the count must not depend on where it stops. */
        enum { N = 20000 };
        char *run = malloc(N + 1);
        for (int i = 0; i < N; i++) run[i] = "ab"[i % 2];
        run[N] = 0;
        uint64_t ab = mf_letter_boundary[1][0][0 * 26 + 1], ba = mf_letter_boundary[1][0][1 * 26 + 0];
        CHECK_EQ_U64("a 20,000-letter lower-case run counts every one of its letter pairs (DeepSeek's table)",
                     feature_of(run, MF_F_BND_DS), (N / 2) * ab + (N / 2 - 1) * ba);
        CHECK_EQ_U64("... and every letter", feature_of(run, MF_F_LOWER), N);
        free(run);
    }
    CHECK("the o200k profile prices a rare-pair word above a common word of the same length",
          mf_estimate_text("information", 11, MF_PROFILE_O200K) < mf_estimate_text("infqxzvjkon", 11, MF_PROFILE_O200K));
    CHECK_EQ_U64("\"的\" (U+7684) is a common ideograph", feature_of("\xE7\x9A\x84", MF_F_HANR), 0);
    CHECK_EQ_U64("\"龘\" (U+9F98) and the ideographs outside U+4E00-U+9FFF are rare",
                 feature_of("\xE9\xBE\x98\xE3\x90\x80\xEF\xA4\x80", MF_F_HANR), 3);
    CHECK("cl100k prices rare ideographs above common ones (it spells them in bytes)",
          mf_estimate_text("\xE9\xBE\x98\xE9\xBE\x98\xE9\xBE\x98", 9, MF_PROFILE_CL100K) >
              mf_estimate_text("\xE7\x9A\x84\xE7\x9A\x84\xE7\x9A\x84", 9, MF_PROFILE_CL100K));
}

void test_profiles(void)
{
    size_t len = 0;
    char *json = read_file("tests/fixtures/estimator/vectors.json", &len);
    CHECK("the estimator's known answers are readable (run from the repository root)", json != NULL);
    if (!json) return;
    cJSON *root = cJSON_ParseWithLength(json, len);
    free(json);
    const cJSON *names = cJSON_GetObjectItem(root, "features");
    const cJSON *vectors = cJSON_GetObjectItem(root, "vectors");
    CHECK_EQ_U64("the specification and the C port have the same number of features",
                 (uint64_t)cJSON_GetArraySize(names), MF_FEATURE_COUNT);
    size_t wrong_counts = 0, wrong_pieces = 0, wrong_prices = 0, wrong_safe = 0, wrong_measures = 0, checked = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, vectors) {
        const char *hex = cJSON_GetObjectItem(v, "utf8_hex")->valuestring;
        char *bytes = malloc(strlen(hex) / 2 + 1);
        size_t n = from_hex(hex, bytes);
        uint64_t whole[MF_FEATURE_COUNT] = {0}, pieces[MF_FEATURE_COUNT] = {0};
        count_features_whole(bytes, n, whole);
        /* The same text in pieces, each cut between code points. */
        mf_feature_state st;
        mf_features_begin(&st);
        size_t at = 0;
        while (at < n) {
            size_t cut = at + 3 < n ? at + 3 : n;
            while (cut < n && ((unsigned char)bytes[cut] & 0xC0) == 0x80) cut++;
            mf_features_feed(&st, bytes + at, cut - at, pieces);
            at = cut;
        }
        mf_features_end(&st, pieces);
        const cJSON *counts = cJSON_GetObjectItem(v, "counts");
        for (int f = 0; f < MF_FEATURE_COUNT; f++) {
            const cJSON *c = cJSON_GetObjectItem(counts, cJSON_GetArrayItem(names, f)->valuestring);
            uint64_t want = c ? (uint64_t)c->valuedouble : 0;
            if (whole[f] != want) {
                if (!wrong_counts) printf("     vector %s: feature %s is %llu, the specification says %llu\n", hex,
                                          cJSON_GetArrayItem(names, f)->valuestring, (unsigned long long)whole[f],
                                          (unsigned long long)want);
                wrong_counts++;
            }
            if (pieces[f] != whole[f]) wrong_pieces++;
        }
        const cJSON *prices = cJSON_GetObjectItem(v, "estimates_milli");
        uint64_t largest = 0;
        for (size_t p = 0; p < 5; p++) {
            uint64_t want = (uint64_t)cJSON_GetObjectItem(prices, PROFILE_NAMES[p])->valuedouble;
            if (mf_estimate_text(bytes, n, PROFILE_IDS[p]) != want) wrong_prices++;
            if (want > largest) largest = want;
        }
        if (mf_estimate_text(bytes, n, MF_PROFILE_SAFE) != largest) wrong_safe++;
        /* One pass gives the price and the code points (a micro-compaction marker's size). */
        for (int p = 0; p < MF_PROFILE_COUNT; p++) {
            size_t chars = SIZE_MAX;
            uint64_t price = mf_measure_text(bytes, n, (mf_profile)p, &chars);
            if (chars != mf_count_code_points(bytes, n) || price != mf_estimate_text(bytes, n, (mf_profile)p))
                wrong_measures++;
        }
        free(bytes);
        checked++;
    }
    cJSON_Delete(root);
    CHECK("there are known answers to check", checked >= 20);
    CHECK_EQ_U64("every feature count of every known answer matches the specification", wrong_counts, 0);
    CHECK_EQ_U64("text fed in pieces (cut between code points) counts exactly as the whole", wrong_pieces, 0);
    CHECK_EQ_U64("every fitted profile prices every known answer as the fit did", wrong_prices, 0);
    CHECK_EQ_U64("the safe profile is the largest of the five, text by text", wrong_safe, 0);
    CHECK_EQ_U64("every profile measures every known answer's code points in the pass that prices it", wrong_measures, 0);

    mf_profile p;
    CHECK("every profile name parses back to its profile",
          mf_profile_parse("safe", 4, &p) == MF_OK && p == MF_PROFILE_SAFE &&
          mf_profile_parse("o200k", 5, &p) == MF_OK && p == MF_PROFILE_O200K &&
          mf_profile_parse("bareagent", 9, &p) == MF_OK && p == MF_PROFILE_BAREAGENT);
    CHECK("an unknown profile name is refused", mf_profile_parse("gpt2", 4, &p) == MF_ERR_INVALID_ARG);
    CHECK_EQ_U64("the empty text costs nothing in every profile", mf_estimate_text("", 0, MF_PROFILE_SAFE), 0);
    letter_pairs_and_rare_ideographs();
}
