/* test_json_scan.c — the digest's scanner of OpenAI arguments strings (src/json_scan.c):
 * what it reads from well-formed objects, and that hostile text — truncated strings, bad
 * escapes, lone and split surrogates, deep nesting, every prefix of a valid text, seeded
 * random mutations — fails with a status, never reads past its buffer (each input is a
 * heap copy of exactly its length, so ASan and valgrind see any overread), and that
 * whatever it accepts cJSON accepts too, with the same top-level strings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "check.h"
#include "json_scan.h"
#include "suites.h"

/* Scans exactly `len` bytes from a heap copy; the status, the members in *out (valid until
 * the arena is freed; the copy is kept in *copy for the caller to free). */
static mf_status scan_copy(mf_arena *arena, const char *text, size_t len, mf_node *out, char **copy)
{
    *copy = malloc(len ? len : 1);
    if (!*copy) abort();
    memcpy(*copy, text, len);
    return mf_json_scan_strings(arena, *copy, len, out);
}

static mf_status scan_status(const char *text, size_t len)
{
    mf_arena arena;
    mf_arena_init(&arena);
    mf_node out;
    char *copy;
    mf_status st = scan_copy(&arena, text, len, &out, &copy);
    free(copy);
    mf_arena_free(&arena);
    return st;
}

static bool member_is(const mf_node *obj, const char *key, const char *value, size_t value_len)
{
    const mf_node *v = mf_get_str(obj, key);
    return v && v->len == value_len && memcmp(v->str, value, value_len) == 0;
}

static void well_formed(void)
{
    mf_arena arena;
    mf_arena_init(&arena);
    mf_node out;
    char *copy;
    const char *args = "{\"path\": \"src/a.js\", \"limit\": 20, \"opts\": {\"deep\": [1, {\"x\": \"no\"}]}, "
                       "\"command\":\"npm test -- --grep \\\"parse\\\"\"}";
    CHECK("a well-formed arguments object scans", scan_copy(&arena, args, strlen(args), &out, &copy) == MF_OK);
    CHECK("only its top-level strings are members", out.kind == MF_OBJECT && out.count == 2);
    CHECK("a plain string is read as it is", member_is(&out, "path", "src/a.js", 8));
    CHECK("escaped quotes are decoded", member_is(&out, "command", "npm test -- --grep \"parse\"", 26));
    CHECK("a nested object's strings are not members", !mf_get(&out, "x"));
    free(copy);

    const char *shell = "{\"command\":[\"bash\",\"-lc\",\"cargo test\"],\"mixed\":[\"a\",1],\"none\":[],\"workdir\":\"/srv\"}";
    CHECK("an argv scans", scan_copy(&arena, shell, strlen(shell), &out, &copy) == MF_OK);
    const mf_node *argv = mf_get(&out, "command");
    CHECK("an array of strings is a member, its strings in order", argv && argv->kind == MF_ARRAY && argv->count == 3 &&
          argv->items[2].len == 10 && memcmp(argv->items[2].str, "cargo test", 10) == 0);
    CHECK("an array holding anything but strings is skipped; an empty one is a member", !mf_get(&out, "mixed") &&
          mf_get(&out, "none") && mf_get(&out, "none")->count == 0 && member_is(&out, "workdir", "/srv", 4));
    free(copy);

    const char *esc = "{\"t\":\"a\\n\\t\\\\\\/\\u00e9\\u4e2d\\ud83d\\ude00\\b\\f\\r\"}";
    CHECK("escapes of every kind scan", scan_copy(&arena, esc, strlen(esc), &out, &copy) == MF_OK);
    CHECK("escapes decode to UTF-8 (a surrogate pair to one code point)",
          member_is(&out, "t", "a\n\t\\/\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\b\f\r", 17));
    free(copy);

    const char *lone = "{\"a\":\"x\\ud800y\",\"b\":\"\\udc00\",\"c\":\"\\u0000\",\"d\":\"\\ud800\\u0041\"}";
    CHECK("lone surrogates and NUL escapes scan", scan_copy(&arena, lone, strlen(lone), &out, &copy) == MF_OK);
    CHECK("a lone high surrogate reads as U+FFFD", member_is(&out, "a", "x\xef\xbf\xbdy", 5));
    CHECK("a lone low surrogate reads as U+FFFD", member_is(&out, "b", "\xef\xbf\xbd", 3));
    CHECK("\\u0000 reads as U+FFFD, never a NUL that would cut the text", member_is(&out, "c", "\xef\xbf\xbd", 3));
    CHECK("a high surrogate before a non-surrogate escape is U+FFFD, then that character",
          member_is(&out, "d", "\xef\xbf\xbd" "A", 4));
    free(copy);

    const char *dup = " {\"path\":\"a\",\"path\":\"b\"} \n";
    CHECK("duplicate keys and surrounding spaces scan", scan_copy(&arena, dup, strlen(dup), &out, &copy) == MF_OK);
    CHECK("the last duplicate wins, as in JSON.parse", member_is(&out, "path", "b", 1));
    free(copy);
    CHECK("an empty object scans, with no members", scan_status("{}", 2) == MF_OK);
    mf_arena_free(&arena);
}

