/* test_mutations.c — the fixtures, changed at random in shape (values replaced, members
 * renamed, removed, repeated, reordered), fed to every operation: each returns one of
 * its documented statuses, never crashes, and keeps the invariants that no operation
 * may break:
 * - a micro plan lowers the estimate (never raises it), its edits apply to the caller's
 *   objects, the result estimates to milli_after, planning again finds nothing, and a
 *   conversation that validated still validates;
 * - a compaction plan splits the list into head, middle and tail, and the rebuilt
 *   conversation (head, summary, acknowledgement, tail) of one that validated still
 *   validates: no cut lands between a tool call and its result;
 * - every text handed out is valid UTF-8. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "check.h"
#include "fixtures.h"
#include "fixtures_responses.h"
#include "helpers.h"
#include "midfold.h"
#include "suites.h"

static uint32_t rng = 2463534242u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static size_t pick(size_t n) { return n ? next() % n : 0; }

/* Strict UTF-8, written here independently of src/utf8.c. */
static int valid_utf8(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t k;
        uint32_t v, min;
        if (c < 0x80) { i++; continue; }
        if (c >= 0xC2 && c <= 0xDF) { k = 1; v = c & 0x1F; min = 0x80; }
        else if (c >= 0xE0 && c <= 0xEF) { k = 2; v = c & 0x0F; min = 0x800; }
        else if (c >= 0xF0 && c <= 0xF4) { k = 3; v = c & 0x07; min = 0x10000; }
        else return 0;
        if (n - i <= k) return 0;
        for (size_t j = 1; j <= k; j++) {
            if ((p[i + j] & 0xC0) != 0x80) return 0;
            v = v << 6 | (p[i + j] & 0x3F);
        }
        if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
        i += k + 1;
    }
    return 1;
}

/* ---- mutating a cJSON tree ---- */

typedef struct slot { cJSON *item, *parent; } slot;

static void collect(cJSON *node, cJSON *parent, slot *out, size_t *n, size_t cap)
{
    if (*n < cap) out[(*n)++] = (slot){node, parent};
    for (cJSON *c = node->child; c; c = c->next) collect(c, node, out, n, cap);
}

static cJSON *random_value(void)
{
    static const char *const words[] = {"user", "assistant", "system", "tool", "developer", "text", "tool_use",
        "tool_result", "tool-call", "tool-result", "image", "thinking", "toolu_01", "toolu_02", "call_01", "call_03",
        "bash", "", "[truncated: bash result, 3 chars]", "中文注释", "\xff\xfe", "error-text", "json", "content"};
    switch (pick(9)) {
    case 0: return cJSON_CreateNull();
    case 1: return cJSON_CreateTrue();
    case 2: return cJSON_CreateNumber((double)pick(100));
    case 3: return cJSON_CreateArray();
    case 4: return cJSON_CreateObject();
    default: return cJSON_CreateString(words[pick(sizeof words / sizeof words[0])]);
    }
}

/* Puts `v` where `s.item` is, under the same key when the parent is an object. */
static void replace(slot s, cJSON *v)
{
    if (!v) return;
    if (s.item->string) {
        size_t n = strlen(s.item->string) + 1;
        v->string = cJSON_malloc(n);
        if (!v->string) { cJSON_Delete(v); return; }
        memcpy(v->string, s.item->string, n);
    }
    if (!cJSON_ReplaceItemViaPointer(s.parent, s.item, v)) cJSON_Delete(v);
}

static void mutate(cJSON *root)
{
    static const char *const keys[] = {"role", "content", "type", "id", "tool_use_id", "tool_call_id", "toolCallId",
        "toolName", "name", "input", "output", "value", "text", "tool_calls", "is_error", "function", "arguments"};
    slot nodes[4096];
    size_t n = 0;
    collect(root, NULL, nodes, &n, sizeof nodes / sizeof nodes[0]);
    slot s = nodes[1 + pick(n - 1)]; /* never the root itself */
    switch (pick(5)) {
    case 0: /* replace the value */
        replace(s, random_value());
        break;
    case 1: /* remove it */
        cJSON_Delete(cJSON_DetachItemViaPointer(s.parent, s.item));
        break;
    case 2: { /* repeat it (in an object: the same key twice) */
        cJSON *copy = cJSON_Duplicate(s.item, 1);
        if (!copy) break;
        if (!(cJSON_IsObject(s.parent) ? cJSON_AddItemToObject(s.parent, s.item->string, copy)
                                       : cJSON_AddItemToArray(s.parent, copy)))
            cJSON_Delete(copy);
        break;
    }
    case 3: /* rename a member, or move a list item elsewhere in its list */
        if (cJSON_IsObject(s.parent)) {
            cJSON *copy = cJSON_Duplicate(s.item, 1);
            if (!copy) break;
            if (!cJSON_AddItemToObject(s.parent, keys[pick(sizeof keys / sizeof keys[0])], copy)) cJSON_Delete(copy);
            cJSON_Delete(cJSON_DetachItemViaPointer(s.parent, s.item));
        } else {
            cJSON *item = cJSON_DetachItemViaPointer(s.parent, s.item);
            int size = cJSON_GetArraySize(s.parent);
            /* Debian's cJSON refuses to insert a detached item anywhere but first: then
             * it goes last. */
            if (!size || !cJSON_InsertItemInArray(s.parent, (int)pick((size_t)size), item))
                cJSON_AddItemToArray(s.parent, item);
        }
        break;
    default: { /* a string's text changed into another */
        if (cJSON_IsString(s.item)) replace(s, random_value());
        break;
    }
    }
}

