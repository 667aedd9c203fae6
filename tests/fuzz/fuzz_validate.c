/* fuzz_validate.c — mf_doc_validate on JSON or tree input (flag byte, see common.h).
 *
 * Invariants:
 * - validation itself never fails on a parsed document (bad shapes and mixed formats are
 *   findings, not errors);
 * - every problem names a message index < the number of messages (a value that is no
 *   list of messages gives exactly one problem, at index 0), problems come in message
 *   order, a part index (when not SIZE_MAX) points into that message's content or
 *   tool_calls list, codes are known and texts are non-empty valid UTF-8;
 * - the report's format is the one asked for, or the detected one for AUTO. */
#include <string.h>

#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    if (!fuzz_load(data, size, 0, &in)) return 0;
    mf_doc *doc = in.parsed;
    mf_error err;

    mf_validation *v = NULL;
    mf_status st = mf_doc_validate(doc, in.format, &v, &err);
    const mf_node *msgs = doc->messages;
    bool conversation = mf_doc_is_conversation(doc, NULL);
    bool supported = fuzz_format_supported(in.format);
    if (conversation && !supported) {
        fuzz_check_format_refused(st, &err, in.format, "validate");
        CHECK(v == NULL, "report left on failure");
        fuzz_release(&in);
        return 0;
    }
    CHECK(st == MF_OK, "validate failed: %d %s", st, err.message);
    if (!msgs) CHECK(v->count == 1 && v->problems[0].message == 0, "no list: %zu problems", v->count);
    if (!conversation) CHECK(v->count >= 1, "a non-conversation validates clean");
    if (in.format != MF_FORMAT_AUTO && supported) CHECK(v->format == in.format, "report format %d, asked %d", v->format, in.format);
    else if (conversation) CHECK(v->format == mf_doc_detect(doc), "report format %d, detected %d", v->format, mf_doc_detect(doc));
    for (size_t i = 0; i < v->count; i++) {
        const mf_problem *p = &v->problems[i];
        CHECK(p->code >= MF_PROBLEM_NOT_A_MESSAGE && p->code <= MF_PROBLEM_CONSECUTIVE_ROLE, "code %d", p->code);
        CHECK(strcmp(mf_problem_name(p->code), "unknown") != 0, "unnamed code %d", p->code);
        CHECK(p->text && p->text[0], "problem %zu has no text", i);
        CHECK(fuzz_utf8_valid(p->text, strlen(p->text)), "problem text not UTF-8: %s", p->text);
        if (i) CHECK(p->message >= v->problems[i - 1].message, "problems out of order at %zu", i);
        if (msgs) {
            CHECK(p->message < msgs->count, "message %zu of %u", p->message, msgs->count);
            if (p->part != SIZE_MAX) {
                const mf_node *msg = &msgs->items[p->message];
                const mf_node *calls = mf_get(msg, "tool_calls");
                size_t ncalls = calls && calls->kind == MF_ARRAY ? calls->count : 0;
                size_t ncontent = fuzz_content_count(msg);
                CHECK(p->part < ncontent || p->part < ncalls, "part %zu of message %zu (content %zu, calls %zu)",
                      p->part, p->message, ncontent, ncalls);
            }
        }
    }
    /* The same answer twice. */
    mf_validation *again = NULL;
    CHECK(mf_doc_validate(doc, in.format, &again, &err) == MF_OK && again->count == v->count, "second report differs");
    mf_validation_free(again);
    mf_validation_free(v);
    fuzz_release(&in);
    return 0;
}
