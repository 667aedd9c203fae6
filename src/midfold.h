/*
 * midfold.h — the public C API of midfold's core.
 *
 * midfold keeps an LLM agent's conversation inside its context window: it estimates
 * tokens without a tokenizer vocabulary, serializes a conversation into a transcript
 * for a summarizer, plans micro-compaction (old tool results replaced by one line) and
 * validates conversations against the providers' pairing rules.
 *
 * Conventions
 * - Every name has the prefix `mf_`. Inputs are (pointer, length) pairs that need no NUL.
 * - Functions return an `mf_status`; an optional `mf_error *` out-parameter receives the
 *   code, a message and (for parse errors) a byte position. There is no global error state.
 * - Results the library allocates are owned by the caller and released with the
 *   matching `*_free` function (or `mf_free` for plain buffers). All `*_free` functions
 *   accept NULL.
 * - Borrowed pointers (`const char *` inside results) stay valid until the object they
 *   came from is freed.
 * - Invalid UTF-8 never fails an operation: each byte that does not start a valid
 *   sequence counts as one code point of class "other" and is written as U+FFFD when
 *   text is printed.
 */
#ifndef MIDFOLD_H
#define MIDFOLD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status and errors ------------------------------------------------------------ */

typedef enum mf_status {
    MF_OK = 0,
    MF_ERR_NOMEM = 1,        /* an allocation failed; nothing was changed */
    MF_ERR_PARSE = 2,        /* input is not valid JSON (or not a valid tree encoding) */
    MF_ERR_INVALID_ARG = 3,  /* a NULL pointer, an unknown profile or an out-of-range option */
    MF_ERR_SHAPE = 4,        /* the input is not a conversation: not a list of role-tagged messages */
    MF_ERR_DEPTH = 5,        /* nesting deeper than MF_MAX_DEPTH */
    MF_ERR_TOO_LARGE = 6,    /* input over MF_MAX_INPUT_BYTES or more than MF_MAX_MESSAGES */
    MF_ERR_FORMAT = 7        /* the format could not be told, or the input contradicts the one asked for */
} mf_status;

/* Limits enforced on every input. */
#define MF_MAX_DEPTH 512
#define MF_MAX_INPUT_BYTES ((size_t)1 << 30)
#define MF_MAX_MESSAGES 1000000u

/* Filled by a failing call when the caller passes one. `position` is a byte offset into
 * the input for MF_ERR_PARSE (and SIZE_MAX where no position applies); for MF_ERR_SHAPE
 * and MF_ERR_FORMAT it is the index of the offending message, or SIZE_MAX. */
typedef struct mf_error {
    mf_status code;
    size_t position;
    char message[160];
} mf_error;

/* A static English name for a status ("out of memory", ...). Never NULL; never freed. */
const char *mf_strerror(mf_status status);

/* ---- memory ---------------------------------------------------------------------- */

/* Process-wide allocator used by midfold and by the cJSON it embeds. Set it before any
 * other call (tests use it to fail the Nth allocation). NULL restores malloc/realloc/free.
 * `realloc_fn` must behave like realloc (including realloc(NULL, n)). */
typedef struct mf_allocator {
    void *(*malloc_fn)(size_t size);
    void *(*realloc_fn)(void *ptr, size_t size);
    void (*free_fn)(void *ptr);
} mf_allocator;
void mf_set_allocator(const mf_allocator *allocator);

/* Releases a buffer that midfold returned (serialized text, JSON reports). NULL is fine. */
void mf_free(void *ptr);

/* ---- formats and documents ------------------------------------------------------- */

typedef enum mf_format {
    MF_FORMAT_AUTO = 0,      /* detect from the messages */
    MF_FORMAT_ANTHROPIC = 1, /* Anthropic Messages: content blocks tool_use / tool_result */
    MF_FORMAT_OPENAI = 2,    /* OpenAI Chat Completions: tool_calls, role "tool" */
    MF_FORMAT_AISDK = 3,     /* Vercel AI SDK ModelMessage: parts tool-call / tool-result */
    MF_FORMAT_UNKNOWN = 4,
    MF_FORMAT_OPENAI_RESPONSES = 5, /* OpenAI Responses API input items: message, function_call, ... */
    MF_FORMAT_AISDK_UI = 6,  /* Vercel AI SDK UIMessage: {id, role, parts} as a chat UI holds it */
    MF_FORMAT_LANGCHAIN = 7  /* LangChain JS messages in their dict form: {type: human|ai|tool|system, content,
                                tool_calls, invalid_tool_calls, tool_call_id, status} (adapt_langchain.c) */
} mf_format;

