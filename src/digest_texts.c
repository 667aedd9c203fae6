/* digest_texts.c — what was said (digest_texts.h): the user's own requests (the harness's
 * text told apart, harness.h; acknowledgements marked), earlier summaries, the assistant's
 * texts and decisions, the constraints of the user's words (never of a tool's output or of
 * quoted text), the identifiers texts name. The readers of single sentences are
 * digest_decide.c and digest_constraint.c. */
#include "digest_texts.h"
#include "digest_decide.h"
#include "harness.h"
#include "view.h"

#include <string.h>

/* ---- texts: requests, summaries, decisions, constraints, identifiers ------------------------- */

static void note_decisions(mf_digest_facts *d, mf_span text, size_t msg)
{
    size_t at = 0;
    mf_span s;
    while (mf_next_sentence(text, &at, &s)) {
        int kind = mf_sentence_is_decision(s);
        if (!kind) continue;
        size_t next_at = at;
        mf_span next;
        if (kind == 1 && mf_next_sentence(text, &next_at, &next) && mf_sentence_is_reason(next)) {
            s.n = (size_t)(next.s + next.n - s.s); /* the reason that follows it */
            at = next_at;
            kind = 2;
        }
        dg_decision *c = MF_FACTS_PUSH(d, decisions);
        if (!c) return;
        c->text = s;
        c->reasoned = kind == 2;
        c->msg = msg;
    }
}

static void note_constraint(mf_digest_facts *d, const mf_constraint *found, mf_span sentence, size_t msg)
{
    dg_constraint *c = NULL;
    long best = -1;
    for (size_t i = d->nconstraints; i-- > 0;) { /* the latest first: on a tie, it is the one meant */
        long m = mf_constraint_match(found, sentence, &d->constraints[i].c, d->constraints[i].sentence);
        if (m >= 0 && (best < 0 || m < best)) { best = m; c = &d->constraints[i]; }
        if (m == 0) break;
    }
    if (!c) {
        c = MF_FACTS_PUSH(d, constraints);
        if (!c) return;
    } else if (!mf_span_eq_ci(c->c.value, found->value)) {
        c->was = c->c.value;
        c->changed = true;
    }
    c->c = *found;
    c->sentence = sentence;
    c->seq = ++d->events;
    c->msg = msg;
}

static void note_constraints(mf_digest_facts *d, mf_span text, size_t msg)
{
    size_t at = 0;
    mf_span line;
    bool fenced = false;
    while (mf_next_line(text, &at, &line)) {
        mf_span l = mf_span_trim(line);
        if (mf_span_starts(l, "```")) { fenced = !fenced; continue; }
        if (fenced || (l.n && l.s[0] == '#')) continue; /* quoted code, a heading's numbers */
        size_t sat = 0;
        mf_span s;
        while (mf_next_sentence(l, &sat, &s)) {
            mf_constraint found[4];
            size_t n = mf_find_constraints(s, found, 4);
            for (size_t k = 0; k < n; k++) note_constraint(d, &found[k], s, msg);
        }
    }
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '/' || c == '-' || c == '@' || c == ':';
}

static bool looks_like_path(mf_span v)
{
    if (v.n < 3 || v.n > 160) return false;
    bool slash = false, dot = false;
    for (size_t i = 0; i < v.n; i++) {
        char c = v.s[i];
        /* A pattern or a command ("@/utils/[Dd]ate'", "a | b") names no file. */
        if (strchr(" \n\t\"<>[]'*?|(){}$\\^`", c) && c) return false;
        if (c == '/') slash = true;
        if (c == '.' && i > 0 && i + 1 < v.n) dot = true;
    }
    return slash || dot;
}

static void add_ident(mf_digest_facts *d, mf_span v, bool user)
{
    /* A placeholder or an elided quote ("invoices/<id>", "undefined/v2/...") names nothing. */
    if (memchr(v.s, '<', v.n) || memchr(v.s, '>', v.n) || mf_span_has(v, "...") || mf_span_has(v, "\xE2\x80\xA6")) return;
    for (size_t i = 0; i < d->nidents; i++)
        if (mf_span_eq(d->idents[i].text, v)) { d->idents[i].mentions++; return; }
    dg_ident *id = MF_FACTS_PUSH(d, idents);
    if (id) { id->text = v; id->by_user = user; id->mentions = 1; }
}

/* Backquoted names (`toZonedTime`) and paths (src/format-date.js) a text mentions. */
static void note_identifiers(mf_digest_facts *d, mf_span t, bool user)
{
    for (size_t i = 0; i < t.n; i++) {
        if (t.s[i] == '`') {
            size_t j = i + 1;
            while (j < t.n && t.s[j] != '`' && t.s[j] != '\n' && j - i <= 80) j++;
            if (j < t.n && t.s[j] == '`' && j - i >= 3) {
                mf_span v = {t.s + i + 1, j - i - 1};
                if (!memchr(v.s, ' ', v.n)) add_ident(d, v, user);
                i = j;
            }
            continue;
        }
        if (!ident_char(t.s[i]) || (i && ident_char(t.s[i - 1]))) continue;
        size_t j = i;
        while (j < t.n && ident_char(t.s[j])) j++;
        mf_span w = {t.s + i, j - i};
        while (w.n && strchr(".:-", w.s[w.n - 1])) w.n--; /* sentence punctuation */
        bool letter = false, slash = memchr(w.s, '/', w.n) != NULL;
        for (size_t k = 0; k < w.n; k++) letter |= (w.s[k] | 32) >= 'a' && (w.s[k] | 32) <= 'z';
        /* name.ext with a name of two characters or more, or a path with a slash */
        const char *dot = w.n ? memchr(w.s, '.', w.n) : NULL;
        bool file = dot && dot - w.s >= 2 && (size_t)(dot - w.s) + 2 < w.n;
        if (letter && (slash || file) && !mf_span_starts(w, "http") && looks_like_path(w)) add_ident(d, w, user);
        i = j;
    }
}

