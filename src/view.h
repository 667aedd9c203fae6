/* view.h — the normalized view of a conversation (view.c) and what builds it:
 * the format adapters and the readers of the blocks they know. Not installed. */
#ifndef MIDFOLD_VIEW_H
#define MIDFOLD_VIEW_H

#include "media.h"

/* ---- the normalized view (view.c and the format adapters) ------------------------ */
typedef enum mf_role {
    MF_ROLE_SYSTEM = 0, MF_ROLE_USER = 1, MF_ROLE_ASSISTANT = 2, MF_ROLE_TOOL = 3,
    MF_ROLE_UNKNOWN = 4
} mf_role;

typedef enum mf_part_kind {
    MF_PART_TEXT = 0, MF_PART_THINKING, MF_PART_REDACTED_THINKING, MF_PART_TOOL_CALL,
    MF_PART_TOOL_RESULT, MF_PART_IMAGE, MF_PART_DOCUMENT, MF_PART_OTHER,
    MF_PART_APPROVAL         /* AI SDK tool-approval-request / -response: id is the approvalId */
} mf_part_kind;

/* Whether a block carries a provider's signature over the model's thinking (signed.c): what
 * makes a tool loop in flight wait for its turn boundary and what a changed prefix makes the
 * provider refuse. */
typedef enum mf_signing {
    MF_SIGNING_NONE = 0,
    MF_SIGNING_THINKING,     /* signed thinking: Anthropic thinking / redacted_thinking, an AI SDK
                                reasoning part signed by Anthropic, Bedrock or OpenRouter, a
                                redacted-reasoning part; goes from a turn whose prefix changed */
    MF_SIGNING_DETAILS,      /* a call part carrying OpenRouter's signed reasoning_details (sent as
                                the step's thinking): the details go, the call stays */
    MF_SIGNING_ENCRYPTED     /* OpenAI's encrypted reasoning (a Responses reasoning item, an AI SDK
                                reasoningEncryptedContent part): edits wait, it is never removed */
} mf_signing;

/* What a block gives the model and the summarizer, told to a reader by a reader function
 * (an adapter's; read.c for blocks none knows), whose sinks are the estimate, the transcript
 * and the marker's count (result.h): `text` is read by the model (priced, written, counted),
 * `label` frames it in the transcript only,
 * `value` is a JSON value read by its keys and values (tool input), `media` is billed by
 * the unit (images; document pages), never as text. */
typedef struct mf_reader {
    void (*text)(void *ctx, const char *s, size_t len);
    void (*label)(void *ctx, const char *s, size_t len);
    void (*value)(void *ctx, const mf_node *node);
    void (*media)(void *ctx, bool image, uint64_t units);
    void *ctx;
} mf_reader;
/* Tells `r` what `node` reads as; false (and nothing told) when it is no block it knows. */
typedef bool (*mf_read_fn)(const mf_reader *r, const mf_node *node);

typedef struct mf_part {
    mf_part_kind kind;
    size_t index;            /* position in the message's content list; SIZE_MAX when the part
                                is the message's own string content or lives outside `content` */
    const mf_node *node;     /* the block/part itself (or the message for OpenAI tool messages) */
    const char *text; size_t text_len;  /* TEXT, THINKING: the text; DOCUMENT: its title */
    const char *id; size_t id_len;      /* TOOL_CALL, TOOL_RESULT */
    const char *name; size_t name_len;  /* TOOL_CALL; TOOL_RESULT when the format carries it */
    const mf_node *args;     /* TOOL_CALL: an object, or a string of JSON (OpenAI) */
    const mf_node *content;  /* TOOL_RESULT: string, list of blocks, or AI SDK output value */
    const mf_node *type;     /* the block's "type" string, when it has one */
    bool is_error;           /* TOOL_RESULT; APPROVAL: the response denies */
    mf_edit_target target;   /* TOOL_RESULT: how a replacement is written back; 0: never rewritten */
    bool pinned;             /* never edited: a decision (an execution denial) */
    bool pending;            /* unfinished (awaiting an approval, an output, still streaming):
                                never edited, never folded into a summary */
    bool unmatched;          /* APPROVAL: its call (request) or request (response) is missing */
    mf_media media;          /* IMAGE, DOCUMENT: what the provider bills (media.c); zeroed: unknown */
    size_t opaque_len;       /* REDACTED_THINKING: bytes of an encrypted payload the model reads
                                decrypted (an OpenAI compaction item), priced by its size */
    bool same_message;       /* TOOL_CALL, TOOL_RESULT run by the provider (Anthropic server tools,
                                the MCP connector): call and result sit in one assistant message */
    mf_read_fn read;         /* when set, how the block reads (estimate, transcript) beyond its kind */
    mf_signing signing;      /* set by adapt_add from the block's own shape (mf_block_signing); a
                                Responses reasoning item's parts by its adapter */
} mf_part;