/* "anthropic", "openai", "ai-sdk", "unknown", "openai-responses", "ai-sdk-ui", "langchain" ("auto" for
 * MF_FORMAT_AUTO). Static. */
const char *mf_format_name(mf_format format);
/* Parses a format name (as above); returns MF_ERR_INVALID_ARG for anything else. */
mf_status mf_format_parse(const char *name, size_t len, mf_format *out);

/* A parsed value: a conversation (a list of messages, a single message or an object
 * with a "messages" list) or any other JSON value. Owns everything it points to. */
typedef struct mf_doc mf_doc;

/* Parses JSON text. The text is copied as needed: the caller may free it afterwards.
 * On success *out receives a document to release with mf_doc_free. */
mf_status mf_doc_parse_json(const char *json, size_t len, mf_doc **out, mf_error *err);

/* Parses midfold's binary tree encoding (what the JS wrapper writes; see
 * src/tree_decode.c for the layout). The document BORROWS `buf`: strings point into it,
 * so the buffer must outlive the document. */
mf_status mf_doc_parse_tree(const uint8_t *buf, size_t len, mf_doc **out, mf_error *err);

/* Frees a document and everything it owns. NULL is fine. */
void mf_doc_free(mf_doc *doc);

/* The format of the document's messages: `wanted` (when not AUTO) is checked against
 * the messages, AUTO detects. Returns MF_FORMAT_UNKNOWN when the value is not a list of
 * role-tagged messages or when its messages mix formats. */
mf_format mf_doc_detect(const mf_doc *doc);

/* ---- estimation ------------------------------------------------------------------ */

/* Estimator profiles. MF_PROFILE_BAREAGENT is the reference profile: per code point,
 * CJK 1.5, ASCII letter/digit 0.25, whitespace 0.25, anything else 0.5 tokens. The fitted
 * profiles price features of the text (character classes, word lengths, digit runs,
 * whitespace runs, ...; src/text_features.h) and the square root of its code points (the
 * slack a short text needs), with weights fitted to a real tokenizer so that the estimate
 * errs high on about 99 % of texts. That last term is not additive: each text (a string
 * of a message, a key or value of tool arguments) is priced on its own, and two texts
 * priced apart carry more of it than the two priced together (sqrt a + sqrt b >=
 * sqrt(a + b)). The feature pass keeps a lookup table filled at first use: call any
 * estimate once before using midfold from several threads. */
typedef enum mf_profile {
    MF_PROFILE_BAREAGENT = 0, /* the reference weights above; fastest; can under-count tool output */
    MF_PROFILE_O200K = 1,     /* fitted to o200k_base (GPT-4o, GPT-4.1, GPT-5 family) */
    MF_PROFILE_CL100K = 2,    /* fitted to cl100k_base (GPT-4, GPT-3.5) */
    MF_PROFILE_DEEPSEEK = 3,  /* fitted to DeepSeek-V3's tokenizer */
    MF_PROFILE_QWEN = 4,      /* fitted to Qwen3's tokenizer */
    MF_PROFILE_CLAUDE = 5,    /* fitted to the legacy public Claude vocabulary, plus a margin */
    MF_PROFILE_SAFE = 6       /* the largest of the five fitted profiles, text by text */
} mf_profile;
#define MF_PROFILE_COUNT 7

/* "bareagent", ... Static. NULL for an unknown profile. */
const char *mf_profile_name(mf_profile profile);
mf_status mf_profile_parse(const char *name, size_t len, mf_profile *out);