/* ---- the invariants ---- */

typedef struct tally { size_t cases, parsed, bad_status, bad_utf8, micro_raised, micro_unapplied, micro_estimate,
                       micro_again, micro_invalid, compact_split, compact_invalid, compacted; } tally;

static int problems_of(const char *json, mf_format format, size_t *count)
{
    mf_doc *doc = parse(json);
    mf_validation *v = NULL;
    int ok = doc && mf_doc_validate(doc, format, &v, NULL) == MF_OK;
    *count = ok ? v->count : 0;
    mf_validation_free(v);
    mf_doc_free(doc);
    return ok;
}

static void check_micro(const char *json, const mf_doc *doc, mf_format format, uint32_t keep, size_t problems, tally *t)
{
    mf_micro_options o;
    mf_micro_options_init(&o);
    o.keep_recent = keep;
    mf_micro_plan *p = NULL;
    mf_status st = mf_doc_micro_plan(doc, format, &o, &p, NULL);
    if (st != MF_OK) { if (st != MF_ERR_SHAPE && st != MF_ERR_FORMAT) t->bad_status++; return; }
    if (p->milli_after > p->milli_before) t->micro_raised++;
    for (size_t i = 0; i < p->count; i++)
        if (!valid_utf8(p->edits[i].replacement, p->edits[i].replacement_len)) t->bad_utf8++;
    if (p->count) {
        char *applied = apply_plan(json, p);
        if (!applied) {
            t->micro_unapplied++;
        } else {
            mf_doc *after = parse(applied);
            uint64_t milli = 0;
            mf_micro_plan *again = NULL;
            if (!after || mf_doc_estimate(after, format, MF_PROFILE_BAREAGENT, &milli, NULL) != MF_OK ||
                milli != p->milli_after) {
                if (!t->micro_estimate++)
                    printf("     estimate %llu after applying, milli_after %llu (keep_recent %u), in:\n     %s\n",
                           (unsigned long long)milli, (unsigned long long)p->milli_after, keep, json);
            }
            if (!after || mf_doc_micro_plan(after, format, &o, &again, NULL) != MF_OK || again->count != 0) {
                if (!t->micro_again++) printf("     a second plan (keep_recent %u) still edits:\n     %s\n", keep, applied);
            }
            size_t left = 0;
            if (problems == 0 && (!problems_of(applied, format, &left) || left != 0)) t->micro_invalid++;
            mf_micro_plan_free(again);
            mf_doc_free(after);
            free_json(applied);
        }
    }
    mf_micro_plan_free(p);
}

/* The conversation the wrapper rebuilds from a compaction plan, as JSON. */
static char *rebuild(const char *json, const mf_compact_plan *p)
{
    cJSON *root = cJSON_Parse(json);
    cJSON *list = cJSON_IsArray(root) ? root : json_member(root, "messages");
    cJSON *out = cJSON_CreateArray();
    char *text = NULL;
    if (cJSON_IsArray(list) && out) {
        int count = cJSON_GetArraySize(list);
        for (size_t i = 0; i < p->head_count; i++)
            cJSON_AddItemToArray(out, cJSON_Duplicate(cJSON_GetArrayItem(list, (int)p->head[i]), 1));
        cJSON *summary = cJSON_CreateObject();
        cJSON_AddStringToObject(summary, "role", "user");
        cJSON_AddStringToObject(summary, "content", "[Context Compressed]\nThe user asked why the tests fail.");
        cJSON_AddItemToArray(out, summary);
        cJSON *first = cJSON_GetArrayItem(list, (int)p->tail_start);
        const cJSON *role = json_member(first, "role");
        if (!(cJSON_IsString(role) && strcmp(role->valuestring, "assistant") == 0)) {
            cJSON *ack = cJSON_CreateObject();
            cJSON_AddStringToObject(ack, "role", "assistant");
            cJSON_AddStringToObject(ack, "content", p->acknowledgement);
            cJSON_AddItemToArray(out, ack);
        }
        for (int i = (int)p->tail_start; i < count; i++)
            cJSON_AddItemToArray(out, cJSON_Duplicate(cJSON_GetArrayItem(list, i), 1));
        text = cJSON_PrintUnformatted(out);
    }
    cJSON_Delete(out);
    cJSON_Delete(root);
    return text;
}

