/* json_scan.h — JSON text read in one pass without a parser tree (json_scan.c): the
 * top-level string members of an object (what the digest reads of OpenAI arguments). Not
 * installed. */
#ifndef MIDFOLD_JSON_SCAN_H
#define MIDFOLD_JSON_SCAN_H

#include "tree.h"

/* Reads `json` (len bytes, no NUL needed) as one JSON object and fills *out with an
 * MF_OBJECT node whose items are its top-level members whose values are strings, or arrays
 * of strings only (an MF_ARRAY of MF_STRING), in text order (other members are checked and
 * skipped). Keys and values are decoded: escapes
 * resolved, \u surrogate pairs joined, a lone surrogate or \u0000 read as U+FFFD. A string
 * without escapes borrows `json`; the rest (the item array, decoded strings) lives in
 * `arena`, so *out is valid while both are. Returns MF_OK, MF_ERR_PARSE when the text is not
 * one well-formed object (*out is then an empty object), MF_ERR_DEPTH past MF_MAX_DEPTH
 * levels, or MF_ERR_NOMEM. One pass to check and one to copy; no recursion. */
mf_status mf_json_scan_strings(mf_arena *arena, const char *json, size_t len, mf_node *out);

#endif
