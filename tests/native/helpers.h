/* helpers.h — small conveniences the test files share. */
#ifndef MIDFOLD_TEST_HELPERS_H
#define MIDFOLD_TEST_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "midfold.h"

/* Adds every feature count of UTF-8 text, given in one piece, to counts
 * (MF_FEATURE_COUNT of them, src/text_features.h). */
void count_features_whole(const char *text, size_t len, uint64_t *counts);

/* Parses NUL-terminated JSON; NULL when it does not parse (the caller CHECKs it). */
mf_doc *parse(const char *json);

/* The transcript of NUL-terminated JSON in `format`, or NULL on any failure. Free with
 * mf_free. */
char *transcript_of(const char *json, mf_format format);

/* The estimate of NUL-terminated JSON in milli-tokens (reference profile), or UINT64_MAX
 * on any failure. */
uint64_t estimate_of(const char *json, mf_format format);

/* The conversation `json` with every edit of `plan` applied as the JS wrapper applies it
 * (by message, part and target, a UIMessage's parts included), printed back as JSON. NULL when an edit points at
 * nothing it could apply to. Free with free_json. */
char *apply_plan(const char *json, const mf_micro_plan *plan);
void free_json(char *json);

/* The member `key` of a cJSON object; the last one when the key repeats, as JSON.parse
 * keeps (and as midfold reads). NULL when absent or not an object. */
struct cJSON;
struct cJSON *json_member(const struct cJSON *obj, const char *key);

/* The plan for NUL-terminated JSON with `keep_recent` and the other options at their
 * defaults, or NULL on failure. */
mf_micro_plan *plan_of(const char *json, mf_format format, uint32_t keep_recent);

/* Where the compaction plan's tail starts for NUL-terminated JSON (format detected) with
 * the tail's budget in tokens and its floor in messages, the other options at their
 * defaults; SIZE_MAX on any failure. */
size_t plan_tail_start(const char *json, uint64_t keep_tail_tokens, uint64_t keep_tail_messages);

/* ---- midfold's binary tree encoding (src/tree_decode.c), written independently ---- */

/* A growing byte buffer; `failed` is set when realloc fails. Free `data` with free(). */
typedef struct enc { unsigned char *data; size_t len, cap; int failed; } enc;
void enc_u8(enc *e, unsigned v);
void enc_u32(enc *e, uint32_t v);
/* The tree encoding of NUL-terminated JSON: what js/core/encode.js writes for the same value.
 * `failed` is set when the JSON does not parse. */
enc tree_encode_json(const char *json);

/* FNV-1a over bytes, chained through `h` (start with FP_START): results compared by
 * fingerprint. */
#define FP_START 14695981039346656037ull
uint64_t fp_bytes(uint64_t h, const void *p, size_t n);
uint64_t fp_u64(uint64_t h, uint64_t v);

#endif
