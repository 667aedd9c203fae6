/* prompt.h — the words sent to the summarizer, in English and Chinese. */
#ifndef MIDFOLD_PROMPT_H
#define MIDFOLD_PROMPT_H

#include "harness.h"
#include "view.h"

/* The summarizer's system prompt. Static. */
const char *mf_prompt_system(mf_language language);
/* Writes the instructions: what to keep and drop, the length, the language, the focus. */
void mf_prompt_instructions(mf_buf *b, const mf_compact_options *o, mf_language language, bool has_previous);
/* The assistant's reply after the summary message. Static. */
const char *mf_prompt_acknowledgement(mf_language language);
/* The language of the user's own text (user messages' text parts, never tool results nor
 * the harness's text, harness.h):
 * Chinese when CJK code points are at least a third of the ASCII letters and digits
 * (a Chinese character carries about as much as a short English word), else English. */
mf_language mf_detect_language(const mf_view *view);

#endif
