/* test_recall.c — recall ids: HMAC-SHA-256 against RFC 4231's vectors, the id's shape, the
 * marker that names one, and micro-compaction plans with a recall key (the same id for the
 * same result on every plan, another under another key, none and the markers unchanged
 * without a key). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "helpers.h"
#include "internal.h"
#include "suites.h"

static void hex(const uint8_t *mac, char out[65])
{
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", mac[i]);
}

static void hmac_vectors(void)
{
    uint8_t key[131], mac[32];
    char got[65];
    memset(key, 0x0b, 20);
    mf_hmac_sha256(key, 20, "Hi There", 8, mac);
    hex(mac, got);
    CHECK_EQ_STR("RFC 4231 case 1", got, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    mf_hmac_sha256((const uint8_t *)"Jefe", 4, "what do ya want for nothing?", 28, mac);
    hex(mac, got);
    CHECK_EQ_STR("RFC 4231 case 2", got, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    memset(key, 0xaa, 131); /* a key longer than the block is hashed first */
    const char *msg = "Test Using Larger Than Block-Size Key - Hash Key First";
    mf_hmac_sha256(key, 131, msg, strlen(msg), mac);
    hex(mac, got);
    CHECK_EQ_STR("RFC 4231 case 6", got, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

static int id_shaped(const char *id)
{
    if (id[0] != 'r') return 0;
    for (int i = 1; i < MF_RECALL_ID_LEN; i++)
        if (!strchr("0123456789abcdefghjkmnpqrstvwxyz", id[i]) || id[i] == 0) return 0;
    return 1;
}

static void ids(void)
{
    const uint8_t k1[16] = "conversation-one", k2[16] = "conversation-two";
    char a[MF_RECALL_ID_LEN], b[MF_RECALL_ID_LEN], c[MF_RECALL_ID_LEN];
    mf_recall_id(k1, 16, "same bytes", 10, a);
    mf_recall_id(k1, 16, "same bytes", 10, b);
    mf_recall_id(k2, 16, "same bytes", 10, c);
    CHECK("an id is r and 8 base32 characters", id_shaped(a));
    CHECK("the same content under the same key: the same id", memcmp(a, b, MF_RECALL_ID_LEN) == 0);
    CHECK("another conversation's key: another id", memcmp(a, c, MF_RECALL_ID_LEN) != 0);
}

static void marker(void)
{
    mf_buf b;
    mf_buf_init(&b);
    mf_write_marker_recall(&b, "bash", 4, 1204, "r7f3a2b9c", 9);
    CHECK_EQ_MEM("the marker names its id", b.data, b.len, "[truncated: bash result, 1204 chars \xc2\xb7 recall r7f3a2b9c]");
    mf_buf_free(&b);
}

static const char *LOOP =
    "[{\"role\":\"user\",\"content\":\"run the tests\"},"
    "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"bash\",\"input\":{\"command\":\"npm test\"}},"
    "{\"type\":\"tool_use\",\"id\":\"t2\",\"name\":\"read_file\",\"input\":{\"path\":\"README.md\"}}]},"
    "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"> midfold@0.1.0 test\\n> make test\\n\\n"
    "ok 1 - estimate\\nok 2 - serialize\\nok 3 - micro\\n# tests 3\\n# pass 3\\n# fail 0\\n\"},"
    "{\"type\":\"tool_result\",\"tool_use_id\":\"t2\",\"content\":\"# midfold\\n\\n\xe5\xae\xa2\xe6\x88\xb7\xe7\xab\xaf\xe7\x9a\x84\xe4\xb8\x8a\xe4\xb8\x8b\xe6\x96\x87"
    "\xe7\xae\xa1\xe7\x90\x86\xe5\x99\xa8\xef\xbc\x8c a client-side context manager for LLM agents.\"}]},"
    "{\"role\":\"assistant\",\"content\":\"All three tests pass.\"},"
    "{\"role\":\"user\",\"content\":\"thanks\"}]";

static mf_micro_plan *plan_keyed(const uint8_t *key, size_t key_len)
{
    mf_doc *doc = parse(LOOP);
    mf_micro_options o;
    mf_micro_options_init(&o);
    o.keep_recent = 0;
    o.recall_key = key;
    o.recall_key_len = key_len;
    mf_micro_plan *plan = NULL;
    if (doc && mf_doc_micro_plan(doc, MF_FORMAT_AUTO, &o, &plan, NULL) != MF_OK) plan = NULL;
    mf_doc_free(doc);
    return plan;
}

static void plans(void)
{
    const uint8_t key[32] = "a conversation's own 32 bytes...", other[32] = "another conversation's 32 bytes";
    mf_micro_plan *bare = plan_keyed(NULL, 0), *p1 = plan_keyed(key, 32), *p2 = plan_keyed(key, 32),
                  *p3 = plan_keyed(other, 32);
    CHECK("the plans are made", bare && p1 && p2 && p3);
    if (!bare || !p1 || !p2 || !p3) goto done;
    CHECK_EQ_U64("both parallel results are cleared", p1->count, 2);
    CHECK_EQ_U64("as many without a key", bare->count, 2);
    for (size_t i = 0; i < p1->count && i < bare->count; i++) {
        const mf_micro_edit *e = &p1->edits[i], *plain = &bare->edits[i];
        CHECK("without a key no id", plain->recall_id_len == 0);
        CHECK("with a key an id", e->recall_id_len == MF_RECALL_ID_LEN && id_shaped(e->recall_id));
        char want[128];
        int n = snprintf(want, sizeof want, "%.*s \xc2\xb7 recall %.9s]", (int)plain->replacement_len - 1, plain->replacement,
                         e->recall_id);
        CHECK_EQ_MEM("the keyed marker is the plain one naming the id", e->replacement, e->replacement_len, want);
        CHECK("(the marker fits)", n > 0 && (size_t)n < sizeof want);
        CHECK("the same result, the same key: the same id on the next plan",
              memcmp(e->recall_id, p2->edits[i].recall_id, MF_RECALL_ID_LEN) == 0);
        CHECK("another key: another id", memcmp(e->recall_id, p3->edits[i].recall_id, MF_RECALL_ID_LEN) != 0);
    }
    CHECK("two results: two ids", memcmp(p1->edits[0].recall_id, p1->edits[1].recall_id, MF_RECALL_ID_LEN) != 0);
    CHECK("the ids cost what they add", p1->milli_after > bare->milli_after);
done:
    mf_micro_plan_free(bare);
    mf_micro_plan_free(p1);
    mf_micro_plan_free(p2);
    mf_micro_plan_free(p3);
}

static void bad_key(void)
{
    mf_doc *doc = parse(LOOP);
    mf_micro_options o;
    mf_micro_options_init(&o);
    o.recall_key_len = 16;
    mf_micro_plan *plan = NULL;
    mf_error err;
    CHECK("a key length without a key is refused", doc && mf_doc_micro_plan(doc, MF_FORMAT_AUTO, &o, &plan, &err) == MF_ERR_INVALID_ARG);
    CHECK("and no plan is made", plan == NULL);
    mf_doc_free(doc);
}

void test_recall(void)
{
    hmac_vectors();
    ids();
    marker();
    plans();
    bad_key();
}
