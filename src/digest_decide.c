/* digest_decide.c — which sentences of the assistant's text state a decision. A
 * continuation that forgets why X was chosen tends to undo it, so the digest keeps these with
 * their reasons. A decision is a choice in so many words ("Decided to pin date-fns-tz",
 * "Switching the tests to ioredis-mock", "We keep one middleware", "instead of", 决定、改用、
 * 采用、保留), or an intention ("I'll", "we'll", "let's", 我会、打算) to do something other
 * than look around: "Let me check …", "I'll run the tests", 先看一下 narrate the work and
 * decide nothing. Its reason is a clause ("because", "since", "so that", 因为、所以、为了) or
 * the next sentence ("That way …", 这样…). */
#include "digest_decide.h"

#include <string.h>

static const char *const STRONG[] = {
    "decided", "decide to", "decision:", "i chose", "we chose", "chose to", "going with", "go with", "opted",
    "switch to", "switched to", "switching", "instead of", "rather than", "settled on", "the fix is", "stick with",
    "sticking with", "we keep", "i'll keep", "we'll keep", "i'll use", "we'll use", "i will use", "we will use",
    "i'm using", "we're using", "prefer to",
    "\xE5\x86\xB3\xE5\xAE\x9A",             /* 决定 */
    "\xE6\x94\xB9\xE7\x94\xA8",             /* 改用 */
    "\xE6\x94\xB9\xE6\x88\x90",             /* 改成 */
    "\xE6\x94\xB9\xE4\xB8\xBA",             /* 改为 */
    "\xE6\x8D\xA2\xE6\x88\x90",             /* 换成 */
    "\xE9\x80\x89\xE6\x8B\xA9",             /* 选择 */
    "\xE9\x87\x87\xE7\x94\xA8",             /* 采用 */
    "\xE5\xB0\xB1\xE7\x94\xA8",             /* 就用 */
    "\xE4\xB8\x8D\xE5\x8E\xBB",             /* 不去 */
    "\xE4\xBF\x9D\xE7\x95\x99",             /* 保留 */
    "\xE8\x80\x8C\xE4\xB8\x8D\xE6\x98\xAF", /* 而不是 */
    NULL};
static const char *const INTENT[] = {
    "i'll ", "i will ", "we'll ", "we will ", "let's ", "we should", "i should", "you should", "i'm going to",
    "we're going to", "better to", "the plan is", "i recommend", "i suggest", "it's safer to",
    "\xE6\x89\x93\xE7\xAE\x97",             /* 打算 */
    "\xE5\xBA\x94\xE8\xAF\xA5",             /* 应该 */
    "\xE5\xBB\xBA\xE8\xAE\xAE",             /* 建议 */
    "\xE6\x88\x91\xE4\xBC\x9A",             /* 我会 */
    NULL};
/* Openings that narrate the work: what comes next is looking, not choosing. */
static const char *const NARRATION[] = {
    "let me", "now let me", "let's see", "let's check", "let's look", "let's run", "let's read", "i'll start",
    "i'll read", "i'll check", "i'll look", "i'll run", "i'll search", "i'll inspect", "i'll open", "i'll examine",
    "i'll verify", "i'll confirm", "i'll see", "i'll try", "i'll test", "i'll investigate", "i'll explore",
    "i'll review", "i'll find", "i'll take a look", "i'll now", "i'll re-run", "i'll rerun", "first, let me",
    "\xE5\x85\x88\xE7\x9C\x8B",             /* 先看 */
    "\xE5\x86\x8D\xE7\x9C\x8B",             /* 再看 */
    "\xE7\x9C\x8B\xE4\xB8\x80\xE4\xB8\x8B", /* 看一下 */
    "\xE7\xA1\xAE\xE8\xAE\xA4\xE4\xB8\x80\xE4\xB8\x8B", /* 确认一下 */
    "\xE6\xA3\x80\xE6\x9F\xA5\xE4\xB8\x80\xE4\xB8\x8B", /* 检查一下 */
    "\xE6\x90\x9C\xE7\xB4\xA2\xE4\xB8\x80\xE4\xB8\x8B", /* 搜索一下 */
    "\xE8\xB7\x91\xE4\xB8\x80\xE4\xB8\x8B", /* 跑一下 */
    "\xE6\x88\x91\xE6\x9F\xA5", /* 我查 */
    "\xE6\x9F\xA5\xE4\xB8\x80\xE4\xB8\x8B", /* 查一下 */
    "\xE6\x88\x91\xE5\x85\x88\xE7\x9C\x8B", /* 我先看 */
    "\xE6\x88\x91\xE6\x9D\xA5\xE7\x9C\x8B", /* 我来看 */
    NULL};
