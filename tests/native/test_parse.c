/* test_parse.c — reading input: JSON text (errors with their byte position, nesting
 * limits) and the binary tree encoding of src/tree_decode.c (a round trip, and damaged
 * buffers rejected with MF_ERR_PARSE, never a wild read or a huge allocation). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "failing_alloc.h"
#include "fixtures.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

/* Parses `len` bytes and returns the status; *pos receives err.position. Frees the doc. */
static mf_status parse_status(const char *json, size_t len, size_t *pos)
{
    mf_doc *doc = (mf_doc *)1;
    mf_error err;
    memset(&err, 0, sizeof err);
    mf_status st = mf_doc_parse_json(json, len, &doc, &err);
    if (pos) *pos = err.position;
    if (st != MF_OK && (doc != NULL || err.code != st)) return (mf_status)-1; /* a broken contract */
    mf_doc_free(doc);
    return st;
}

#define PARSE_AT(fact, json, at)                                                     \
    do {                                                                             \
        size_t pos_ = 0;                                                             \
        mf_status st_ = parse_status((json), strlen(json), &pos_);                   \
        CHECK(fact, st_ == MF_ERR_PARSE && pos_ == (size_t)(at));                    \
        if (st_ != MF_ERR_PARSE || pos_ != (size_t)(at))                             \
            printf("     status %d, position %zu (expected %zu)\n", st_, pos_, (size_t)(at)); \
    } while (0)

static void json_errors(void)
{
    PARSE_AT("a value missing after a colon is reported at the closing brace", "{\"a\":}", 5);
    PARSE_AT("a trailing comma in a list is reported at the closing bracket", "[1,2,]", 5);
    PARSE_AT("a trailing comma in an object is reported at the closing brace", "{\"a\":1,}", 7);
    PARSE_AT("a missing comma is reported at the second value", "[1 2]", 3);
    PARSE_AT("a missing colon is reported at the value", "{\"a\" 1}", 5);
    PARSE_AT("an extra closing bracket is data after the value", "[1]]", 3);
    PARSE_AT("empty input is reported at byte 0", "", 0);
    PARSE_AT("a second message after the first (a JSONL mix-up) is data after the value",
             "{\"role\": \"user\", \"content\": \"hi\"}\n{\"role\": \"user\", \"content\": \"again\"}", 34);

    PARSE_AT("an escaped NUL in a string (which would cut the string short) is refused at its backslash",
             "[\"a\\u0000b\"]", 3);
    CHECK("an escaped U+0001 is fine", parse_status("[\"a\\u0001b\"]", 12, NULL) == MF_OK);

    const char with_nul[] = "[1]\0";
    size_t pos = 0;
    CHECK("a NUL byte after the value is data after the value, at its own position",
          parse_status(with_nul, 4, &pos) == MF_ERR_PARSE && pos == 3);
    CHECK("whitespace after the value is fine", parse_status("[1] \n\t\r\n", 8, NULL) == MF_OK);
    CHECK("only the given length is read", parse_status("[1]garbage", 3, NULL) == MF_OK);

    mf_error err;
    mf_doc *doc = NULL;
    mf_doc_parse_json("[1 2]", 5, &doc, &err);
    CHECK("the parse error message names the byte", strstr(err.message, "byte 3") != NULL);

    /* A conversation cut off while it streams in: every prefix is rejected, never read past. */
    size_t len = strlen(FX_SEED_ANTHROPIC), bad = 0;
    while (len && (FX_SEED_ANTHROPIC[len - 1] == '\n')) len--;
    for (size_t k = 0; k < len; k++) {
        mf_status st = parse_status(FX_SEED_ANTHROPIC, k, &pos);
        if (st != MF_ERR_PARSE || (k && pos >= k)) bad++;
    }
    CHECK("every prefix of a conversation is MF_ERR_PARSE at a position inside the prefix", bad == 0);

    /* Any one byte of a real conversation changed: a clean status, a position inside. */
    static const char swaps[] = "{}[]\":,\\ 0a-.e\x00\xff";
    size_t n = strlen(FX_SESSION_OPENAI);
    char *copy = malloc(n);
    bad = 0;
    if (copy) {
        for (size_t i = 0; i < n; i += 3) {
            for (size_t k = 0; k < sizeof swaps - 1; k++) {
                memcpy(copy, FX_SESSION_OPENAI, n);
                copy[i] = swaps[k];
                mf_status st = parse_status(copy, n, &pos);
                if (!(st == MF_OK || ((st == MF_ERR_PARSE || st == MF_ERR_DEPTH) && pos < n))) bad++;
            }
        }
    }
    int copied = copy != NULL;
    free(copy);
    CHECK("every one-byte change of a conversation's JSON gives OK or MF_ERR_PARSE inside the text", copied && bad == 0);

    /* The limit is checked before a byte is read, so a short text can stand for a long one. */
    CHECK("JSON over MF_MAX_INPUT_BYTES is MF_ERR_TOO_LARGE",
          parse_status("[]", MF_MAX_INPUT_BYTES + 1, &pos) == MF_ERR_TOO_LARGE);
    CHECK("a NULL text with a length is an invalid argument", parse_status(NULL, 3, &pos) == MF_ERR_INVALID_ARG);
    CHECK("a NULL output pointer is an invalid argument", mf_doc_parse_json("[]", 2, NULL, NULL) == MF_ERR_INVALID_ARG);
}

