/* json_scan.h — JSON text read in one pass without a parser tree (json_scan.c): the
 * top-level string members of an object, and the text printed back. Not installed. */
#ifndef MIDFOLD_JSON_SCAN_H
#define MIDFOLD_JSON_SCAN_H

#include "internal.h"

/* Reads `json` (len bytes, no NUL needed) as one JSON object and fills *out with an
 * MF_OBJECT node whose items are its top-level members whose values are strings, in text
 * order (other members are checked and skipped). Keys and values are decoded: escapes
 * resolved, \u surrogate pairs joined, a lone surrogate or \u0000 read as U+FFFD. A string
 * without escapes borrows `json`; the rest (the item array, decoded strings) lives in
 * `arena`, so *out is valid while both are. Returns MF_OK, MF_ERR_PARSE when the text is not
 * one well-formed object (*out is then an empty object), MF_ERR_DEPTH past MF_MAX_DEPTH
 * levels, or MF_ERR_NOMEM. One pass to check and one to copy; no recursion. */
mf_status mf_json_scan_strings(mf_arena *arena, const char *json, size_t len, mf_node *out);

/* Writes JSON text the way mf_write_json writes its tree (", " and ": " between items,
 * strings re-escaped with non-ASCII as it is, numbers printed back from their value):
 * what a transcript shows of an OpenAI arguments string, without building a tree. Writes
 * nothing and returns MF_ERR_PARSE unless `json` is one well-formed value whose strings
 * hold no lone surrogate, \u0000 or NUL byte (what cJSON refuses too), MF_ERR_DEPTH past
 * MF_MAX_DEPTH levels; MF_ERR_NOMEM when memory runs out (b may hold part of it). */
mf_status mf_json_reprint(mf_buf *b, const char *json, size_t len);

#endif