static void hostile(void)
{
    static const char *const BAD[] = {
        "", " ", "[]", "\"x\"", "null", "{", "{\"a\"", "{\"a\":", "{\"a\":\"b", "{\"a\":\"b\\", "{\"a\":\"b\\\"}",
        "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"\\x41\"}", "{\"a\":\"b\",}", "{,\"a\":\"b\"}",
        "{\"a\" \"b\"}", "{\"a\":\"b\"}}", "{\"a\":\"b\"} x", "{\"a\":01}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":1e}",
        "{\"a\":tru}", "{\"a\":nul}", "{\"a\":[1,]}", "{\"a\":[1 2]}", "{\"a\":{\"b\"}}", "{\"a\":{\"b\":}}",
        "{a:\"b\"}", "{\"a\":'b'}", "{\"a\":[}", "{\"a\":]}", "{\"a\":\"b\"", NULL};
    bool all = true;
    for (int i = 0; BAD[i]; i++) all &= scan_status(BAD[i], strlen(BAD[i])) == MF_ERR_PARSE;
    CHECK("malformed texts (truncated strings, bad escapes, stray commas, bad literals) fail with MF_ERR_PARSE", all);
    CHECK("NULL text fails with MF_ERR_PARSE", mf_json_scan_strings(NULL, NULL, 0, &(mf_node){0}) == MF_ERR_PARSE);

    const char *valid = "{\"file_path\":\"src/\\u00e9t\\u00e9.js\",\"n\":[1,2,{\"k\":[true,false,null]}],\"s\":\"\\ud83d\\ude00\"}";
    size_t vlen = strlen(valid);
    bool prefixes = true;
    for (size_t n = 0; n < vlen; n++) prefixes &= scan_status(valid, n) == MF_ERR_PARSE;
    CHECK("every proper prefix of a valid text fails (a truncated text is never half-read)", prefixes);
    CHECK("the whole text scans", scan_status(valid, vlen) == MF_OK);

    /* Deep nesting: a fixed stack, no recursion. */
    size_t depth = 20000;
    char *deep = malloc(depth * 2 + 16);
    if (!deep) abort();
    size_t k = 0;
    k += (size_t)sprintf(deep, "{\"a\":");
    for (size_t i = 0; i < depth; i++) deep[k++] = '[';
    for (size_t i = 0; i < depth; i++) deep[k++] = ']';
    deep[k++] = '}';
    CHECK("20,000 nested arrays fail with MF_ERR_DEPTH, without recursion", scan_status(deep, k) == MF_ERR_DEPTH);
    k = (size_t)sprintf(deep, "{\"a\":");
    for (size_t i = 0; i < MF_MAX_DEPTH - 1; i++) deep[k++] = '[';
    for (size_t i = 0; i < MF_MAX_DEPTH - 1; i++) deep[k++] = ']';
    deep[k++] = '}';
    CHECK("nesting up to MF_MAX_DEPTH levels, the object included, scans", scan_status(deep, k) == MF_OK);
    k = (size_t)sprintf(deep, "{\"a\":");
    for (size_t i = 0; i < 100; i++) deep[k++] = '[';
    CHECK("an unclosed deep array fails with MF_ERR_PARSE", scan_status(deep, k) == MF_ERR_PARSE);
    free(deep);
}

/* Seeded mutations of valid texts: whatever the scanner accepts, cJSON parses, with the
 * same top-level strings where cJSON can say (no \u0000 or lone surrogate, which the two
 * read differently by design). */
