/* fuzz_json.c — JSON text: mf_doc_parse_json, mf_doc_detect and mf_doc_estimate.
 *
 * Invariants:
 * - a failed parse returns no document and a parse, depth or size error whose message
 *   is set and whose position (for parse errors) lies inside the input;
 * - estimating with an explicit format the library takes never fails (any value has an
 *   estimate); every other mf_format value (a reserved format without its adapter yet,
 *   UNKNOWN, 7) is refused as an invalid argument for a conversation; and
 *   with AUTO it fails only with "unknown format" when detection says so; an AUTO
 *   estimate equals the estimate in the detected format;
 * - the document survives a round trip through the tree encoding the JS wrapper uses:
 *   the re-parsed document is detected, estimated and serialized exactly alike;
 * - the input re-printed as an OpenAI arguments string (mf_write_json_text, the one-pass
 *   json_reprint.c the wasm module links) gives the same bytes as through cJSON
 *   (mf_json_to_tree, then mf_write_json), valid JSON or not. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

static void check_error(mf_status st, const mf_error *err, size_t size)
{
    CHECK(st == MF_ERR_PARSE || st == MF_ERR_DEPTH || st == MF_ERR_TOO_LARGE, "status %d", st);
    CHECK(err->code == st, "err.code %d, status %d", err->code, st);
    CHECK(err->message[0] != 0, "empty error message");
    CHECK(memchr(err->message, 0, sizeof err->message) != NULL, "message not terminated");
    if (st == MF_ERR_PARSE || st == MF_ERR_DEPTH)
        CHECK(err->position <= size, "position %zu past the input (%zu bytes)", err->position, size);
}

typedef struct facts {
    mf_format detected;
    mf_status est_status[FUZZ_FORMAT_VALUES];
    uint64_t est[FUZZ_FORMAT_VALUES];
    mf_status ser_status;
    char *transcript;
    size_t transcript_len;
} facts;

static void gather(const mf_doc *doc, facts *f)
{
    mf_error err;
    f->detected = mf_doc_detect(doc);
    for (int k = 0; k < FUZZ_FORMAT_VALUES; k++) {
        f->est[k] = 0;
        f->est_status[k] = mf_doc_estimate(doc, k, MF_PROFILE_BAREAGENT, &f->est[k], &err);
    }
    f->transcript = NULL;
    f->transcript_len = 0;
    f->ser_status = mf_doc_serialize(doc, MF_FORMAT_AUTO, &f->transcript, &f->transcript_len, &err);
}

/* The arguments string re-printed both ways (the cJSON way is json_reprint.c's reference). */
static void check_reprint(const char *json, size_t len)
{
    mf_buf a, b;
    mf_buf_init(&a);
    mf_buf_init(&b);
    mf_write_json_text(&a, json, len);
    mf_arena arena;
    mf_arena_init(&arena);
    mf_node *root = NULL;
    void *owner = NULL;
    mf_status st = len ? mf_json_to_tree(&arena, json, len, &root, &owner, NULL) : MF_ERR_PARSE;
    if (st == MF_OK) mf_write_json(&b, root);
    else if (st == MF_ERR_NOMEM) b.failed = true;
    else if (len) mf_buf_put_utf8(&b, json, len);
    else mf_buf_puts(&b, "{}");
    CHECK(a.failed == b.failed && a.len == b.len && (!a.len || memcmp(a.data, b.data, a.len) == 0),
          "arguments re-printed differently in one pass (%zu bytes) and through cJSON (%zu bytes)", a.len, b.len);
    mf_json_owner_free(owner);
    mf_arena_free(&arena);
    mf_buf_free(&a);
    mf_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_reprint((const char *)data, size);
    mf_doc *doc = (mf_doc *)1;
    mf_error err;
    memset(&err, 0, sizeof err);
    mf_status st = mf_doc_parse_json((const char *)data, size, &doc, &err);
    if (st) {
        CHECK(doc == NULL, "a failed parse left a document");
        check_error(st, &err, size);
        return 0;
    }
    CHECK(doc && doc->root, "no document");

    facts a;
    gather(doc, &a);
    bool conversation = mf_doc_is_conversation(doc, NULL);
    for (int k = 1; k < FUZZ_FORMAT_VALUES; k++) {
        if (conversation && !fuzz_format_supported((mf_format)k))
            CHECK(a.est_status[k] == MF_ERR_INVALID_ARG || a.est_status[k] == MF_ERR_TOO_LARGE,
                  "estimate in format %d, which the library does not take: %d", k, a.est_status[k]);
        else
            CHECK(a.est_status[k] == MF_OK, "estimate in format %d failed with %d", k, a.est_status[k]);
    }
    if (a.detected == MF_FORMAT_UNKNOWN) {
        CHECK(a.est_status[0] == MF_OK || a.est_status[0] == MF_ERR_FORMAT, "AUTO estimate: %d", a.est_status[0]);
        if (a.est_status[0] == MF_ERR_FORMAT) CHECK(mf_doc_is_conversation(doc, NULL), "format error on a non-conversation");
    } else {
        CHECK(a.est_status[0] == MF_OK, "AUTO estimate failed (%d) though detection gave %d", a.est_status[0], a.detected);
        CHECK(a.est[0] == a.est[a.detected], "AUTO estimate %llu != %llu in the detected format",
              (unsigned long long)a.est[0], (unsigned long long)a.est[a.detected]);
    }

    /* Round trip through the tree encoding. */
    mf_buf b;
    mf_buf_init(&b);
    fuzz_encode_tree(&b, doc->root);
    CHECK(!b.failed, "encoding failed");
    mf_doc *doc2 = NULL;
    st = mf_doc_parse_tree((const uint8_t *)b.data, b.len, &doc2, &err);
    CHECK(st == MF_OK, "tree re-parse failed: %d %s", st, err.message);
    facts t;
    gather(doc2, &t);
    CHECK(a.detected == t.detected, "detect %d vs %d", a.detected, t.detected);
    for (int k = 0; k < FUZZ_FORMAT_VALUES; k++) {
        CHECK(a.est_status[k] == t.est_status[k], "format %d: status %d vs %d", k, a.est_status[k], t.est_status[k]);
        CHECK(a.est[k] == t.est[k], "format %d: estimate %llu vs %llu", k, (unsigned long long)a.est[k],
              (unsigned long long)t.est[k]);
    }
    CHECK(a.ser_status == t.ser_status, "serialize status %d vs %d", a.ser_status, t.ser_status);
    CHECK(a.transcript_len == t.transcript_len &&
              (!a.transcript_len || memcmp(a.transcript, t.transcript, a.transcript_len) == 0),
          "transcripts differ (%zu vs %zu bytes)", a.transcript_len, t.transcript_len);
    mf_free(a.transcript);
    mf_free(t.transcript);
    mf_doc_free(doc2);
    mf_buf_free(&b);
    mf_doc_free(doc);
    return 0;
}
