/* digest.c — a summary written without a model, for when none is configured (the demo,
 * the CLI) or as a fallback: deterministic, offline, and built only from what the
 * conversation says. The conversation is read into facts (digest_read.c) and the facts are
 * written as the lines worth most within the token budget (digest_write.c, digest_budget.c). */
#include "digest_read.h"
#include "digest_write.h"
#include "prompt.h"
#include "view.h"

#include <string.h>

mf_status mf_doc_digest(const mf_doc *doc, mf_format format, uint32_t max_tokens, mf_language language,
                        mf_profile profile, char **out, size_t *out_len, mf_error *err)
{
    if (!out) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "NULL output pointer");
    *out = NULL;
    if ((unsigned)profile >= MF_PROFILE_COUNT) return mf_fail(err, MF_ERR_INVALID_ARG, SIZE_MAX, "unknown profile");
    mf_view view;
    mf_status st = mf_view_build(doc, format, &view, err);
    if (st) return st;
    mf_digest_facts *d = mf_alloc(sizeof *d);
    if (!d) { mf_view_free(&view); return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory"); }
    memset(d, 0, sizeof *d);
    mf_arena_init(&d->arena);
    mf_digest_read(d, &view);
    bool zh = (language == MF_LANG_AUTO ? mf_detect_language(&view) : language) == MF_LANG_ZH;
    mf_buf b;
    mf_buf_init(&b);
    if (!d->failed) mf_digest_write(&b, d, max_tokens ? max_tokens : 2000, profile, zh);
    bool failed = d->failed || b.failed;
    mf_arena_free(&d->arena);
    mf_dealloc(d);
    mf_view_free(&view);
    if (failed) {
        mf_buf_free(&b);
        return mf_fail(err, MF_ERR_NOMEM, SIZE_MAX, "out of memory while writing the digest");
    }
    return mf_buf_finish(&b, out, out_len, err);
}