/* Estimates are kept in milli-tokens (thousandths) so that sums are exact and the
 * ceiling is taken once, at the end: tokens = (milli + 999) / 1000. */
#define MF_MILLI 1000u
uint64_t mf_ceil_tokens(uint64_t milli);

/* The estimate of UTF-8 text in milli-tokens (no per-message overhead). Never fails;
 * an unknown profile counts as the reference profile. */
uint64_t mf_estimate_text(const char *text, size_t len, mf_profile profile);

/* Unicode code points in UTF-8 text (an invalid byte counts as one). */
size_t mf_count_code_points(const char *text, size_t len);

/* The estimate of a whole document in milli-tokens. A conversation is walked by its
 * structure (see src/estimate.c for the costs of messages, images and documents); any
 * other value by its keys and values. `format` may be AUTO. */
mf_status mf_doc_estimate(const mf_doc *doc, mf_format format, mf_profile profile,
                          uint64_t *out_milli, mf_error *err);

/* One message's figures, for a caller that keeps them per message and estimates only
 * what is new (the JS wrapper's EstimateCache): a message's estimate does not depend on
 * the messages around it. */
typedef struct mf_msg_figures {
    uint64_t milli;   /* its estimate in milli-tokens (the sum over a list is mf_doc_estimate's) */
    uint64_t results; /* milli-tokens of its tool results not yet cleared: all that
                         micro-compaction could ever free there */
    unsigned flags;   /* MF_FIGURES_* */
} mf_msg_figures;

#define MF_FIGURES_RESULTS 1u    /* it holds tool results */
#define MF_FIGURES_COMPACTION 2u /* it holds the provider's own compaction (the window starts there) */

/* The figures of each of a list's `count` messages into `out` (the caller's array of
 * `count`); MF_ERR_INVALID_ARG when the document does not hold exactly `count` messages.
 * Each message is read whole, whatever the provider's window. `format` may be AUTO. */
mf_status mf_doc_estimate_each(const mf_doc *doc, mf_format format, mf_profile profile,
                               mf_msg_figures *out, size_t count, mf_error *err);

/* ---- serialization ---------------------------------------------------------------- */

/* Writes the transcript of a conversation (the format read by summarizers: "[role]"
 * headers, "[tool_use:NAME] {json}", "[tool_result:NAME] text", a blank line between
 * messages). On success *out is a NUL-terminated UTF-8 string of *out_len bytes that
 * the caller releases with mf_free. */
mf_status mf_doc_serialize(const mf_doc *doc, mf_format format, char **out, size_t *out_len,
                           mf_error *err);

/* ---- micro-compaction ------------------------------------------------------------- */

typedef struct mf_micro_options {
    uint32_t keep_recent;        /* tool-result turns kept whole, counted from the end (3) */
    const char *const *exclude_tools; /* tool names never cleared (borrowed) */
    size_t exclude_count;
    uint64_t clear_at_least;     /* tokens: clear nothing unless at least this many are freed */
    uint64_t trigger;            /* tokens: clear nothing while the estimate is at or below */
    mf_profile profile;
    int per_message;             /* 1: the plan also holds every message's figures (as
                                    mf_doc_estimate_each gives them), from the same pass */
    int clear_tool_inputs;       /* 1: the calls of cleared results (cleared now or before) lose
                                    their large input strings too (MF_EDIT_CALL_*, micro_inputs.c) */
    const uint8_t *recall_key;   /* the conversation's recall secret (borrowed), or NULL: with it
                                    every marker names its result's recall id (mf_recall_id) */
    size_t recall_key_len;       /* 0: no ids, the markers as without recall, byte for byte */
} mf_micro_options;

/* ---- recall ids (recall_id.c) ---------------------------------------------------- */

/* An id is "r" and 8 characters of 0-9a-z without i, l, o, u (40 bits). */
#define MF_RECALL_ID_LEN 9
/* HMAC-SHA-256 (RFC 2104) of `data` under `key` (any length; NULL with length 0) into out.
 * Borrows its inputs for the call. */
