/* fuzz_serialize.c — mf_doc_serialize on JSON or tree input (flag byte, see common.h).
 *
 * Invariants:
 * - the transcript is valid UTF-8 (invalid input bytes become U+FFFD), NUL-terminated
 *   at out_len, and the same on a second call;
 * - with AUTO it equals the transcript in the detected format;
 * - it fails only with "invalid shape" (exactly when the value is no conversation) or,
 *   with AUTO, "unknown format" (exactly when detection says the formats are mixed);
 * - no closing transcript tag survives in it: no "<", "/" and "transcript" (any case,
 *   ASCII spaces, tabs and line breaks between them), whatever the content says (a
 *   reading independent of the door's own tables, which also catch look-alikes). */
#include <string.h>

#include "common.h"

static bool ascii_space(unsigned char c) { return c == ' ' || c == '\t' || (c >= '\n' && c <= '\r'); }

/* The offset of the first closing transcript tag in t, or len when there is none. */
static size_t closing_tag_at(const char *t, size_t len)
{
    static const char word[] = "transcript";
    for (size_t i = 0; i < len; i++) {
        if (t[i] != '<') continue;
        size_t j = i + 1;
        while (j < len && ascii_space((unsigned char)t[j])) j++;
        if (j >= len || t[j] != '/') continue;
        for (j++; j < len && ascii_space((unsigned char)t[j]); j++) {}
        size_t k = 0;
        for (; k < sizeof word - 1 && j + k < len && (t[j + k] | 0x20) == word[k]; k++) {}
        if (k == sizeof word - 1) return i;
    }
    return len;
}

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
        size_t tag = closing_tag_at(out, len);
        CHECK(tag == len, "a closing transcript tag at byte %zu: %.40s", tag, out + (tag < len ? tag : 0));
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
