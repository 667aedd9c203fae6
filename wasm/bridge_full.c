/* bridge_full.c — the exports only wasm/midfold.wasm has: validation and the model-free
 * digest. wasm/midfold-lite.wasm, what a browser page fetches by default, leaves them out:
 * together they are a third of the module (about 20 KB gzipped), and a page that
 * estimates and compacts with a model's summary needs neither (docs/download.md).
 * The ownership rules are bridge_common.h's. */
#include <string.h>

#include "bridge_common.h"

/* Validates; the report is JSON text:
 *   {"format":"anthropic","problems":[{"code":"...","message":3,"part":0,"text":"..."}]}
 * with "part" -1 when the problem is about the whole message, and "warning":true on a
 * problem that does not make the conversation invalid. */
EXPORT int mfw_doc_validate(const mf_doc *doc, int format, char **out_ptr, size_t *out_len, mfw_error *e)
{
    mf_error err;
    mf_validation *v = NULL;
    mf_status st = mf_doc_validate(doc, (mf_format)format, &v, &err);
    if (st) return report(e, &err, st);
    mf_buf b;
    mf_buf_init(&b);
    mf_buf_puts(&b, "{\"format\":\"");
    mf_buf_puts(&b, mf_format_name(v->format));
    mf_buf_puts(&b, "\",\"problems\":[");
    for (size_t i = 0; i < v->count; i++) {
        const mf_problem *p = &v->problems[i];
        if (i) mf_buf_putc(&b, ',');
        mf_buf_puts(&b, "{\"code\":\"");
        mf_buf_puts(&b, mf_problem_name(p->code));
        mf_buf_puts(&b, "\",\"message\":");
        mf_buf_put_uint(&b, p->message);
        mf_buf_puts(&b, ",\"part\":");
        if (p->part == SIZE_MAX) mf_buf_puts(&b, "-1");
        else mf_buf_put_uint(&b, p->part);
        mf_buf_puts(&b, ",\"text\":");
        mf_buf_put_json_string(&b, p->text, strlen(p->text));
        if (p->severity == MF_SEVERITY_WARNING) mf_buf_puts(&b, ",\"warning\":true");
        mf_buf_putc(&b, '}');
    }
    mf_buf_puts(&b, "]}");
    mf_validation_free(v);
    return report(e, &err, mf_buf_finish(&b, out_ptr, out_len, &err));
}

/* The model-free digest of a conversation, as UTF-8 text at *out_ptr. */
EXPORT int mfw_doc_digest(const mf_doc *doc, int format, uint32_t max_tokens, int language, int profile,
                          char **out_ptr, size_t *out_len, mfw_error *e)
{
    mf_error err;
    return report(e, &err, mf_doc_digest(doc, (mf_format)format, max_tokens, (mf_language)language,
                                         (mf_profile)profile, out_ptr, out_len, &err));
}