void mf_hmac_sha256(const uint8_t *key, size_t key_len, const void *data, size_t len, uint8_t out[32]);
/* The recall id of `data` under the conversation's secret `key`: "r" and the first 40 bits of
 * their HMAC-SHA-256 in base32, written to out (no NUL). A marker's id is that of
 * "result" NUL NAME NUL and the result's content as JSON (mf_write_json); the host names a
 * fold's range with "fold" NUL, its message count, NUL and its transcript (js/recall/fold.js).
 * Borrows its inputs for the call. */
void mf_recall_id(const uint8_t *key, size_t key_len, const void *data, size_t len, char out[MF_RECALL_ID_LEN]);

/* Fills the defaults: keep_recent 3, nothing excluded, no minimum, no trigger, no recall key. */
void mf_micro_options_init(mf_micro_options *options);

/* How a replacement is written back into the caller's message. */
typedef enum mf_edit_target {
    MF_EDIT_BLOCK_CONTENT = 1,   /* messages[m].content[p].content = text (Anthropic tool_result) */
    MF_EDIT_MESSAGE_CONTENT = 2, /* messages[m].content = text (OpenAI role "tool") */
    MF_EDIT_PART_OUTPUT = 3,     /* messages[m].content[p].output = {type: "text", value: text} (AI SDK 5) */
    MF_EDIT_PART_OUTPUT_ERROR = 4, /* ... output = {type: "error-text", value: text} (AI SDK 5, error) */
    MF_EDIT_PART_RESULT = 5,     /* messages[m].content[p].result = text (AI SDK 4) */
    MF_EDIT_ITEM_OUTPUT = 6,     /* messages[m].output = text (an OpenAI Responses output item) */
    /* AI SDK UIMessage tool parts (values of their own, apart from other adapters' targets) */
    MF_EDIT_UI_OUTPUT = 16,      /* messages[m].parts[p].output = text (state output-available) */
    MF_EDIT_UI_ERROR_TEXT = 17,  /* messages[m].parts[p].errorText = text (state output-error) */
    /* Anthropic server-tool results, whose content cannot become a string: the text goes
     * into the one field that holds the output (docs/anthropic-blocks.md). */
    MF_EDIT_RESULT_STDOUT = 20,  /* ... .content = {...content, stdout: text, stderr: ""} (code execution) */
    MF_EDIT_RESULT_VIEW = 21,    /* ... .content = {...content, content: text, file_type: "text"} (text editor view) */
    MF_EDIT_RESULT_FETCHED = 22, /* ... .content.content.source = {type: "text", media_type: "text/plain",
                                    data: text} (web fetch: the fetched document) */
    /* A cleared call's input (clear_tool_inputs): the text is the whole new input as JSON,
     * an object written as a value where the format holds a value, as a string where it
     * holds a string of JSON. */
    MF_EDIT_CALL_INPUT = 30,     /* messages[m].content[p].input = value (Anthropic tool_use, AI SDK tool-call) */
    MF_EDIT_CALL_ARGS = 31,      /* messages[m].content[p].args = value (AI SDK 4 tool-call, LangChain tool_call block) */
    MF_EDIT_UI_INPUT = 32,       /* messages[m].parts[p].input = value (AI SDK UIMessage tool part) */
    MF_EDIT_CALL_ARGUMENTS = 33, /* messages[m].tool_calls[p].function.arguments = text (OpenAI Chat) */
    MF_EDIT_MESSAGE_CALL_ARGS = 34, /* messages[m].tool_calls[p].args = value (LangChain AIMessage) */
    MF_EDIT_ITEM_ARGUMENTS = 35  /* messages[m].arguments = text (an OpenAI Responses function_call) */
} mf_edit_target;

typedef struct mf_micro_edit {
    size_t message;              /* index in the messages list */
    size_t part;                 /* index in that message's content list (unused for MESSAGE_CONTENT) */
    mf_edit_target target;
    const char *tool_name;       /* borrowed from the plan */
    size_t tool_name_len;
    size_t chars;                /* code points of the original result (a call's input: of the
                                    strings replaced) */
    const char *replacement;     /* "[truncated: NAME result, N chars]", borrowed from the plan; for
                                    a call's input (MF_EDIT_CALL_*), the new input as JSON text */
    size_t replacement_len;
    char recall_id[9];           /* with a recall key: the id the marker names ("r" and 8 base32
                                    characters, no NUL), which the host archives the result under */
    size_t recall_id_len;        /* 0 without a recall key, else MF_RECALL_ID_LEN */
} mf_micro_edit;

