/* bridge.c — the estimator's exports (prefix mfw_): the core's API in the shape the JS
 * wrapper calls it, with (pointer, length) arguments in linear memory. Every main module
 * links it: wasm/midfold-estimate.wasm (the browser's initEstimator()) is this file alone;
 * wasm/midfold-lite.wasm (the browser's init()) adds bridge_compact.c's exports (the
 * transcript, micro-compaction, the compaction plan); wasm/midfold.wasm adds
 * bridge_full.c's too (validate, the digest). The memory tool is a module of its own
 * (bridge_memory.c), so a page that never uses it never downloads it. The ownership rules
 * across the boundary are in bridge_common.h. */
#include <stdint.h>
#include <string.h>

#include "bridge_common.h"
#include "../src/profiles.h"
#include "../src/text_features.h"

/* The estimate of UTF-8 text in milli-tokens (exact as a double below 2^53). */
EXPORT double mfw_estimate_text(const char *text, size_t len, int profile)
{
    return (double)mf_estimate_text(text, len, (mf_profile)profile);
}

/* Long strings arrive in pieces (split between code points); a fitted profile's runs
 * must not close at a piece boundary, so the feature pass carries over between calls.
 * `flags`: 1 = the first piece, 2 = the last. Returns the estimate in milli-tokens of
 * the whole text on the last piece, 0 before it. */
static mf_feature_state piece_state;
static uint64_t piece_features[MF_FEATURE_COUNT];
static uint64_t piece_milli;

EXPORT double mfw_estimate_text_piece(const char *text, size_t len, int profile, int flags)
{
    if (profile == MF_PROFILE_BAREAGENT || (unsigned)profile >= MF_PROFILE_COUNT) {
        if (flags & 1) piece_milli = 0;
        piece_milli += mf_estimate_text(text, len, (mf_profile)profile);
        return flags & 2 ? (double)piece_milli : 0.0;
    }
    if (flags & 1) {
        mf_features_begin(&piece_state);
        memset(piece_features, 0, sizeof piece_features);
    }
    mf_features_feed(&piece_state, text, len, piece_features);
    if (!(flags & 2)) return 0.0;
    mf_features_end(&piece_state, piece_features);
    return (double)mf_profile_price((mf_profile)profile, piece_features);
}

/* Code points in UTF-8 text. */
EXPORT size_t mfw_count_code_points(const char *text, size_t len) { return mf_count_code_points(text, len); }

/* Parses the tree encoding at buf into a document, stored at *out. */
EXPORT int mfw_doc_parse(const uint8_t *buf, size_t len, mf_doc **out, mfw_error *e)
{
    mf_error err;
    return report(e, &err, mf_doc_parse_tree(buf, len, out, &err));
}

/* Frees a document from mfw_doc_parse. */
EXPORT void mfw_doc_free(mf_doc *doc) { mf_doc_free(doc); }

/* The detected format (mf_format), MF_FORMAT_UNKNOWN for no conversation. Not a status. */
EXPORT int mfw_doc_detect(const mf_doc *doc) { return (int)mf_doc_detect(doc); }

/* The document's estimate in milli-tokens, stored at *out. */
EXPORT int mfw_doc_estimate(const mf_doc *doc, int format, int profile, double *out, mfw_error *e)
{
    mf_error err;
    uint64_t milli = 0;
    mf_status st = mf_doc_estimate(doc, (mf_format)format, (mf_profile)profile, &milli, &err);
    *out = (double)milli;
    return report(e, &err, st);
}

/* Per message m of the document's `count` messages, three figures at out[3m..3m+3) (the
 * caller owns `out`): mf_doc_estimate_each's milli, results and flags, as doubles. A caller
 * keeps them per message and estimates only what is new (js/core/estimate-cache.js). */
EXPORT int mfw_doc_estimate_each(const mf_doc *doc, int format, int profile, double *out, uint32_t count, mfw_error *e)
{
    mf_error err;
    mf_msg_figures *figures = count ? mf_alloc(count * sizeof *figures) : NULL;
    if (count && !figures) return report(e, &err, mf_fail(&err, MF_ERR_NOMEM, SIZE_MAX, "out of memory"));
    mf_status st = mf_doc_estimate_each(doc, (mf_format)format, (mf_profile)profile, figures, count, &err);
    for (uint32_t m = 0; !st && m < count; m++) {
        out[3 * m] = (double)figures[m].milli;
        out[3 * m + 1] = (double)figures[m].results;
        out[3 * m + 2] = (double)figures[m].flags;
    }
    mf_dealloc(figures);
    return report(e, &err, st);
}
