/* harness.h — text an agent's harness puts in the user's turn, told from what the user wrote
 * (harness.c): Claude Code's <system-reminder>, <command-name>, <local-command-stdout>,
 * <task-notification> and interruption lines, Codex CLI's AGENTS.md, <environment_context>
 * and <turn_aborted>, and the summaries both leave after a compaction. Decided by shape (a
 * whole turn wrapped in a tag no HTML page uses; a bracketed line; the harness's own opening
 * words), so a new tag of the same shape is recognised too. Not installed. */
#ifndef MIDFOLD_HARNESS_H
#define MIDFOLD_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

/* The first line of a summary message midfold writes (itself a harness of the user's turn). */
#define MF_SUMMARY_MARK "[Context Compressed]"

typedef enum mf_user_text {
    MF_USER_OWN = 0,         /* the user's own words (what is left once the envelopes are gone) */
    MF_USER_HARNESS,         /* nothing but the harness's text */
    MF_USER_SUMMARY          /* a summary a compaction left: an earlier part of the conversation */
} mf_user_text;

/* What a text part of a user message is. For MF_USER_OWN, *own / *own_len (when given) are
 * the user's words, trimmed, with leading and trailing harness envelopes removed; for
 * MF_USER_SUMMARY, the summary without the harness's framing sentences. Both borrow `text`. */
mf_user_text mf_user_text_kind(const char *text, size_t len, const char **own, size_t *own_len);

#endif