static void check_compact(const char *json, const mf_doc *doc, mf_format format, size_t problems, tally *t)
{
    mf_compact_options o;
    mf_compact_options_init(&o);
    o.keep_tail_tokens = pick(3) * 150; /* 0, 150 or 300 tokens of tail */
    o.max_transcript_tokens = pick(2) ? 100 : 0;
    mf_compact_plan *p = NULL;
    mf_status st = mf_doc_compact_plan(doc, format, &o, &p, NULL);
    if (st != MF_OK) { if (st != MF_ERR_SHAPE && st != MF_ERR_FORMAT) t->bad_status++; return; }
    if (!valid_utf8(p->prompt, p->prompt_len) || !valid_utf8(p->system, p->system_len)) t->bad_utf8++;
    /* head and middle are the messages before tail_start, in order, each once. */
    size_t h = 0, m = 0;
    int split = p->head_count + p->middle_count == p->tail_start;
    for (size_t i = 0; split && i < p->tail_start; i++) {
        if (h < p->head_count && p->head[h] == i) h++;
        else if (m < p->middle_count && p->middle[m] == i) m++;
        else split = 0;
    }
    if (!split) t->compact_split++;
    if (split && p->middle_count && problems == 0) {
        t->compacted++;
        char *rebuilt = rebuild(json, p);
        size_t left = 0;
        if (!rebuilt || !problems_of(rebuilt, format, &left) || left != 0) {
            if (!t->compact_invalid) printf("     rebuilt conversation that no longer validates: %.300s\n", rebuilt ? rebuilt : "?");
            t->compact_invalid++;
        }
        free_json(rebuilt);
    }
    mf_compact_plan_free(p);
}

static void one_case(const char *json, tally *t)
{
    t->cases++;
    mf_doc *doc = parse(json);
    if (!doc) return;
    t->parsed++;
    mf_format format = mf_doc_detect(doc);
    if (format == MF_FORMAT_UNKNOWN) format = MF_FORMAT_ANTHROPIC; /* the caller names one */

    uint64_t milli;
    mf_status st = mf_doc_estimate(doc, format, MF_PROFILE_BAREAGENT, &milli, NULL);
    if (st != MF_OK && st != MF_ERR_SHAPE) t->bad_status++;
    char *text = NULL;
    size_t len = 0;
    st = mf_doc_serialize(doc, format, &text, &len, NULL);
    if (st == MF_OK && (!valid_utf8(text, len) || text[len] != 0)) t->bad_utf8++;
    if (st != MF_OK && st != MF_ERR_SHAPE) t->bad_status++;
    mf_free(text);
    text = NULL;
    st = mf_doc_digest(doc, format, 200, MF_LANG_AUTO, MF_PROFILE_BAREAGENT, &text, &len, NULL);
    if (st == MF_OK && !valid_utf8(text, len)) t->bad_utf8++;
    if (st != MF_OK && st != MF_ERR_SHAPE) t->bad_status++;
    mf_free(text);

    size_t problems = 0;
    mf_validation *v = NULL;
    if (mf_doc_validate(doc, format, &v, NULL) != MF_OK) t->bad_status++;
    else problems = v->count;
    for (size_t i = 0; v && i < v->count; i++)
        if (!valid_utf8(v->problems[i].text, strlen(v->problems[i].text))) t->bad_utf8++;
    mf_validation_free(v);

    check_micro(json, doc, format, (uint32_t)pick(4), problems, t);
    check_compact(json, doc, format, problems, t);
    mf_doc_free(doc);
}

void test_mutations(void)
{
    static const char *const fixtures[] = {FX_SEED_ANTHROPIC, FX_SEED_OPENAI, FX_SEED_AISDK, FX_SESSION_ANTHROPIC,
                                           FX_SESSION_OPENAI, FX_SESSION_AISDK, FX_CHINESE_ANTHROPIC, FX_RESPONSES_RUN};
    tally t;
    memset(&t, 0, sizeof t);
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        one_case(fixtures[f], &t); /* the fixture itself */
        for (int round = 0; round < 300; round++) {
            cJSON *root = cJSON_Parse(fixtures[f]);
            if (!root) continue;
            int changes = 1 + (int)pick(3);
            for (int c = 0; c < changes; c++) mutate(root);
            char *json = cJSON_PrintUnformatted(root);
            cJSON_Delete(root);
            if (json) one_case(json, &t);
            free_json(json);
        }
    }
    char fact[160];
    snprintf(fact, sizeof fact, "all %zu changed conversations parse (%zu compacted with a middle)", t.cases, t.compacted);
    CHECK(fact, t.parsed == t.cases);
    CHECK("every operation on them returns one of its documented statuses", t.bad_status == 0);
    CHECK("every text handed out (transcripts, digests, prompts, markers, problems) is valid UTF-8", t.bad_utf8 == 0);
    CHECK("no micro plan raises the estimate", t.micro_raised == 0);
    CHECK("every micro plan's edits apply to a tool result in the caller's objects", t.micro_unapplied == 0);
    CHECK("every applied micro plan estimates to its milli_after", t.micro_estimate == 0);
    CHECK("planning again on an applied micro plan finds nothing to do", t.micro_again == 0);
    CHECK("a conversation that validated still validates after micro-compaction", t.micro_invalid == 0);
    CHECK("every compaction plan splits the messages before the tail into head and middle", t.compact_split == 0);
    CHECK("a conversation that validated still validates rebuilt after compaction", t.compact_invalid == 0);
}