/* One thinking part and its estimate. A provider that binds signed thinking to the
 * conversation before it (Anthropic's newer models) rejects it once an edit lands earlier;
 * a caller that drops it after applying the edits takes its `milli` off milli_after. */
typedef struct mf_thinking_cost {
    size_t message;              /* index in the messages list */
    size_t part;                 /* index in that message's content (or parts) list; SIZE_MAX when
                                    it lives beside the content (an OpenAI Chat message's reasoning) */
    uint64_t milli;              /* what it adds to its message's estimate */
} mf_thinking_cost;

/* One signed part that goes because the conversation before it changed (docs/thinking.md):
 * the provider would refuse it (Anthropic's prefix-bound signatures, Bedrock's, OpenRouter's
 * details). Finished turns may leave their thinking out; an in-flight loop never has any to
 * drop, since every edit waits for it. */
typedef enum mf_drop_kind {
    MF_DROP_PART = 1,            /* remove content[part] (or parts[part]) */
    MF_DROP_DETAILS = 2,         /* call part content[part]: remove providerOptions / providerMetadata /
                                    callProviderMetadata / resultProviderMetadata .openrouter.reasoning_details */
    MF_DROP_BESIDE = 3           /* remove the message's reasoning_details and reasoning (Chat Completions) */
} mf_drop_kind;

#define MF_META_PROVIDER_OPTIONS 1u   /* providerOptions (a ModelMessage's call part) */
#define MF_META_PROVIDER_METADATA 2u  /* providerMetadata (a step's content) */
#define MF_META_CALL 4u               /* callProviderMetadata (a UIMessage tool part) */
#define MF_META_RESULT 8u             /* resultProviderMetadata (a UIMessage tool part) */

typedef struct mf_signed_drop {
    size_t message;              /* index in the messages list */
    size_t part;                 /* index in its content (or parts) list; SIZE_MAX for MF_DROP_BESIDE */
    mf_drop_kind kind;
    size_t count;                /* parts it removes: 1, or BESIDE's reasoning_details entries */
    int alone;                   /* 1: the message holds nothing else (a fold removes the message) */
    unsigned keys;               /* MF_DROP_DETAILS: which metadata hold the details (MF_META_*) */
    uint64_t milli;              /* what it takes off its message's estimate */
} mf_signed_drop;

/* A micro-compaction plan: the edits to apply, in message order, and its figures. */
typedef struct mf_micro_plan {
    mf_micro_edit *edits;
    size_t count;
    size_t chars_cleared;        /* sum of the edits' `chars` */
    uint64_t milli_before;       /* estimate of the whole conversation before */
    uint64_t milli_after;        /* estimate after applying every edit */
    int skipped;                 /* 1 when `trigger` or `clear_at_least` stopped it (count 0) */
    mf_msg_figures *figures;     /* with per_message: one per message, owned by the plan; else NULL */
    size_t figure_count;
    mf_thinking_cost *thinking;  /* when there are edits: every thinking or redacted-thinking part of
                                    an assistant message from the first edited message on, in order;
                                    owned by the plan (NULL when there are none) */
    size_t thinking_count;
    size_t in_flight;            /* the message of a signed tool loop in flight, or SIZE_MAX: a caller
                                  * whose provider binds signatures to their prefix applies no edit */
    int in_flight_open;          /* 1: messages before the list could change that answer (it read back
                                    to the first one: a list that is the end of a longer one) */
    mf_signed_drop *drops;       /* when there are edits: the signed parts they make go, in order
                                    (messages before the first edit keep theirs); owned by the plan */
    size_t drop_count;
    uint64_t milli_drops;        /* what the drops take off milli_after (not taken off: a caller whose
                                    provider does not bind signatures keeps them) */
    mf_format format;            /* the format the conversation was read in (the detected one when
                                    MF_FORMAT_AUTO was asked): what a rebuild writes its messages in */
} mf_micro_plan;

