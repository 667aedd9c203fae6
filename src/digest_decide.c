/* digest_decide.c — which sentences of the assistant's text state a decision. A
 * continuation that forgets why X was chosen tends to undo it, so the digest keeps the
 * latest of these with their reasons. Two kinds count:
 *   - a decision in so many words: "Decided to pin date-fns-tz at 2.x", "Let's go with
 *     Postgres", "switch to toZonedTime", "instead of", "rather than"; 决定、改用、改成、
 *     换成、选择、采用、就用;
 *   - an intention with its reason: "I'll use X because Y", "We should … since …";
 *     打算/应该/建议/我会 … 因为/由于/所以/为了. */
#include "digest.h"

static const char *const STRONG[] = {
    "decided", "decide to", "decision:", "i chose", "we chose", "chose to", "going with", "go with", "opted",
    "switch to", "switched to", "switching to", "instead of", "rather than", "settled on", "the fix is",
    "\xE5\x86\xB3\xE5\xAE\x9A",             /* 决定 */
    "\xE6\x94\xB9\xE7\x94\xA8",             /* 改用 */
    "\xE6\x94\xB9\xE6\x88\x90",             /* 改成 */
    "\xE6\x8D\xA2\xE6\x88\x90",             /* 换成 */
    "\xE9\x80\x89\xE6\x8B\xA9",             /* 选择 */
    "\xE9\x87\x87\xE7\x94\xA8",             /* 采用 */
    "\xE5\xB0\xB1\xE7\x94\xA8",             /* 就用 */
    "\xE4\xB8\x8D\xE5\x8E\xBB",             /* 不去 */
    NULL};
static const char *const INTENT[] = {
    "i'll ", "i will ", "we'll ", "we will ", "let's ", "we should", "i should", "you should", "i'm going to",
    "better to", "the plan is", "i recommend", "i suggest", "it's safer to", "use ",
    "\xE6\x89\x93\xE7\xAE\x97",             /* 打算 */
    "\xE5\xBA\x94\xE8\xAF\xA5",             /* 应该 */
    "\xE5\xBB\xBA\xE8\xAE\xAE",             /* 建议 */
    "\xE6\x88\x91\xE4\xBC\x9A",             /* 我会 */
    "\xE5\x85\x88",                         /* 先 */
    NULL};
static const char *const REASON[] = {
    "because", " since ", "so that", " as it", " as the", " as we", "given ", "due to", "to avoid", "which means",
    "otherwise", " so ",
    "\xE5\x9B\xA0\xE4\xB8\xBA",             /* 因为 */
    "\xE7\x94\xB1\xE4\xBA\x8E",             /* 由于 */
    "\xE6\x89\x80\xE4\xBB\xA5",             /* 所以 */
    "\xE5\x9B\xA0\xE6\xAD\xA4",             /* 因此 */
    "\xE4\xB8\xBA\xE4\xBA\x86",             /* 为了 */
    "\xE4\xBB\xA5\xE5\x85\x8D",             /* 以免 */
    "\xE6\x97\xA2\xE7\x84\xB6",             /* 既然 */
    NULL};

static bool has_any(mf_span s, const char *const *list)
{
    for (int i = 0; list[i]; i++) if (mf_span_has(s, list[i])) return true;
    return false;
}

int mf_sentence_is_decision(mf_span sentence)
{
    /* A question asks rather than decides; a very short line names nothing. */
    if (sentence.n < 12 || sentence.s[sentence.n - 1] == '?') return 0;
    if (sentence.n >= 3 && (unsigned char)sentence.s[sentence.n - 3] == 0xEF && sentence.s[sentence.n - 2] == '\xBC' &&
        sentence.s[sentence.n - 1] == '\x9F') /* ？ */
        return 0;
    bool reason = has_any(sentence, REASON);
    if (has_any(sentence, STRONG)) return reason ? 2 : 1;
    return has_any(sentence, INTENT) && reason ? 2 : 0;
}
