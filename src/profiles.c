/* profiles.c — named sets of estimator weights.
 *
 * bareagent is the reference: the per-code-point weights midfold started from
 * (CJK 1.5, ASCII letter or digit 0.25, whitespace 0.25, other 0.5). Its structural
 * costs: 4 tokens per message (role marker and delimiters, as chat templates add),
 * 0 per tool call beyond its name and arguments, 1,600 per image (Anthropic's cost of a
 * full-size 1092x1092 image, the usual cap) and 3,000 per binary document (about two
 * PDF pages); a document with a text source is counted by its text instead.
 */
#include "profiles.h"
#include "text_features.h"
#include "base.h"

#include <math.h>
#include <string.h>

/* Structural costs of the fitted profiles, measured with each tokenizer's chat template by
 * tools/calibrate/overheads.mjs (overheads.json): the tokens a message adds beyond its
 * content (the costliest role: Qwen3 wraps tool results in <tool_response>), and what a
 * tool call adds beyond its name and its arguments' keys and values (the largest seen,
 * a four-argument call). o200k/cl100k tool calls follow OpenAI's published counting
 * (the real wrapping is not public); claude's are estimates from a rebuilt format, kept
 * at the higher of that and the earlier guess. */
#define FITTED(NAME, WEIGHTS, MESSAGE, TOOL_CALL)                                                   \
    {.name = NAME, .class_milli = {1500, 250, 250, 500}, .feature_milli = WEIGHTS,                 \
     .message_milli = MESSAGE, .tool_call_milli = TOOL_CALL, .image_milli = 1600000, .document_milli = 3000000}

static const mf_profile_def PROFILES[MF_PROFILE_COUNT] = {
    [MF_PROFILE_BAREAGENT] = {
        .name = "bareagent",
        .class_milli = {[MF_CLASS_CJK] = 1500, [MF_CLASS_ALNUM] = 250,
                        [MF_CLASS_SPACE] = 250, [MF_CLASS_OTHER] = 500},
        .feature_milli = NULL,
        .message_milli = 4000,
        .tool_call_milli = 0,
        .image_milli = 1600000,
        .document_milli = 3000000,
    },
    [MF_PROFILE_O200K] = FITTED("o200k", mf_weights_o200k, 4000, 19000),
    [MF_PROFILE_CL100K] = FITTED("cl100k", mf_weights_cl100k, 4000, 19000),
    [MF_PROFILE_DEEPSEEK] = FITTED("deepseek", mf_weights_deepseek, 3000, 25000),
    [MF_PROFILE_QWEN] = FITTED("qwen", mf_weights_qwen, 9000, 27000),
    [MF_PROFILE_CLAUDE] = FITTED("claude", mf_weights_claude, 6000, 59000),
    /* safe: the text is priced by every fitted profile and the largest taken; the
     * structural costs are the largest of theirs too. */
    [MF_PROFILE_SAFE] = FITTED("safe", NULL, 9000, 59000),
};

static const uint32_t *const FITTED_WEIGHTS[] = {mf_weights_o200k, mf_weights_cl100k, mf_weights_deepseek,
                                                 mf_weights_qwen, mf_weights_claude};

_Static_assert(MF_F_BND + 2 * MF_BOUNDARY_TABLES == MF_FEATURE_COUNT, "the scaled boundary features come last");
_Static_assert(MF_F_LOWER == 0 && MF_F_HANR + 1 == MF_F_W1, "the per-code-point features come first, up to HANR");

/* The text's code points: every one adds to one per-code-point feature (the first ones, up
 * to HANR), but a lone space, which its run feature (WS1 or WS1D) prices instead. */
static uint64_t code_points_of(const uint64_t *counts)
{
    uint64_t n = counts[MF_F_WS1] + counts[MF_F_WS1D];
    for (int f = 0; f <= MF_F_HANR; f++) n += counts[f];
    return n;
}

/* The features a text has (count > 0), in feature order, and where the boundary features
 * start among them: a text holds a dozen kinds or so of the 54, and 'safe' prices it five
 * times, so the products are taken over these alone (short texts, ids and names, are most
 * of a conversation's texts, and there this pricing cost as much as their feature pass). */
typedef struct {
    uint8_t at[MF_FEATURE_COUNT];
    int count, first_scaled;
} present_features;

static void find_present(const uint64_t *counts, present_features *out)
{
    /* written unconditionally, kept by moving on: no branch to mispredict per feature */
    int n = 0;
    for (int f = 0; f < MF_F_BND; f++) {
        out->at[n] = (uint8_t)f;
        n += counts[f] != 0;
    }
    out->first_scaled = n;
    for (int f = MF_F_BND; f < MF_FEATURE_COUNT; f++) {
        out->at[n] = (uint8_t)f;
        n += counts[f] != 0;
    }
    out->count = n;
}

