/* fuzz_json.c — JSON text: mf_doc_parse_json, mf_doc_detect and mf_doc_estimate.
 *
 * Invariants:
 * - a failed parse returns no document and a parse, depth or size error whose message
 *   is set and whose position (for parse errors) lies inside the input;
 * - estimating with an explicit format never fails (any value has an estimate), and
 *   with AUTO it fails only with "unknown format" when detection says so; an AUTO
 *   estimate equals the estimate in the detected format;
 * - the document survives a round trip through the tree encoding the JS wrapper uses:
 *   the re-parsed document is detected, estimated and serialized exactly alike. */
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
    mf_status est_status[FUZZ_FORMAT_SLOTS];
    uint64_t est[FUZZ_FORMAT_SLOTS];
    mf_status ser_status;
    char *transcript;
    size_t transcript_len;
} facts;

static void gather(const mf_doc *doc, facts *f)
{
    mf_error err;
    f->detected = mf_doc_detect(doc);
    for (size_t i = 0; i <= FUZZ_EXPLICIT_COUNT; i++) {
        int k = i ? (int)FUZZ_EXPLICIT[i - 1] : MF_FORMAT_AUTO;
        f->est[k] = 0;
        f->est_status[k] = mf_doc_estimate(doc, (mf_format)k, MF_PROFILE_BAREAGENT, &f->est[k], &err);
    }
    f->transcript = NULL;
    f->transcript_len = 0;
    f->ser_status = mf_doc_serialize(doc, MF_FORMAT_AUTO, &f->transcript, &f->transcript_len, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
    for (size_t i = 0; i < FUZZ_EXPLICIT_COUNT; i++) {
        int k = (int)FUZZ_EXPLICIT[i];
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
    for (size_t i = 0; i <= FUZZ_EXPLICIT_COUNT; i++) {
        int k = i ? (int)FUZZ_EXPLICIT[i - 1] : MF_FORMAT_AUTO;
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