/* Plans micro-compaction; the document is not modified. On success *out receives a plan
 * to release with mf_micro_plan_free. `options` may be NULL for the defaults. */
mf_status mf_doc_micro_plan(const mf_doc *doc, mf_format format, const mf_micro_options *options,
                            mf_micro_plan **out, mf_error *err);
void mf_micro_plan_free(mf_micro_plan *plan);

/* ---- validation ------------------------------------------------------------------ */

typedef enum mf_problem_code {
    MF_PROBLEM_NOT_A_MESSAGE = 1,       /* an entry that is not an object with a string role */
    MF_PROBLEM_UNKNOWN_ROLE = 2,
    MF_PROBLEM_BAD_CONTENT = 3,         /* content of a type the format does not allow */
    MF_PROBLEM_UNKNOWN_BLOCK = 4,       /* a block/part type the format does not define */
    MF_PROBLEM_CALL_WITHOUT_RESULT = 5, /* a tool call that no following result answers */
    MF_PROBLEM_RESULT_WITHOUT_CALL = 6, /* a tool result whose call is not right before it */
    MF_PROBLEM_RESULT_NOT_FIRST = 7,    /* Anthropic: tool_result after other blocks */
    MF_PROBLEM_MISSING_ID = 8,          /* a tool call or result without its id */
    MF_PROBLEM_DUPLICATE_ID = 9,        /* two tool calls with the same id */
    MF_PROBLEM_MISSING_REASONING = 10,  /* Chat Completions: a tool-calling assistant message without
                                           the reasoning_content others carry (DeepSeek thinking mode) */
    MF_PROBLEM_CONSECUTIVE_ROLE = 11    /* a user or assistant message right after one of the same role
                                           (Anthropic merges them; deepseek-reasoner refuses them) */
} mf_problem_code;

/* "not-a-message", "unknown-role", ... Static. */
const char *mf_problem_name(mf_problem_code code);

/* An error breaks a rule the provider enforces; a warning is something midfold cannot
 * check (a block type it does not know yet), kept and priced by its text. */
typedef enum mf_severity { MF_SEVERITY_ERROR = 0, MF_SEVERITY_WARNING = 1 } mf_severity;

typedef struct mf_problem {
    mf_problem_code code;
    size_t message;      /* index of the message */
    size_t part;         /* index of the block/part, or SIZE_MAX when it is about the message */
    const char *text;    /* a sentence explaining it, NUL-terminated, borrowed from the report */
    mf_severity severity;
} mf_problem;

typedef struct mf_validation {
    mf_format format;    /* the format the rules came from */
    mf_problem *problems;
    size_t count;
} mf_validation;

/* Lists every provider rule the conversation breaks. A value that is not a list of
 * messages gives one problem, not an error. Release the report with mf_validation_free. */
mf_status mf_doc_validate(const mf_doc *doc, mf_format format, mf_validation **out, mf_error *err);
void mf_validation_free(mf_validation *report);

/* ---- compaction plan -------------------------------------------------------------- */

typedef enum mf_language {
    MF_LANG_AUTO = 0,        /* Chinese when the user's own text is mostly CJK, else English */
    MF_LANG_EN = 1,
    MF_LANG_ZH = 2
} mf_language;