void mf_digest_note_text(mf_digest_facts *d, const mf_msg *msg, const mf_part *part, size_t m)
{
    mf_span text = {part->text, part->text_len};
    if (mf_part_is_compaction(part)) { /* the provider's own summary, in the clear */
        dg_text *s = MF_FACTS_PUSH(d, summaries);
        if (s) { s->text = mf_span_trim(text); s->msg = m; }
        return;
    }
    if (msg->role == MF_ROLE_ASSISTANT) {
        dg_text *r = MF_FACTS_PUSH(d, replies);
        if (r) { r->text = text; r->msg = m; }
        note_decisions(d, text, m);
        note_identifiers(d, text, false);
        return;
    }
    if (msg->role != MF_ROLE_USER) return;
    mf_span own;
    mf_user_text kind = mf_user_text_kind(text.s, text.n, &own.s, &own.n);
    if (kind == MF_USER_HARNESS || !own.n) return;
    dg_text *t = kind == MF_USER_SUMMARY ? MF_FACTS_PUSH(d, summaries) : MF_FACTS_PUSH(d, requests);
    if (!t) return;
    t->text = own;
    t->msg = m;
    if (kind == MF_USER_SUMMARY) return;
    note_constraints(d, own, m); /* the user's own words only: never a tool's output */
    note_identifiers(d, own, true);
}

/* ---- requests that say nothing ------------------------------------------------------------- */

static bool blank_or_stop(char c) { return c == ' ' || c == '.' || c == '!' || c == ',' || c == '~' || c == '\n' || c == '\r'; }

/* The request without trailing punctuation (. ! 。 ！ ~), for comparing. */
static mf_span bare(mf_span s)
{
    for (bool cut = true; cut && s.n;) {
        cut = false;
        if (blank_or_stop(s.s[s.n - 1])) { s.n--; cut = true; }
        else if (s.n >= 3 && (memcmp(s.s + s.n - 3, "\xE3\x80\x82", 3) == 0 || memcmp(s.s + s.n - 3, "\xEF\xBC\x81", 3) == 0 ||
                              memcmp(s.s + s.n - 3, "\xEF\xBC\x8C", 3) == 0)) { s.n -= 3; cut = true; }
    }
    return mf_span_trim(s);
}

/* "continue", "ok", 继续 and their kind: a request that asks for nothing new. */
static bool acknowledgement(mf_span s)
{
    static const char *const WORDS[] = {"continue", "go on", "go ahead", "proceed", "keep going", "carry on", "ok", "okay",
                                        "k", "yes", "y", "yep", "yeah", "sure", "thanks", "thank you", "thx", "ty", "great",
                                        "nice", "cool", "good", "perfect", "done", "next", "lgtm", "fine", "ok thanks",
                                        "ok continue", "yes continue", "please continue",
                                        "\xE7\xBB\xA7\xE7\xBB\xAD",                         /* 继续 */
                                        "\xE7\xBB\xA7\xE7\xBB\xAD\xE5\x90\xA7",             /* 继续吧 */
                                        "\xE5\xA5\xBD",                                     /* 好 */
                                        "\xE5\xA5\xBD\xE7\x9A\x84",                         /* 好的 */
                                        "\xE5\x8F\xAF\xE4\xBB\xA5",                         /* 可以 */
                                        "\xE5\x97\xAF",                                     /* 嗯 */
                                        "\xE8\xA1\x8C",                                     /* 行 */
                                        "\xE8\xB0\xA2\xE8\xB0\xA2",                         /* 谢谢 */
                                        "\xE8\xBE\x9B\xE8\x8B\xA6\xE4\xBA\x86",             /* 辛苦了 */
                                        "\xE6\xB2\xA1\xE9\x97\xAE\xE9\xA2\x98",             /* 没问题 */
                                        "\xE6\x98\xAF\xE7\x9A\x84",                         /* 是的 */
                                        "\xE6\x94\xB6\xE5\x88\xB0",                         /* 收到 */
                                        "\xE5\xA5\xBD\xE7\x9A\x84\xEF\xBC\x8C\xE7\xBB\xA7\xE7\xBB\xAD", /* 好的，继续 */
                                        NULL};
    s = bare(s);
    for (int k = 0; WORDS[k]; k++) {
        size_t n = strlen(WORDS[k]);
        if (s.n == n && mf_span_starts(s, WORDS[k])) return true;
    }
    return false;
}

/* Requests that say nothing: acknowledgements, and a short text sent three times or more
 * (a harness's or a habit's boilerplate). */
void mf_digest_mark_boilerplate(mf_digest_facts *d)
{
    for (size_t i = 0; i < d->nrequests; i++) {
        dg_text *r = &d->requests[i];
        mf_span b = bare(r->text);
        if (acknowledgement(b)) { r->boilerplate = true; continue; }
        if (b.n > 24) continue;
        size_t same = 0;
        for (size_t k = 0; k < d->nrequests && same < 3; k++) same += mf_span_eq_ci(bare(d->requests[k].text), b);
        r->boilerplate = same >= 3;
    }
}