static bool has(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++) if (memcmp(s + i, needle, k) == 0) return true;
    return false;
}

static uint32_t next(uint32_t *s) { *s ^= *s << 13; *s ^= *s >> 17; *s ^= *s << 5; return *s; }

static void agrees_with_cjson(void)
{
    static const char *const SEEDS[] = {
        "{\"command\":\"git log --oneline -5\",\"timeout\":120000}",
        "{\"path\":\"tests/test_dates.py\",\"old_string\":\"a\\nb\",\"new_string\":\"c\\td\"}",
        "{\"query\":\"\\u676d\\u5dde \\u5929\\u6c14\",\"opts\":{\"n\":[1,2.5e3,-0.1],\"ok\":true}}",
        "{\"command\":[\"bash\",\"-lc\",\"rg -n \\\"x\\\" src\"],\"workdir\":\"/srv\"}",
    };
    const char ALPHABET[] = "{}[]\":,\\u0123456789abcdefnrtlsE.+- \tx\xe4\xb8\xad";
    uint32_t seed = 0x9e3779b9u;
    size_t accepted = 0, agreed = 0, odd = 0, rounds = 6000;
    for (size_t r = 0; r < rounds; r++) {
        const char *base = SEEDS[r % 4];
        size_t n = strlen(base);
        char buf[256];
        memcpy(buf, base, n);
        for (int m = 0, edits = 1 + (int)(next(&seed) % 3); m < edits; m++) {
            size_t at = next(&seed) % n;
            uint32_t op = next(&seed) % 3;
            char c = ALPHABET[next(&seed) % (sizeof ALPHABET - 1)];
            if (op == 0) buf[at] = c;                                                   /* replace */
            else if (op == 1 && n > 1) { memmove(buf + at, buf + at + 1, n - at - 1); n--; } /* delete */
            else if (n < sizeof buf - 1) { memmove(buf + at + 1, buf + at, n - at); buf[at] = c; n++; } /* insert */
        }
        mf_arena arena;
        mf_arena_init(&arena);
        mf_node out;
        char *copy;
        mf_status st = scan_copy(&arena, buf, n, &out, &copy);
        if (st == MF_OK) {
            accepted++;
            cJSON *j = cJSON_ParseWithLength(copy, n);
            bool same = j && cJSON_IsObject(j);
            for (uint32_t i = 0; same && i < out.count; i++) {
                const mf_node *m = &out.items[i];
                if (has(copy, n, "\\u0000") || has(copy, n, "\\ud") || has(copy, n, "\\uD")) break;
                char key[256];
                if (m->key_len >= sizeof key) break;
                memcpy(key, m->key, m->key_len);
                key[m->key_len] = 0;
                cJSON *v = NULL, *it;
                cJSON_ArrayForEach(it, j) if (it->string && strcmp(it->string, key) == 0) v = it;
                if (m->kind == MF_ARRAY) { /* an argv: the same strings in the same order */
                    same = v && cJSON_IsArray(v) && (uint32_t)cJSON_GetArraySize(v) == m->count;
                    for (uint32_t e = 0; same && e < m->count; e++) {
                        cJSON *item = cJSON_GetArrayItem(v, (int)e);
                        same = cJSON_IsString(item) && strlen(item->valuestring) == m->items[e].len &&
                               memcmp(item->valuestring, m->items[e].str, m->items[e].len) == 0;
                    }
                    continue;
                }
                same = v && cJSON_IsString(v) && strlen(v->valuestring) == m->len && memcmp(v->valuestring, m->str, m->len) == 0;
            }
            agreed += same;
            cJSON_Delete(j);
        } else {
            odd += st != MF_ERR_PARSE && st != MF_ERR_DEPTH;
        }
        free(copy);
        mf_arena_free(&arena);
    }
    CHECK_EQ_U64("a mutation the scanner refuses fails with MF_ERR_PARSE or MF_ERR_DEPTH", odd, 0);
    CHECK("some mutations stay valid (the comparison is not empty)", accepted > 100);
    CHECK_EQ_U64("every mutation the scanner accepts, cJSON parses to the same top-level strings", agreed, accepted);
}

void test_json_scan(void)
{
    well_formed();
    hostile();
    agrees_with_cjson();
}