/* `levels` nested copies of open/close around a null. */
static char *nested(const char *open, const char *close, size_t levels)
{
    size_t no = strlen(open), nc = strlen(close);
    char *s = malloc(levels * (no + nc) + 5);
    if (!s) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < levels; i++) { memcpy(s + n, open, no); n += no; }
    memcpy(s + n, "null", 4); n += 4;
    for (size_t i = 0; i < levels; i++) { memcpy(s + n, close, nc); n += nc; }
    s[n] = 0;
    return s;
}

static void json_depth(void)
{
    char *deep = nested("[", "]", 600);
    size_t pos = 0;
    CHECK("600 nested lists are MF_ERR_DEPTH at the 513th bracket (byte 512)",
          deep && parse_status(deep, strlen(deep), &pos) == MF_ERR_DEPTH && pos == 512);
    free(deep);
    deep = nested("{\"a\":", "}", 600);
    CHECK("600 nested objects are MF_ERR_DEPTH at the 513th brace (byte 2560)",
          deep && parse_status(deep, strlen(deep), &pos) == MF_ERR_DEPTH && pos == 512 * 5);
    free(deep);
    deep = nested("[", "]", 512);
    CHECK("512 nested lists (MF_MAX_DEPTH) parse", deep && parse_status(deep, strlen(deep), NULL) == MF_OK);
    free(deep);
    deep = nested("[", "]", 100000);
    CHECK("100,000 nested lists are MF_ERR_DEPTH, not a stack overflow",
          deep && parse_status(deep, strlen(deep), &pos) == MF_ERR_DEPTH && pos == 512);
    free(deep);

    char brackets[700];
    memset(brackets, 0, sizeof brackets);
    strcpy(brackets, "[\"");
    memset(brackets + 2, '[', 600);
    strcpy(brackets + 602, "\"]");
    CHECK("brackets inside a string are text, not nesting", parse_status(brackets, strlen(brackets), NULL) == MF_OK);
    brackets[2] = '\\';
    brackets[3] = '"';
    CHECK("an escaped quote does not end the string", parse_status(brackets, strlen(brackets), NULL) == MF_OK);
}

static void json_ownership(void)
{
    size_t len = strlen(FX_SEED_ANTHROPIC);
    char *copy = malloc(len);
    if (!CHECK("the test could copy the fixture", copy != NULL)) return;
    memcpy(copy, FX_SEED_ANTHROPIC, len);
    mf_doc *doc = NULL;
    mf_status st = mf_doc_parse_json(copy, len, &doc, NULL);
    memset(copy, 'x', len);
    free(copy);
    char *out = NULL;
    size_t out_len = 0;
    CHECK("a document parsed from JSON does not need the text afterwards",
          st == MF_OK && mf_doc_serialize(doc, MF_FORMAT_AUTO, &out, &out_len, NULL) == MF_OK &&
          out_len == strlen(FX_SEED_TRANSCRIPT) && memcmp(out, FX_SEED_TRANSCRIPT, out_len) == 0);
    mf_free(out);
    mf_doc_free(doc);
    mf_doc_free(NULL); /* documented as fine */
}

/* ---- the binary tree encoding (the encoder is in helpers.c) ---- */