static const char *const REASON[] = {
    "because", " since ", "so that", " as it", " as the", " as we", "given ", "due to", "to avoid", "which means",
    "otherwise", " so ", "so they", "so it",
    "\xE5\x9B\xA0\xE4\xB8\xBA",             /* 因为 */
    "\xE7\x94\xB1\xE4\xBA\x8E",             /* 由于 */
    "\xE6\x89\x80\xE4\xBB\xA5",             /* 所以 */
    "\xE5\x9B\xA0\xE6\xAD\xA4",             /* 因此 */
    "\xE4\xB8\xBA\xE4\xBA\x86",             /* 为了 */
    "\xE4\xBB\xA5\xE5\x85\x8D",             /* 以免 */
    "\xE6\x97\xA2\xE7\x84\xB6",             /* 既然 */
    NULL};
/* A change under way, stated with its reason: "Raising the pool to 40, because …". */
static const char *const CHANGING[] = {
    "raising", "lowering", "replacing", "moving", "pinning", "dropping", "removing", "adding", "using", "keeping",
    "making", "changing", "splitting", "caching", "limiting", "setting", "rewriting", "disabling", "enabling", NULL};
static const char *const REASON_OPENINGS[] = {
    "because", "since ", "that way", "this way", "otherwise", "so that", "this avoids", "this keeps", "the reason",
    "\xE5\x9B\xA0\xE4\xB8\xBA",             /* 因为 */
    "\xE7\x94\xB1\xE4\xBA\x8E",             /* 由于 */
    "\xE8\xBF\x99\xE6\xA0\xB7",             /* 这样 */
    "\xE5\x90\xA6\xE5\x88\x99",             /* 否则 */
    "\xE4\xBB\xA5\xE5\x85\x8D",             /* 以免 */
    NULL};

static bool has_any(mf_span s, const char *const *list)
{
    for (int i = 0; list[i]; i++) if (mf_span_has(s, list[i])) return true;
    return false;
}

static bool starts_any(mf_span s, const char *const *list)
{
    for (int i = 0; list[i]; i++) if (mf_span_starts(s, list[i])) return true;
    return false;
}

int mf_sentence_is_decision(mf_span sentence)
{
    /* A question asks rather than decides; a very short line names nothing. */
    if (sentence.n < 12 || sentence.s[sentence.n - 1] == '?') return 0;
    if (sentence.n >= 3 && (unsigned char)sentence.s[sentence.n - 3] == 0xEF && sentence.s[sentence.n - 2] == '\xBC' &&
        sentence.s[sentence.n - 1] == '\x9F') /* ？ */
        return 0;
    /* "…, I suggest this plan:" introduces what follows; the list is the decision, if any. */
    char last = sentence.s[sentence.n - 1];
    if (last == ':' || (sentence.n >= 3 && memcmp(sentence.s + sentence.n - 3, "\xEF\xBC\x9A", 3) == 0)) return 0; /* ： */
    bool reason = has_any(sentence, REASON);
    if (has_any(sentence, STRONG)) return reason ? 2 : 1;
    if (starts_any(sentence, CHANGING)) return reason ? 2 : 0;
    if (starts_any(sentence, NARRATION) || !has_any(sentence, INTENT)) return 0;
    return reason ? 2 : 1;
}

bool mf_sentence_is_narration(mf_span sentence)
{
    static const char *const MORE[] = {"checking", "looking", "reading", "searching", "running", "now ", "next,", "ok", NULL};
    return starts_any(sentence, NARRATION) || starts_any(sentence, MORE);
}

bool mf_sentence_is_reason(mf_span sentence) { return starts_any(sentence, REASON_OPENINGS); }
