/* test_json_reprint.c — json_reprint.c (OpenAI arguments re-printed in one pass, the path
 * the wasm module links) against the cJSON path it replaced (mf_json_to_tree, then
 * mf_write_json): the same bytes out for valid texts written to reach every rule, and for
 * ~60,000 seeded mutations of them (flipped, inserted, deleted and cut bytes), which are
 * mostly not JSON — invalid text must be shown as it is by both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "internal.h"
#include "suites.h"

/* The cJSON path, as mf_write_json_text was written before json_reprint.c. */
static void through_cjson(mf_buf *b, const char *json, size_t len)
{
    mf_arena arena;
    mf_arena_init(&arena);
    mf_node *root = NULL;
    void *owner = NULL;
    mf_status st = len ? mf_json_to_tree(&arena, json, len, &root, &owner, NULL) : MF_ERR_PARSE;
    if (st == MF_OK) mf_write_json(b, root);
    else if (st == MF_ERR_NOMEM) b->failed = true;
    else if (len) mf_buf_put_utf8(b, json, len);
    else mf_buf_puts(b, "{}");
    mf_json_owner_free(owner);
    mf_arena_free(&arena);
}

static int mismatches;

/* Checks one text; prints the first few differences in full. */
static int same(const char *json, size_t len)
{
    mf_buf a, b;
    mf_buf_init(&a);
    mf_buf_init(&b);
    mf_buf_puts(&a, "prefix:"); /* re-printing appends after what the buffer holds */
    mf_buf_puts(&b, "prefix:");
    mf_write_json_text(&a, json, len);
    through_cjson(&b, json, len);
    int ok = a.failed == b.failed && a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
    if (!ok && mismatches++ < 5) {
        printf("  re-print differs for %zu bytes: ", len);
        fwrite(json, 1, len, stdout);
        printf("\n    one pass: %.*s\n    cJSON:    %.*s\n", (int)a.len, a.data ? a.data : "", (int)b.len, b.data ? b.data : "");
    }
    mf_buf_free(&a);
    mf_buf_free(&b);
    return ok;
}

#define SAME(fact, lit) CHECK(fact, same(lit, sizeof lit - 1))

static const char *const CORPUS[] = {
    "{\"pattern\":\"TODO\",\"path\":\"src\"}",
    "{ \"a\" : [ 1 , 2.5 , -3e2 , 0.000001 , 1e-7 , 123456789012345678 , 1.5E+300 , -0 ] }",
    "{\"n\":[0.1,0.2,0.30000000000000004,1e22,1e23,9007199254740993,2.2250738585072014e-308,5e-324,1e400,-1e400]}",
    "{\"s\":\"tab\\tnl\\ncr\\rbs\\\\q\\\"sl\\/b\\bf\\f\"}",
    "{\"u\":\"\\u00e9\\u4e2d\\uD83D\\uDE00\\u0041\\u001f\\u007f\"}",
    "{\"raw\":\"caf\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80\",\"bad\":\"\xff\xfe\xc3\"}",
    "[true,false,null,{},[],[{}],{\"\":\"\"}]",
    "\t\n\r {\"lead\":1}\n\t \r",
    "\xEF\xBB\xBF{\"bom\":true}",
    "{\"dup\":1,\"dup\":2}",
    "\"a lone string\"",
    "42",
    "-1.25e-3",
    "{\"ctrl\":\"raw\x01\x1f\tbytes\"}",
    "\x01\x02{\"low\":[\x03 1 \x1f]}",
    "{\"cut\":\"before\\u00zzafter\",\"k\\uzzzzey\":1}",
    "{\"path\": \"sr",
    "{\"a\":1,}",
    "[1 2]",
    "{\"a\" 1}",
    "01",
    "1.",
    "-.5",
    "1e5e",
    "[1-2]",
    "+1",
    "{\"lone\":\"\\ud800\"}",
    "{\"low\":\"\\udc00\"}",
    "{\"pair\":\"\\ud800\\u0041\"}",
    "{\"nul\":\"\\u0000\"}",
    "{\"nul\":\"\\u\\u0000\"}",
    "{\"esc\":\"\\x\"}",
    "nul",
    "tru",
    "{\"a\":1} x",
    "{\"a\":1}\x01",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    "{\"deep\":{\"er\":{\"est\":[{\"x\":[[[\"y\"]]]}]}}}",
    "{\"long\":123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890}",
};

static uint32_t next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Nesting at and just past MF_MAX_DEPTH, and a text that runs out inside it. */
static void depth_cases(void)
{
    for (size_t depth = MF_MAX_DEPTH - 1; depth <= MF_MAX_DEPTH + 1; depth++) {
        char *t = malloc(2 * depth + 2);
        if (!t) return;
        memset(t, '[', depth);
        t[depth] = '7';
        memset(t + depth + 1, ']', depth);
        CHECK("nesting up to MF_MAX_DEPTH is re-printed, deeper is shown as it is, as through cJSON", same(t, 2 * depth + 1));
        CHECK("a text cut inside deep nesting is shown as it is, as through cJSON", same(t, depth + 1));
        free(t);
    }
}

void test_json_reprint(void)
{
    printf("json_reprint: arguments re-printed in one pass, against the cJSON path\n");
    SAME("empty arguments are {} both ways", "");
    size_t n = sizeof CORPUS / sizeof CORPUS[0];
    int all = 1;
    for (size_t i = 0; i < n; i++) all &= same(CORPUS[i], strlen(CORPUS[i]));
    CHECK("every text of the corpus (valid and not) re-prints as through cJSON", all);
    depth_cases();
    /* Seeded mutations: most are not JSON any more, some still are. */
    uint32_t seed = 0x9e3779b9u;
    char text[512];
    int mutated = 1;
    for (int round = 0; round < 60000; round++) {
        const char *base = CORPUS[next(&seed) % n];
        size_t len = strlen(base);
        memcpy(text, base, len);
        int edits = 1 + (int)(next(&seed) % 3);
        static const char alphabet[] = "{}[]\":,\\u0123456789abcdefABCDEF.eE+- \t\n\x01\xc3\xa9";
        for (int e = 0; e < edits; e++) {
            uint32_t kind = next(&seed) % 4, at = len ? next(&seed) % (uint32_t)len : 0;
            char c = alphabet[next(&seed) % (sizeof alphabet - 1)];
            if (kind == 0 && len) text[at] = c;
            else if (kind == 1 && len + 1 < sizeof text) { memmove(text + at + 1, text + at, len - at); text[at] = c; len++; }
            else if (kind == 2 && len) { memmove(text + at, text + at + 1, len - at - 1); len--; }
            else len = at;
        }
        mutated &= same(text, len);
    }
    CHECK("60,000 seeded mutations of the corpus re-print as through cJSON", mutated);
}