typedef struct mf_msg {
    mf_role role;
    const mf_node *node;     /* the message object */
    const mf_node *role_node;
    mf_part *parts;
    size_t count;
    bool string_content;     /* content was one string (a single TEXT part) */
    bool self_contained;     /* its results answer its own calls (a UIMessage): a cut may fall before it */
    bool item;               /* one item of a flat item list (OpenAI Responses): consecutive items of
                                one role are one turn */
    bool joined;             /* no cut may fall right before this message: it belongs with the one
                                before (the item after a reasoning item, items inside a call pair) */
    bool signed_details;     /* its reasoning_details (beside the content) hold signed or encrypted
                                entries (OpenRouter's Chat Completions: Claude's, Gemini's thinking) */
} mf_msg;

typedef struct mf_view {
    mf_format format;
    mf_msg *msgs;
    size_t count;
    mf_arena arena;
} mf_view;

/* Builds the view of a document's messages in `format` (AUTO detects). Fails with
 * MF_ERR_SHAPE when the document holds no conversation, MF_ERR_FORMAT when AUTO cannot
 * tell the format. Free with mf_view_free. */
mf_status mf_view_build(const mf_doc *doc, mf_format format, mf_view *view, mf_error *err);
void mf_view_free(mf_view *view);

/* Format adapters: fill msg->parts from the message node. They never fail on odd
 * shapes (validation reports those); only allocation can fail. */
mf_status mf_adapt_anthropic(mf_arena *arena, mf_msg *msg);
mf_status mf_adapt_openai(mf_arena *arena, mf_msg *msg);
mf_status mf_adapt_aisdk(mf_arena *arena, mf_msg *msg);
mf_status mf_adapt_aisdk_ui(mf_arena *arena, mf_msg *msg);
mf_status mf_adapt_langchain(mf_arena *arena, mf_msg *msg);
/* The `type` string of a LangChain dict-form message ("human", "ai", "system", "tool",
 * "generic", "function", with a `content` member), else NULL (adapt_langchain.c). */
const mf_node *mf_langchain_type(const mf_node *msg);
/* A LangChain dict-form message's role: by its type, a ChatMessage's by its `role`. */
mf_role mf_langchain_role(const mf_node *msg);
/* Links AI SDK approval parts to their calls and requests and marks what is still
 * unanswered as pending (adapt_aisdk.c); runs after mf_view_link_results. */
mf_status mf_aisdk_link_approvals(mf_view *view);
/* True for an AI SDK configuration update: a system message with empty content whose
 * providerOptions carry reasoningEffortUpdate or textFormatUpdate (@ai-sdk/openai turns it
 * into a Responses `configuration_update` item). */
bool mf_aisdk_is_configuration_update(const mf_node *msg);
/* True when a part of the message is pending (view.c). */
bool mf_msg_has_pending(const mf_msg *msg);

/* OpenAI Responses input items (adapt_openai_responses.c). An item's role is its own
 * `role` or, for items without one, inferred from its type (calls: assistant; outputs:
 * tool). */
mf_status mf_adapt_openai_responses(mf_arena *arena, mf_msg *msg);
mf_role mf_responses_role(const mf_node *item);
/* True for an object whose "type" names a Responses input item that has no role. */
bool mf_responses_is_item(const mf_node *n);
/* True when the message can only be a Responses item (an item type, or input_* /
 * output_text content parts). */
bool mf_responses_evidence(const mf_node *msg);
/* True for a `configuration_update` item (a reasoning effort or text format that holds for
 * the responses after it; docs/openai-responses.md). */
bool mf_responses_is_configuration_update(const mf_node *item);
/* Marks the items no cut may fall before (msg->joined), once every item is read
 * (responses_join.c). */
mf_status mf_responses_join(mf_view *view);

/* The providers' own compaction (an Anthropic `compaction` block with its summary, an
 * OpenAI `compaction` item): the provider reads the conversation from the last one on and
 * ignores what came before, so estimates count from there, micro-compaction edits nothing
 * before it, and a fold never puts a summary before it (docs/provider-rules.md). view.c */
bool mf_part_is_compaction(const mf_part *part);
bool mf_msg_has_compaction(const mf_msg *msg);
/* The index of the last message holding one, or 0 when there is none. */
size_t mf_view_window_start(const mf_view *view);

/* True when the message holds at least one tool result (view.c). */
bool mf_msg_has_results(const mf_msg *msg);

/* Gives every tool result without a name of its own the name of the latest earlier
 * call with the same id (view.c); results that match no call keep name NULL. */