static mf_status tree_status(const void *buf, size_t len, size_t *pos)
{
    mf_doc *doc = (mf_doc *)1;
    mf_error err;
    memset(&err, 0, sizeof err);
    mf_status st = mf_doc_parse_tree(buf, len, &doc, &err);
    if (pos) *pos = err.position;
    if (st != MF_OK && (doc != NULL || err.code != st)) return (mf_status)-1;
    mf_doc_free(doc);
    return st;
}

static void tree_round_trip(const char *name, const char *json, const char *transcript)
{
    char fact[160];
    enc e = tree_encode_json(json);
    mf_doc *doc = NULL;
    mf_status st = e.failed ? MF_ERR_NOMEM : mf_doc_parse_tree(e.data, e.len, &doc, NULL);
    snprintf(fact, sizeof fact, "the %s conversation, tree-encoded, parses", name);
    if (!CHECK(fact, st == MF_OK)) { free(e.data); return; }
    char *out = NULL;
    size_t out_len = 0;
    snprintf(fact, sizeof fact, "the tree-encoded %s conversation has the same transcript as its JSON", name);
    CHECK(fact, mf_doc_serialize(doc, MF_FORMAT_AUTO, &out, &out_len, NULL) == MF_OK &&
                out_len == strlen(transcript) && memcmp(out, transcript, out_len) == 0);
    mf_free(out);
    uint64_t milli = 0;
    snprintf(fact, sizeof fact, "the tree-encoded %s conversation has the same estimate as its JSON", name);
    CHECK(fact, mf_doc_estimate(doc, MF_FORMAT_AUTO, MF_PROFILE_BAREAGENT, &milli, NULL) == MF_OK &&
                milli == estimate_of(json, MF_FORMAT_AUTO));
    snprintf(fact, sizeof fact, "the tree-encoded %s conversation is detected as its JSON is", name);
    mf_doc *from_json = parse(json);
    CHECK(fact, from_json && mf_doc_detect(doc) == mf_doc_detect(from_json));
    mf_doc_free(from_json);
    mf_doc_free(doc);

    /* Every prefix is damage: the decoder must notice, whatever the cut. */
    size_t bad = 0, pos = 0;
    for (size_t k = 0; k < e.len; k++)
        if (tree_status(e.data, k, &pos) != MF_ERR_PARSE || pos > k) bad++;
    snprintf(fact, sizeof fact, "every prefix of the tree-encoded %s conversation is MF_ERR_PARSE", name);
    CHECK(fact, bad == 0);

    /* Any one byte changed: a clean status, never a crash. */
    bad = 0;
    for (size_t i = 0; i < e.len; i++) {
        unsigned char keep = e.data[i];
        static const unsigned char flips[] = {0x00, 0xFF, 0x07, 0x80};
        for (size_t f = 0; f < sizeof flips; f++) {
            e.data[i] = keep ^ flips[f];
            mf_status s = tree_status(e.data, e.len, NULL);
            if (s != MF_OK && s != MF_ERR_PARSE && s != MF_ERR_DEPTH) bad++;
        }
        e.data[i] = keep;
    }
    snprintf(fact, sizeof fact, "every one-byte change of the tree-encoded %s conversation gives OK or MF_ERR_PARSE", name);
    CHECK(fact, bad == 0);
    free(e.data);
}

