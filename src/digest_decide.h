/* digest_decide.h — which sentences of the assistant's text state a decision
 * (digest_decide.c). Not installed. */
#ifndef MIDFOLD_DIGEST_DECIDE_H
#define MIDFOLD_DIGEST_DECIDE_H

#include "digest_text.h"

/* 2 when the sentence states a choice with its reason ("I'll use X because Y", "Switching to
 * Y since …", 改用…因为…), 1 for a choice without one ("We keep Z", "Decided to…", "I'll pin
 * X"), else 0: a question, or narration of the work itself ("Let me check…", "I'll run the
 * tests", 先看一下…). */
int mf_sentence_is_decision(mf_span sentence);
/* True when a sentence narrates the work rather than saying anything about it ("Let me check
 * the config.", "Now let me run the tests.", 先看一下…). */
bool mf_sentence_is_narration(mf_span sentence);
/* True when a sentence gives the reason for the one before it ("Because …", "That way …",
 * "Otherwise …", 因为…, 这样…). */
bool mf_sentence_is_reason(mf_span sentence);

#endif
