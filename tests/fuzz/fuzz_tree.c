/* fuzz_tree.c — the binary tree decoder (mf_doc_parse_tree) on raw bytes, then
 * detection and estimation of what it decodes.
 *
 * Invariants:
 * - damage is a parse or depth error with a position inside the buffer, never a read
 *   outside it (the buffer is an exact-size heap copy, so ASan sees any over-read);
 * - the encoding is canonical: a decoded document re-encodes to exactly the input;
 * - estimating in an explicit format never fails; AUTO agrees with the detected format. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) abort();
    if (size) memcpy(buf, data, size);
    mf_doc *doc = (mf_doc *)1;
    mf_error err;
    memset(&err, 0, sizeof err);
    mf_status st = mf_doc_parse_tree(buf, size, &doc, &err);
    if (st) {
        CHECK(doc == NULL, "a failed parse left a document");
        CHECK(st == MF_ERR_PARSE || st == MF_ERR_DEPTH, "status %d", st);
        CHECK(err.code == st && err.message[0], "error record not filled");
        CHECK(err.position <= size, "position %zu of %zu", err.position, size);
        free(buf);
        return 0;
    }
    mf_buf b;
    mf_buf_init(&b);
    fuzz_encode_tree(&b, doc->root);
    CHECK(!b.failed && b.len == size && memcmp(b.data, data, size) == 0,
          "re-encoding differs from the input (%zu vs %zu bytes)", b.len, size);
    mf_buf_free(&b);

    mf_format detected = mf_doc_detect(doc);
    uint64_t est[FUZZ_FORMAT_SLOTS] = {0};
    mf_status est_st[FUZZ_FORMAT_SLOTS];
    est_st[0] = mf_doc_estimate(doc, MF_FORMAT_AUTO, MF_PROFILE_BAREAGENT, &est[0], &err);
    for (size_t i = 0; i < FUZZ_EXPLICIT_COUNT; i++) {
        int k = (int)FUZZ_EXPLICIT[i];
        est_st[k] = mf_doc_estimate(doc, (mf_format)k, MF_PROFILE_BAREAGENT, &est[k], &err);
        CHECK(est_st[k] == MF_OK, "estimate in format %d: %d", k, est_st[k]);
    }
    if (detected != MF_FORMAT_UNKNOWN)
        CHECK(est_st[0] == MF_OK && est[0] == est[detected], "AUTO estimate disagrees with format %d", detected);
    else
        CHECK(est_st[0] == MF_OK || est_st[0] == MF_ERR_FORMAT, "AUTO estimate status %d", est_st[0]);
    mf_doc_free(doc);
    free(buf);
    return 0;
}