static void tree_damage(void)
{
    size_t pos = 0;
    CHECK("an empty buffer is MF_ERR_PARSE at byte 0", tree_status("", 0, &pos) == MF_ERR_PARSE && pos == 0);
    CHECK("an unknown tag is MF_ERR_PARSE at its byte", tree_status("\x08", 1, &pos) == MF_ERR_PARSE && pos == 0);
    CHECK("a blob without its byte length is MF_ERR_PARSE", tree_status("\x07\x01\x00", 3, &pos) == MF_ERR_PARSE);
    CHECK("a blob with its byte length is one value", tree_status("\x07\x00\x00\x02\x00", 5, &pos) == MF_OK);
    CHECK("an unknown tag inside a list is reported where it is",
          tree_status("\x05\x02\x00\x00\x00\x00\x09", 7, &pos) == MF_ERR_PARSE && pos == 6);
    CHECK("a byte after the value is MF_ERR_PARSE at that byte",
          tree_status("\x00\x00", 2, &pos) == MF_ERR_PARSE && pos == 1);
    CHECK("a string longer than the buffer is MF_ERR_PARSE",
          tree_status("\x04\xff\xff\xff\x7f" "abc", 8, &pos) == MF_ERR_PARSE && pos <= 8);
    CHECK("a truncated count is MF_ERR_PARSE", tree_status("\x05\x01\x00", 3, NULL) == MF_ERR_PARSE);
    CHECK("a key longer than the buffer is MF_ERR_PARSE",
          tree_status("\x06\x01\x00\x00\x00\xff\x00\x00\x00" "role" "\x00", 14, NULL) == MF_ERR_PARSE);

    fa_reset();
    CHECK("a list claiming 4 billion items is MF_ERR_PARSE",
          tree_status("\x05\xff\xff\xff\xff", 5, &pos) == MF_ERR_PARSE && pos == 5);
    CHECK("... and nothing large was allocated for it", fa_largest_request() < 65536);
    fa_reset();
    CHECK("an object claiming 4 billion members after a few bytes is MF_ERR_PARSE",
          tree_status("\x06\xff\xff\xff\xff\x01\x00\x00\x00" "a" "\x00", 11, NULL) == MF_ERR_PARSE);
    CHECK("... and nothing large was allocated for it", fa_largest_request() < 65536);
    fa_reset();

    CHECK("a NULL buffer with a length is an invalid argument", tree_status(NULL, 4, NULL) == MF_ERR_INVALID_ARG);
    CHECK("a tree encoding over MF_MAX_INPUT_BYTES is MF_ERR_TOO_LARGE",
          tree_status("\x00", MF_MAX_INPUT_BYTES + 1, NULL) == MF_ERR_TOO_LARGE);
    mf_doc *doc = NULL;
    CHECK("a string with invalid UTF-8 is accepted as is",
          mf_doc_parse_tree((const uint8_t *)"\x04\x02\x00\x00\x00\xff\xfe", 7, &doc, NULL) == MF_OK);
    uint64_t milli = 0;
    CHECK("... and estimated as two 'other' code points",
          doc && mf_doc_estimate(doc, MF_FORMAT_AUTO, MF_PROFILE_BAREAGENT, &milli, NULL) == MF_OK && milli == 1000);
    mf_doc_free(doc);
    CHECK("a NULL output pointer is an invalid argument",
          mf_doc_parse_tree((const uint8_t *)"\x00", 1, NULL, NULL) == MF_ERR_INVALID_ARG);

    /* 600 nested lists: 5 bytes each (tag and count), a null inside. */
    enc e = {NULL, 0, 0, 0};
    for (int i = 0; i < 600; i++) { enc_u8(&e, 5); enc_u32(&e, 1); }
    enc_u8(&e, 0);
    CHECK("600 nested lists are MF_ERR_DEPTH at the 513th list's tag (byte 2560)",
          !e.failed && tree_status(e.data, e.len, &pos) == MF_ERR_DEPTH && pos == 512 * 5);
    free(e.data);
    e = (enc){NULL, 0, 0, 0};
    for (int i = 0; i < 512; i++) { enc_u8(&e, 5); enc_u32(&e, 1); }
    enc_u8(&e, 0);
    CHECK("512 nested lists (MF_MAX_DEPTH) decode", !e.failed && tree_status(e.data, e.len, NULL) == MF_OK);
    free(e.data);

    /* Random bytes: whatever they say, a clean status. */
    uint32_t seed = 12345;
    size_t bad = 0;
    unsigned char junk[64];
    for (int round = 0; round < 20000; round++) {
        size_t n = 1 + round % sizeof junk;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned char b = (unsigned char)(seed >> 16);
            /* Mostly small values so tags and counts are often plausible. */
            junk[i] = (seed >> 8) & 1 ? (unsigned char)(b % 8) : b;
        }
        mf_status s = tree_status(junk, n, NULL);
        if (s != MF_OK && s != MF_ERR_PARSE && s != MF_ERR_DEPTH) bad++;
    }
    CHECK("20,000 random buffers each give OK, MF_ERR_PARSE or MF_ERR_DEPTH", bad == 0);
}

void test_parse(void)
{
    json_errors();
    json_depth();
    json_ownership();
    tree_round_trip("seed", FX_SEED_ANTHROPIC, FX_SEED_TRANSCRIPT);
    tree_round_trip("OpenAI session", FX_SESSION_OPENAI, FX_SESSION_TRANSCRIPT);
    tree_round_trip("AI SDK session", FX_SESSION_AISDK, FX_SESSION_TRANSCRIPT);
    tree_round_trip("Chinese", FX_CHINESE_ANTHROPIC, FX_CHINESE_TRANSCRIPT);
    tree_damage();
}
