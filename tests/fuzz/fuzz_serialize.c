/* fuzz_serialize.c — mf_doc_serialize on JSON or tree input (flag byte, see common.h).
 *
 * Invariants:
 * - the transcript is valid UTF-8 (invalid input bytes become U+FFFD), NUL-terminated
 *   at out_len, and the same on a second call;
 * - with AUTO it equals the transcript in the detected format;
 * - it fails only with "invalid shape" (exactly when the value is no conversation) or,
 *   with AUTO, "unknown format" (exactly when detection says the formats are mixed). */
#include <string.h>

#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    if (!fuzz_load(data, size, 0, &in)) return 0;
    mf_doc *doc = in.parsed;
    mf_error err;

    char *out = NULL;
    size_t len = 0;
    mf_status st = mf_doc_serialize(doc, in.format, &out, &len, &err);
    bool conversation = mf_doc_is_conversation(doc, NULL);
    mf_format detected = mf_doc_detect(doc);
    if (conversation && !fuzz_format_supported(in.format)) {
        fuzz_check_format_refused(st, &err, in.format, "serialize");
        CHECK(out == NULL, "output left on failure");
    } else if (st) {
        CHECK(out == NULL, "output left on failure");
        CHECK(err.code == st && err.message[0], "error record not filled");
        if (st == MF_ERR_SHAPE) CHECK(!conversation, "shape error on a conversation");
        else if (st == MF_ERR_FORMAT) CHECK(in.format == MF_FORMAT_AUTO && detected == MF_FORMAT_UNKNOWN, "format error");
        else CHECK(0, "unexpected status %d (%s)", st, err.message);
    } else {
        CHECK(conversation, "a transcript of a non-conversation");
        CHECK(out && out[len] == 0, "not NUL-terminated at out_len");
        CHECK(fuzz_utf8_valid(out, len), "transcript is not valid UTF-8 (%zu bytes)", len);
        char *again = NULL;
        size_t again_len = 0;
        mf_format fmt = fuzz_effective_format(doc, in.format);
        CHECK(mf_doc_serialize(doc, fmt, &again, &again_len, &err) == MF_OK, "serialize in format %d failed", fmt);
        CHECK(again_len == len && memcmp(again, out, len) == 0, "transcript differs between calls / AUTO and %d", fmt);
        mf_free(again);
    }
    mf_free(out);
    fuzz_release(&in);
    return 0;
}