typedef struct mf_compact_options {
    uint64_t keep_tail_tokens;      /* recent messages kept verbatim beyond the pending turn */
    uint64_t max_transcript_tokens; /* cap on the serialized middle (0: no cap) */
    uint32_t max_summary_tokens;    /* the length asked of the summary */
    mf_language language;
    const char *language_code;      /* with MF_LANG_EN: another language to write in ("fr"), or NULL */
    const char *instructions;       /* a focus for the summary (a /compact argument), or NULL */
    size_t instructions_len;
    mf_profile profile;
    uint64_t keep_tail_messages;    /* a second floor: the tail holds at least this many non-system
                                     * messages (moved back to where no call is parted from its
                                     * results); 0: the token budget alone */
    const mf_micro_edit *edits;     /* micro-compaction's edits (mf_micro_plan.edits, or a subset):
                                     * the plan reads the conversation as they leave it, as if
                                     * applied first (js/core/apply.js), so a fold's plan needs no
                                     * edited copy encoded again; borrowed, NULL when edit_count is 0 */
    size_t edit_count;
    const uint64_t *message_milli;  /* each message's estimate before the edits, from a pass over
                                     * the same document (mf_micro_plan.figures[m].milli, read in
                                     * message_format): the plan estimates only the edited messages
                                     * itself. Borrowed; used only when message_count is the number
                                     * of messages and message_format the one the plan reads them in */
    size_t message_count;
    mf_format message_format;
} mf_compact_options;

/* keep_tail_tokens 10000, max_transcript_tokens 60000, max_summary_tokens 2000, AUTO,
 * keep_tail_messages 0, no edits, no figures. */
void mf_compact_options_init(mf_compact_options *options);

/* Where to cut and what to send. The conversation is cut in three: the head (system
 * messages before the tail, kept), the middle (summarized) and the tail (kept verbatim,
 * from `tail_start` to the end: at least the pending user turn, never cut between a
 * tool call and its result). Every message before tail_start is in the head, in the middle,
 * or among the ignored_count ones before the provider's own compaction. */
typedef struct mf_compact_plan {
    size_t tail_start;
    size_t *head;              /* indices of the kept system messages before tail_start */
    size_t head_count;
    size_t *middle;            /* indices of the summarized messages */
    size_t middle_count;
    mf_language language;      /* the language chosen (EN or ZH) */
    char *system;              /* the summarizer's system prompt (NUL-terminated) */
    size_t system_len;
    char *prompt;              /* instructions plus the transcript of the middle */
    size_t prompt_len;
    const char *acknowledgement; /* the assistant reply after the summary (static) */
    size_t transcript_chars;   /* code points of the transcript sent */
    size_t shrunk_results;     /* tool results shortened in the transcript to fit the cap */
    size_t omitted_messages;   /* oldest middle messages left out to fit the cap */
    uint64_t milli_middle;     /* estimate of the middle messages */
    uint64_t milli_tail;       /* estimate of the tail */
    int only_previous_summary; /* 1 when the middle is just an earlier summary (and its reply) */
    size_t ignored_count;      /* other messages before the provider's last compaction block or
                                  item: the provider no longer reads them, so they are neither
                                  head nor middle (the rebuild drops them; its summary covers them) */
    size_t in_flight;          /* the message of a signed tool loop in flight, or SIZE_MAX */
    mf_signed_drop *drops;     /* the tail's signed parts a fold drops (their prefix changes), in
                                  order; owned by the plan (NULL when there are none) */
    size_t drop_count;
} mf_compact_plan;

/* Plans a compaction; the document is not modified. Release with mf_compact_plan_free.
 * `options` may be NULL for the defaults. An empty middle is not an error: middle_count
 * is 0. With options->edits, the plan is the one of the conversation those edits leave
 * (indices unchanged: an edit replaces a result, never a message); an edit that fits no
 * message is MF_ERR_INVALID_ARG. */
mf_status mf_doc_compact_plan(const mf_doc *doc, mf_format format, const mf_compact_options *options,
                              mf_compact_plan **out, mf_error *err);
void mf_compact_plan_free(mf_compact_plan *plan);

/* A summary written without a model: the user's requests and the latest value of each
 * constraint they stated, the latest test state and the last error of each failing tool
 * with its exit status, the files and identifiers touched, the assistant's decisions with
 * their reasons and latest conclusions, the tool activity (names, key arguments, counts,
 * errors), within max_tokens (estimated; 0: 2,000). Deterministic. On success *out is
 * NUL-terminated text for mf_free. */
mf_status mf_doc_digest(const mf_doc *doc, mf_format format, uint32_t max_tokens, mf_language language,
                        mf_profile profile, char **out, size_t *out_len, mf_error *err);

#ifdef __cplusplus
}
#endif
#endif /* MIDFOLD_H */