mf_status mf_view_link_results(mf_view *view);

/* ---- which blocks are signed (signing.c: a leaf the adapters call) ----------------- */
/* How `block` (of `type`, its "type" string or NULL) is signed, in any format. */
mf_signing mf_block_signing(const mf_node *block, const mf_node *type);
/* True for an Anthropic tool_use, AI SDK tool-call, UIMessage tool-NAME or dynamic-tool type. */
bool mf_block_is_call(const mf_node *type);
/* True for an OpenRouter reasoning_details list with a signed or an encrypted entry. */
bool mf_signed_details(const mf_node *details);
/* Which metadata of a call part carry OpenRouter's signed details (MF_META_*; 0: none). */
unsigned mf_details_keys(const mf_node *block);
/* True for a Responses reasoning item with its encrypted_content. */
bool mf_responses_reasoning_encrypted(const mf_node *item);
/* True for a value JavaScript takes as true (a non-empty string, a number other than 0, true,
 * a list, an object, binary data): the wire rules are written against the SDKs' JS checks. */
bool mf_truthy(const mf_node *n);

/* ---- what signed thinking means for an edit (signed.c) --------------------------- */
/* True when a block of the message's content (or parts), or its reasoning_details, is signed. */
bool mf_msg_signed(const mf_msg *msg);
/* The index of the message holding a tool loop in flight whose thinking is signed, or SIZE_MAX.
 * In flight: that assistant message made tool calls and the conversation ends with it (its calls
 * wait) or with their results, nothing the user wrote after; a Responses list, with a trailing
 * run of reasoning, call and output items whose reasoning is encrypted (the run's first such
 * item). *open: messages before the list could change the answer (it read back to the first). */
size_t mf_view_in_flight(const mf_view *v, bool *open);
/* The signed parts of the assistant messages from `from` on that a fold drops from the kept
 * turns (their prefix changed): built in `arena`, *out NULL when there are none. MF_ERR_NOMEM. */
mf_status mf_view_fold_drops(const mf_view *v, size_t from, mf_profile profile, mf_arena *arena,
                             mf_signed_drop **out, size_t *count);
/* The signed parts an edit at message `message`, part `part` (SIZE_MAX: the message itself)
 * makes go: those of every later assistant message that holds something else (an edit keeps
 * the list's length), and, when that message is a UIMessage (a whole tool loop), its own from
 * the edited part on. Built in `arena`. MF_ERR_NOMEM. */
mf_status mf_view_edit_drops(const mf_view *v, size_t message, size_t part, mf_profile profile, mf_arena *arena,
                             mf_signed_drop **out, size_t *count);

/* ---- blocks read by their readable text (read.c, adapt_anthropic.c) -------------- */
/* The Anthropic blocks beyond text/image/tool_use/tool_result (server-tool results and
 * their content objects, search results, documents, MCP calls, container uploads): true
 * when `node` is one of them. Anthropic's type names are its own, so this is safe on any
 * format's content. adapt_anthropic.c */
bool mf_anthropic_read(const mf_reader *r, const mf_node *node);
/* Any other block: "[block: TYPE] " (its type is content, never a marker's word), then
 * its text fields (strings not under an opaque key such as encrypted_content, signature,
 * data, id); always true. read.c */
bool mf_read_text_fields(const mf_reader *r, const mf_node *node);
/* The string a micro-compaction marker replaces inside a result's content object (stdout
 * of a code execution, a viewed file, a fetched page), or NULL. adapt_anthropic.c */
const mf_node *mf_anthropic_marker_node(const mf_node *content);
/* A server-tool result's content as edit `target` (MF_EDIT_RESULT_*) leaves it, with `text`
 * as its output: what js/core/apply.js writes, built in `arena` (values borrowed), so the plan
 * prices the result it leaves exactly. NULL on OOM or when the target does not apply. */
const mf_node *mf_anthropic_cleared(mf_arena *arena, const mf_node *content, mf_edit_target target, const char *text,
                                    size_t len);

/* ---- a document with micro-compaction's edits applied (edited.c) ----------------------- */
/* `doc` as the edits leave it, as js/core/apply.js applies them to a copy: *out shares doc's
 * nodes except the list of messages and, for each edited message, the message, its list and
 * the edited block, copied into `arena` with the replacement in place (its text borrowed from
 * the edit). *out is a view of doc and of `arena`: read it while both live, never free it.
 * An edit that points at nothing it could apply to is MF_ERR_INVALID_ARG (its message as the
 * position); count 0 gives doc itself. */
mf_status mf_doc_edited(const mf_doc *doc, const mf_micro_edit *edits, size_t count, mf_arena *arena, mf_doc *out,
                        mf_error *err);

#endif /* MIDFOLD_VIEW_H */
