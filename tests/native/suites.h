/* suites.h — the test files, one idea each; main.c runs them in this order. */
#ifndef MIDFOLD_SUITES_H
#define MIDFOLD_SUITES_H

void test_utf8(void);          /* test_utf8.c: code points and strict UTF-8 */
void test_estimate(void);      /* test_estimate.c: the reference weights, text and structures */
void test_parse(void);         /* test_parse.c: JSON text and the binary tree encoding */
void test_format(void);        /* test_format.c: detection and the static names */
void test_serialize(void);     /* test_serialize.c: the transcript */
void test_forgery(void);       /* test_forgery.c: content cannot forge a transcript marker */
void test_micro(void);         /* test_micro.c: micro-compaction plans */
void test_validate(void);      /* test_validate.c: provider rules */
void test_mutations(void);     /* test_mutations.c: random shapes, every operation, the invariants */
void test_alloc_failure(void); /* test_alloc_failure.c: every allocation failing in turn */
void test_known_bugs(void);    /* test_known_bugs.c: facts that do not hold yet (-DMIDFOLD_KNOWN_BUGS) */
void test_profiles(void);      /* test_profiles.c: the calibrated profiles against their specification */
void test_features_ascii(void); /* test_features_ascii.c: the ASCII mask path against the code-point path */
void test_memory(void);        /* test_memory.c: the memory tool: path checks and commands */
void test_responses(void);     /* test_responses.c: OpenAI Responses items and Chat custom tool calls */
void test_anthropic_blocks(void); /* test_anthropic_blocks.c: server tools, MCP, documents, unknown blocks */
void test_aisdk(void);         /* test_aisdk.c: AI SDK approvals, media and UIMessage */
void test_json_scan(void);     /* test_json_scan.c: the digest's arguments scanner on hostile text */
void test_digest(void);        /* test_digest.c: test runners, exit statuses, errors, decisions, constraints */
void test_digest_calls(void);  /* test_digest_calls.c: the files and commands of calls, the harness's text */
void test_compact_tail(void);  /* test_compact_tail.c: the tail's floor in messages */
void test_json_reprint(void);  /* test_json_reprint.c: arguments re-printed in one pass, against cJSON */
void test_langchain(void);     /* test_langchain.c: LangChain dict-form messages through every operation */
void test_compact_edits(void); /* test_compact_edits.c: the compaction plan read with micro-compaction's edits */
void test_result(void);        /* test_result.c: one reader of tool results, three sinks that agree */
void test_signed(void);        /* test_signed.c: signed thinking in every format, the plans' in_flight and drops */
void test_search(void);        /* test_search.c: the archive's search: terms, BM25, snippets */
void test_recall(void);        /* test_recall.c: recall ids, HMAC-SHA-256, markers that name them */

#endif