/* Milli-tokens of feature counts (the rule of tools/calibrate/model.mjs priceMilli): whole
 * features' products summed, plus the boundary features' products summed and divided by
 * their scale, rounded up, plus the length weight times `root` (the square root of the
 * code points), rounded up. sqrt and the product are IEEE double operations, correctly
 * rounded in C as in JS, so both give the same milli-token. Features absent from
 * `present` have a count of 0 and add nothing. */
static uint64_t dot(const uint32_t *w, const uint64_t *counts, const present_features *present, double root)
{
    uint64_t sum = 0, scaled = 0;
    for (int i = 0; i < present->first_scaled; i++) sum += counts[present->at[i]] * w[present->at[i]];
    for (int i = present->first_scaled; i < present->count; i++) scaled += counts[present->at[i]] * w[present->at[i]];
    double length = ceil((double)w[MF_W_LENGTH] * root);
    return sum + scaled / MF_BOUNDARY_SCALE + (scaled % MF_BOUNDARY_SCALE != 0) + (uint64_t)length;
}

uint64_t mf_profile_price(mf_profile profile, const uint64_t *counts)
{
    const mf_profile_def *def = mf_profile_get(profile);
    if (profile != MF_PROFILE_SAFE && !def->feature_milli) return 0;
    /* once per text, whichever weights price it ('safe': all five) */
    double root = sqrt((double)code_points_of(counts));
    present_features present;
    find_present(counts, &present);
    if (profile == MF_PROFILE_SAFE) {
        uint64_t best = 0;
        for (size_t i = 0; i < sizeof FITTED_WEIGHTS / sizeof FITTED_WEIGHTS[0]; i++) {
            uint64_t v = dot(FITTED_WEIGHTS[i], counts, &present, root);
            if (v > best) best = v;
        }
        return best;
    }
    return dot(def->feature_milli, counts, &present, root);
}

const mf_profile_def *mf_profile_get(mf_profile profile)
{
    if ((unsigned)profile >= MF_PROFILE_COUNT) profile = MF_PROFILE_BAREAGENT;
    return &PROFILES[profile];
}

const char *mf_profile_name(mf_profile profile)
{
    return (unsigned)profile < MF_PROFILE_COUNT ? PROFILES[profile].name : NULL;
}

mf_status mf_profile_parse(const char *name, size_t len, mf_profile *out)
{
    if (!name || !out) return MF_ERR_INVALID_ARG;
    for (unsigned i = 0; i < MF_PROFILE_COUNT; i++) {
        const char *p = PROFILES[i].name;
        size_t n = 0;
        while (p[n]) n++;
        if (n == len && memcmp(p, name, len) == 0) {
            *out = (mf_profile)i;
            return MF_OK;
        }
    }
    return MF_ERR_INVALID_ARG;
}

uint64_t mf_ceil_tokens(uint64_t milli) { return milli / MF_MILLI + (milli % MF_MILLI != 0); }

uint64_t mf_measure_text(const char *text, size_t len, mf_profile profile, size_t *code_points)
{
    if (code_points) *code_points = 0;
    if (!text || !len) return 0;
    if (profile != MF_PROFILE_BAREAGENT && (unsigned)profile < MF_PROFILE_COUNT) {
        uint64_t features[MF_FEATURE_COUNT] = {0};
        mf_feature_state st;
        mf_features_begin(&st);
        mf_features_feed(&st, text, len, features);
        mf_features_end(&st, features);
        if (code_points) *code_points = (size_t)code_points_of(features);
        return mf_profile_price(profile, features);
    }
    uint64_t counts[MF_CLASS_COUNT] = {0, 0, 0, 0};
    mf_count_classes(text, len, counts);
    if (code_points) *code_points = (size_t)(counts[0] + counts[1] + counts[2] + counts[3]);
    return mf_price_classes(profile, counts);
}

uint64_t mf_estimate_text(const char *text, size_t len, mf_profile profile)
{
    return mf_measure_text(text, len, profile, NULL);
}

uint64_t mf_price_classes(mf_profile profile, const uint64_t counts[MF_CLASS_COUNT])
{
    const mf_profile_def *def = mf_profile_get(profile);
    uint64_t milli = 0;
    for (int k = 0; k < MF_CLASS_COUNT; k++) milli += counts[k] * def->class_milli[k];
    return milli;
}
