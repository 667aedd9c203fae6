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

#include <string.h>

static const mf_profile_def PROFILES[MF_PROFILE_COUNT] = {
    [MF_PROFILE_BAREAGENT] = {
        .name = "bareagent",
        .class_milli = {[MF_CLASS_CJK] = 1500, [MF_CLASS_ALNUM] = 250,
                        [MF_CLASS_SPACE] = 250, [MF_CLASS_OTHER] = 500},
        .message_milli = 4000,
        .tool_call_milli = 0,
        .image_milli = 1600000,
        .document_milli = 3000000,
    },
};

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

uint64_t mf_estimate_text(const char *text, size_t len, mf_profile profile)
{
    if (!text || !len) return 0;
    uint64_t counts[MF_CLASS_COUNT] = {0, 0, 0, 0};
    mf_count_classes(text, len, counts);
    const mf_profile_def *def = mf_profile_get(profile);
    uint64_t milli = 0;
    for (int k = 0; k < MF_CLASS_COUNT; k++) milli += counts[k] * def->class_milli[k];
    return milli;
}
