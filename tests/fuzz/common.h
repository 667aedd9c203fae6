/* common.h — what the fuzz targets share: the input layout (a flag byte, option bytes,
 * then the document), invariant checks that abort with a message (libFuzzer reports an
 * abort as a crash and saves the input), an independent UTF-8 reader to check the
 * library against, and the tree encoder used for round trips and seeds. */
#ifndef MIDFOLD_FUZZ_COMMON_H
#define MIDFOLD_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Aborts with "invariant failed: <what>" and the file and line. */
#define CHECK(cond, ...) \
    do { if (!(cond)) fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); } while (0)
__attribute__((noreturn, format(printf, 4, 5)))
void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...);

/* ---- input layout of the document targets (serialize, micro, compact, validate) ----
 *   byte 0: flags — bits 0-2 the format (the mf_format value 0..7: every format the
 *           enum names, MF_FORMAT_UNKNOWN and one value past the enum included, so a
 *           format whose adapter lands is fuzzed with no change here), bit 7 the
 *           encoding (0 JSON text, 1 the binary tree encoding of src/tree_decode.c)
 *   then   FUZZ_OPTION_BYTES(target) option bytes (see micro_options / compact_options)
 *   then   the document. */
#define FUZZ_FLAG_TREE 0x80u
#define FUZZ_FORMAT_MASK 0x07u
#define FUZZ_FORMAT_VALUES 8 /* the values bits 0-2 can hold */
#define FUZZ_MICRO_OPTION_BYTES 4
#define FUZZ_COMPACT_OPTION_BYTES 6

typedef struct fuzz_input {
    mf_format format;
    bool tree;
    const uint8_t *options; /* option bytes (zero-filled when the input is short) */
    const uint8_t *doc;
    size_t doc_len;
    uint8_t option_copy[16];
    mf_doc *parsed;         /* set by fuzz_load, freed by fuzz_release */
    uint8_t *owned;         /* the copy a tree document borrows, freed by fuzz_release */
} fuzz_input;

/* Splits data into flags, `option_bytes` option bytes and the document. False when the
 * input is too short to hold the flag byte. */
bool fuzz_split(const uint8_t *data, size_t size, size_t option_bytes, fuzz_input *in);

/* fuzz_split, then parses the document part as JSON or tree per the flags into
 * in->parsed. False, with nothing to release, when the input is too short or does not
 * parse; otherwise the input owns the document (and the copy a tree document borrows)
 * until fuzz_release. */
bool fuzz_load(const uint8_t *data, size_t size, size_t option_bytes, fuzz_input *in);
void fuzz_release(fuzz_input *in);

/* Micro-compaction options from 4 bytes: keep_recent = b0 % 6 and the profile
 * b0 / 6 % MF_PROFILE_COUNT; b1 bit k excludes the
 * k-th of {"bash", "read_file", "unknown", "grep", ""} (k < 5), bit 5 sets clear_tool_inputs and bit 6 a
 * recall key; clear_at_least = b2 * 8 tokens; trigger = b3 * 64 tokens. */
void fuzz_micro_options(const uint8_t *o, mf_micro_options *out, const char **names_storage);

/* Compaction options from 6 bytes: keep_tail = b0 * b0 * 2 tokens, max_transcript =
 * b1 * b1 (0: no cap; squares give fine steps where budgets are small), max_summary = b2 * 16, language b3 % 4 (auto, en, zh, en + "fr"),
 * instructions b4 % 3 (none, English, text with an invalid UTF-8 byte); b5 * 8 is the
 * digest's max_tokens. */
void fuzz_compact_options(const uint8_t *o, mf_compact_options *out);
uint32_t fuzz_digest_tokens(const uint8_t *o);

/* ---- independent checks ---------------------------------------------------------- */

/* Strict UTF-8 (no overlongs, surrogates or values past U+10FFFF). */
bool fuzz_utf8_valid(const char *s, size_t len);
/* Decodes one code point the way midfold.h specifies (an invalid byte is one code
 * point, U+FFFD); returns the bytes used. Written from the spec, not from utf8.c. */
size_t fuzz_utf8_next(const unsigned char *s, size_t len, uint32_t *cp);
size_t fuzz_count_code_points(const char *s, size_t len);

/* Writes a value in the binary tree encoding (the layout of src/tree_decode.c). */
void fuzz_encode_tree(mf_buf *b, const mf_node *node);

/* True when the library takes `format` as an argument: AUTO, or a format with an
 * adapter. Probed once per value (an estimate of "[]" in that format must not be
 * refused as an invalid argument), so the targets follow the library: a reserved
 * format (openai-responses, ai-sdk-ui until their adapters land), MF_FORMAT_UNKNOWN and
 * 7 are refused; an adapter that lands gets every invariant of the target. */
bool fuzz_format_supported(mf_format format);
/* An entry point given a conversation and a format it does not take must refuse it
 * with MF_ERR_INVALID_ARG and an error text, never run or crash. */
void fuzz_check_format_refused(mf_status st, const mf_error *err, mf_format format, const char *what);

/* The format the library would use for `format` (AUTO: detected). */
mf_format fuzz_effective_format(const mf_doc *doc, mf_format format);

/* Number of entries of a message's content list (0 when it is not a list). */
size_t fuzz_content_count(const mf_node *msg);

#endif
