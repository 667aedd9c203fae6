/* digest_constraint.c — the valued statements of the user's text: a number with its unit
 * and what it is about ("budget 200 euros", "keep the PR under 300 lines", "预算人均5000左右",
 * "大理住两晚"). The digest keeps the latest value per subject, so a budget raised from 200
 * to 500 reads 500 (and "was 200"), never the stale figure.
 *
 * The subject is the nearest word before the number that is not filler ("is", "to",
 * "raise", "under", 改成、提高到、是…): "raise the budget to 500" is about "budget". With no
 * such word the unit names it ("3 nights", 三晚). Subjects are compared by their last word,
 * or their last two Chinese characters (预算, 人均). A day is a value too when the sentence
 * names a deadline ("the deadline is Friday", "截止时间改到周五"). Dates (10月8日, 09/03/2024)
 * are not constraints; numbers glued to letters (v2, TS2345, #412) are identifiers. */
#include "digest_constraint.h"
#include "base.h"

#include <string.h>

static const char *const FILLER[] = {
    "is", "are", "was", "were", "be", "been", "now", "of", "to", "at", "about", "around", "roughly", "under", "below",
    "over", "above", "max", "maximum", "min", "minimum", "up", "down", "than", "more", "less", "no", "not", "it", "its",
    "the", "a", "an", "my", "our", "your", "their", "total", "set", "raise", "raised", "increase", "increased",
    "lower", "lowered", "reduce", "reduced", "change", "changed", "bump", "bumped", "make", "made", "keep", "stay",
    "within", "by", "per", "for", "only", "just", "actually", "please", "can", "could", "should", "would", "will",
    "we", "i", "me", "us", "you", "so", "with", "on", "in", "have", "has", "had", "need", "needs", "want",
    "from", "get", "go", "then", "also", "extra", "another", "each", "every", "at", "most", "least", "exactly",
    "approximately", "instead", "let", "lets", "let's", "it's", "that", "this", "use", "give", "take", "moved", "move",
    "pushed", "push", "becomes", "became", "today", "tomorrow", "goes", "went", "going", "gets", "got", "allow",
    "allows", "jumped", "rose", "fell", "dropped", "drop", "grew", "spiked", "takes", "took", "costs", "answer",
    "return", "returns", "respond", "reply", "send", "show", "print", "log", "support", "supports", "add", "like",
    NULL};

/* Chinese filler, stripped from the end of the characters before the number (longest first). */
static const char *const FILLER_ZH[] = {
    "提高到", "增加到", "降低到", "减少到", "调整到", "调整为", "控制在", "不超过", "放宽到", "改成", "改为", "改到",
    "提到", "加到", "调到", "降到", "减到", "变成", "涨到", "定在", "定为", "总共", "一共", "大约", "大概", "最多",
    "至少", "只有", "还是", "是", "为", "到", "成", "在", "约", "共", "有", "要", "就", "了", "算", "住", "玩", "待",
    "呆", "去", "再", "先", "按", "也", "都", "还", NULL};

static const char *const UNITS[] = {
    "euros", "euro", "eur", "usd", "dollars", "dollar", "rmb", "cny", "yuan", "jpy", "yen", "gbp", "pounds",
    "people", "persons", "person", "adults", "adult", "kids", "children", "guests", "nights", "night", "days", "day",
    "weeks", "week", "months", "hours", "hour", "hrs", "minutes", "minute", "mins", "min", "seconds", "secs", "ms",
    "km", "kg", "kb", "mb", "gb", "tb", "tokens", "lines", "line", "chars", "characters", "words", "pages", "items",
    "rows", "files", "tests", "retries", "times", "requests", "users", "percent", "px", "rps", "qps", "edits",
    "connections", "entries", "records", "messages", "calls", "pods", "replicas", "nodes", "workers", "instances",
    "servers", "cores", "threads", "s", NULL};

static const char *const UNITS_ZH[] = {
    "人民币", "美元", "欧元", "日元", "港币", "小时", "分钟", "公里", "个人", "个月", "元", "块", "人", "位", "天",
    "晚", "夜", "秒", "周", "岁", "间", "张", "次", "万", "千", "米", "页", "行", "条", "家", NULL};
static const char *const PLAN_UNITS_ZH[] = {"个人", "个月", "小时", "天", "晚", "夜", "人", "位", "周", "岁", "元", "块", NULL};
static const char *const AFTER_ZH[] = {"左右", "以内", "以下", "以上", "上下", NULL};
static const char *const DATE_ZH[] = {"月", "日", "号", "点", "年", "时", NULL};
static const char *const NUMERALS_ZH[] = {"零", "一", "二", "两", "三", "四", "五", "六", "七", "八", "九", "十",
                                          "百", "千", "万", "半", NULL};

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* The list entry that s starts with at i (exactly, bytes), or NULL. Lists run longest first
 * where one entry starts another. */
static const char *prefix_in(mf_span s, size_t i, const char *const *list)
{
    for (int k = 0; list[k]; k++) {
        const char *w = list[k];
        size_t j = 0;
        while (w[j] && i + j < s.n && s.s[i + j] == w[j]) j++;
        if (!w[j]) return w;
    }
    return NULL;
}

/* An ASCII unit word at i, bounded by a non-letter; its length or 0. */
static size_t ascii_unit(mf_span s, size_t i)
{
    mf_span rest = {s.s + i, i <= s.n ? s.n - i : 0};
    for (int k = 0; UNITS[k]; k++) {
        size_t n = mf_span_prefix_len(rest, UNITS[k]);
        if (n && (i + n == s.n || !is_alpha(s.s[i + n]))) return n;
    }
    return 0;
}

/* The start of the code point that ends right before byte i. */
static size_t cp_before(mf_span s, size_t i)
{
    size_t k = i;
    while (k > 0 && ((unsigned char)s.s[k - 1] & 0xC0) == 0x80 && i - k < 3) k--;
    return k > 0 ? k - 1 : 0;
}

static bool cjk_at(mf_span s, size_t i)
{
    if (i >= s.n || (unsigned char)s.s[i] < 0x80) return false;
    uint32_t cp;
    mf_utf8_decode((const unsigned char *)s.s + i, s.n - i, &cp);
    return mf_is_cjk_cp(cp);
}

static bool filler(mf_span word)
{
    for (int k = 0; FILLER[k]; k++)
        if (strlen(FILLER[k]) == word.n && mf_span_starts(word, FILLER[k])) return true;
    return false;
}

static bool is_word_byte(char c) { return is_alpha(c) || is_digit(c) || c == '-' || c == '_' || c == '\''; }

/* The key of a subject: its words, a plural's "s" dropped (nights ~ night, plans ~ plan). */
static void set_subject(mf_constraint *c, mf_span subject)
{
    c->subject = c->key = subject;
    if (c->key.n > 3 && (c->key.s[c->key.n - 1] | 32) == 's') c->key.n--;
}

/* A word that names what a value is about: not filler, not a number, not a unit. */
static bool subject_word(mf_span s, mf_span word)
{
    return word.n && !is_digit(word.s[0]) && !filler(word) && ascii_unit(s, (size_t)(word.s - s.s)) != word.n;
}

/* The subject before byte `end` in ASCII text: the nearest word that is not filler, with the
 * word before it when that one is no filler either ("free plan", "release binary"). */
/* The words that may stand between a subject and a bare number ("Node 18", "the limit is
 * 100", "goes from 200 to 500", "plans keep 100"); any other ("rejects with 409") makes the
 * number no value of it. */
static bool connects(mf_span word)
{
    static const char *const WORDS[] = {"is", "are", "was", "be", "to", "of", "at", "under", "below", "over", "than",
                                        "max", "maximum", "min", "minimum", "from", "keep", "keeps", "stay", "stays",
                                        "remain", "remains", "now", "around", "about", "roughly", "up", "most", "least",
                                        "exactly", "only", "just", "still", "set", "becomes", "goes", "go", "can",
                                        "should", "must", "will", "moved", "changed", "raised", "lowered", "pushed",
                                        "bumped", "increased", "reduced", NULL};
    for (int k = 0; WORDS[k]; k++)
        if (strlen(WORDS[k]) == word.n && mf_span_starts(word, WORDS[k])) return true;
    return false;
}

static bool ascii_subject(mf_span s, size_t end, mf_constraint *c, bool bare)
{
    size_t i = end;
    /* At most 8 words (numbers among them) and 120 bytes back: a sentence of a thousand
     * numbers costs each of them a short walk, never the whole sentence. */
    for (int words = 0; words < 8 && i > 0 && end - i < 120;) {
        char ch = s.s[i - 1];
        if (ch == ' ' || ch == ':' || ch == '=' || ch == '(' || ch == '"' || ch == '\'' || ch == '$' ||
            ch == '~' || ch == '*' || ch == '`') { i--; continue; }
        if (!is_alpha(ch) && !is_digit(ch)) return false; /* a comma, a dash: another clause */
        size_t w = i;
        while (w > 0 && end - w < 120 && is_word_byte(s.s[w - 1])) w--;
        mf_span word = {s.s + w, i - w};
        i = w;
        words++;
        static const char *const CLAUSE[] = {"and", "but", "or", "while", "when", "if", NULL};
        for (int k = 0; CLAUSE[k]; k++)
            if (strlen(CLAUSE[k]) == word.n && mf_span_starts(word, CLAUSE[k])) return false; /* another clause's words */
        if (!subject_word(s, word)) { /* filler, or another value: "from 200 to 500" */
            if (bare && !is_digit(word.s[0]) && !connects(word)) return false;
            continue;
        }
        if (w >= 2 && s.s[w - 1] == ' ' && is_alpha(s.s[w - 2])) {
            size_t v = w - 1;
            while (v > 0 && is_word_byte(s.s[v - 1])) v--;
            mf_span before = {s.s + v, w - 1 - v};
            if (is_alpha(before.s[0]) && subject_word(s, before)) word = (mf_span){before.s, i + word.n - v};
        }
        set_subject(c, word);
        return true;
    }
    return false;
}

/* The subject after a value, when none comes before it: "60 requests per minute for the free
 * plan" is about the free plan. */
static bool ascii_subject_after(mf_span s, size_t from, mf_constraint *c)
{
    static const char *const ARTICLES[] = {"the ", "a ", "an ", "our ", "my ", "each ", "every ", "all ", NULL};
    mf_span rest = mf_span_trim(mf_span_from(s, from));
    if (!mf_span_starts(rest, "for ")) return false;
    rest = mf_span_from(rest, 4);
    for (int k = 0; ARTICLES[k]; k++)
        if (mf_span_starts(rest, ARTICLES[k])) { rest = mf_span_from(rest, strlen(ARTICLES[k])); break; }
    size_t n = 0;
    for (int words = 0; words < 2 && n < rest.n && is_alpha(rest.s[n]); words++) {
        size_t w = n;
        while (w < rest.n && is_word_byte(rest.s[w])) w++;
        if (filler((mf_span){rest.s + n, w - n})) break;
        n = w;
        if (n + 1 < rest.n && rest.s[n] == ' ' && is_alpha(rest.s[n + 1])) n++;
        else break;
    }
    while (n && rest.s[n - 1] == ' ') n--;
    if (!n) return false;
    set_subject(c, (mf_span){rest.s, n});
    return true;
}

/* The subject before byte `end` in Chinese text: the characters before the number, filler
 * stripped from their end, the last four kept (compared by the last two). */
static bool cjk_subject(mf_span s, size_t end, mf_constraint *c)
{
    size_t start = end;
    for (int k = 0; k < 10 && start > 0; k++) {
        size_t p = cp_before(s, start);
        if (!cjk_at(s, p)) break;
        start = p;
    }
    mf_span run = {s.s + start, end - start};
    for (bool stripped = true; stripped && run.n;) {
        stripped = false;
        for (int k = 0; FILLER_ZH[k]; k++) {
            size_t n = strlen(FILLER_ZH[k]);
            if (run.n >= n && memcmp(run.s + run.n - n, FILLER_ZH[k], n) == 0) {
                run.n -= n;
                stripped = true;
                break;
            }
        }
    }
    if (!run.n) return false;
    size_t from = run.n, key_from = run.n;
    for (int k = 0; k < 4 && from > 0; k++) {
        from = cp_before(run, from);
        if (k == 1) key_from = from;
    }
    if (key_from == run.n) key_from = from;
    c->key = (mf_span){run.s + key_from, run.n - key_from};
    /* A short run is the subject as written (预算人均); a longer one holds a clause (预算可以提高到人均): its key. */
    c->subject = from == 0 ? run : c->key;
    return true;
}

/* A number at i: digits with inner . , : / separators and a range ("400-900", "400–900"),
 * or Chinese numerals; returns its end, or i when there is none. */
static size_t number_end(mf_span s, size_t i, bool *chinese)
{
    *chinese = false;
    size_t k = i;
    if (k < s.n && is_digit(s.s[k])) {
        for (;;) {
            while (k < s.n && is_digit(s.s[k])) k++;
            if (k + 1 < s.n && strchr(".,:/", s.s[k]) && is_digit(s.s[k + 1])) { k++; continue; }
            if (k + 1 < s.n && (s.s[k] == '-' || s.s[k] == '~') && is_digit(s.s[k + 1])) { k++; continue; }
            if (k + 3 < s.n && memcmp(s.s + k, "\xE2\x80\x93", 3) == 0 && is_digit(s.s[k + 3])) { k += 3; continue; }
            break;
        }
        if (k < s.n && (s.s[k] == 'k' || s.s[k] == 'K') && (k + 1 == s.n || !is_alpha(s.s[k + 1]))) k++;
        if (k < s.n && s.s[k] == '%') k++;
        return k;
    }
    const char *n;
    while ((n = prefix_in(s, k, NUMERALS_ZH)) != NULL) k += strlen(n);
    if (k > i) *chinese = true;
    return k;
}

/* A day a deadline names ("Friday", "tomorrow", 周五, 星期五, 明天) at i: its end, or i. */
static size_t day_end(mf_span s, size_t i)
{
    static const char *const DAYS[] = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                                       "tomorrow", "tonight", "next week", NULL};
    static const char *const DAYS_ZH[] = {"下周一", "下周二", "下周三", "下周四", "下周五", "下周六", "下周日",
                                          "星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日", "星期天",
                                          "周一", "周二", "周三", "周四", "周五", "周六", "周日", "周末", "明天", "后天",
                                          "下周", NULL};
    const char *zh = prefix_in(s, i, DAYS_ZH);
    if (zh) return i + strlen(zh);
    if (i && (is_alpha(s.s[i - 1]) || is_digit(s.s[i - 1]))) return i;
    mf_span rest = {s.s + i, i <= s.n ? s.n - i : 0};
    for (int k = 0; DAYS[k]; k++) {
        size_t n = mf_span_prefix_len(rest, DAYS[k]);
        if (n && (i + n == s.n || !is_alpha(s.s[i + n]))) return i + n;
    }
    return i;
}

/* Words that make a day a deadline rather than a date in a story. */
static bool has_deadline_cue(mf_span s)
{
    static const char *const CUES[] = {"deadline", "due", "by ", "until", "before", "cut-off", "cutoff", "no later",
                                       "截止", "之前", "以前", "交付", "上线", "完成", NULL};
    for (int k = 0; CUES[k]; k++) if (mf_span_has(s, CUES[k])) return true;
    return false;
}

/* A value's rate, when one follows: "60 requests per minute", "100 a minute", "60 req/min". */
static size_t rate_end(mf_span s, size_t v1)
{
    static const char *const PER[] = {" per ", " a ", " an ", "/", NULL};
    static const char *const PERIODS[] = {"minute", "min", "hour", "hr", "day", "second", "sec", "s", "week", "month",
                                          "year", "night", "person", "request", "user", NULL};
    for (int p = 0; PER[p]; p++) {
        size_t k = v1 + strlen(PER[p]);
        if (k > s.n || memcmp(s.s + v1, PER[p], strlen(PER[p])) != 0) continue;
        for (int q = 0; PERIODS[q]; q++) {
            size_t n = mf_span_prefix_len(mf_span_from(s, k), PERIODS[q]);
            if (n && (k + n == s.n || !is_alpha(s.s[k + n]))) return k + n;
        }
    }
    return v1;
}

static bool ends_with_ci(mf_span s, const char *suffix)
{
    size_t n = strlen(suffix);
    return s.n >= n && mf_span_starts((mf_span){s.s + s.n - n, n}, suffix);
}

/* A value the sentence turns down rather than sets: "500 is too low", "not 800", "drop Node
 * 18", 2 秒太紧了, 不是 800. */
static bool turned_down(mf_span s, size_t v0, size_t v1)
{
    static const char *const AFTER[] = {"is too", "are too", "too ", "isn't enough", "is not enough", "\xE5\xA4\xAA" /* 太 */, NULL};
    mf_span rest = mf_span_trim(mf_span_from(s, v1));
    for (int k = 0; AFTER[k]; k++) if (mf_span_starts(rest, AFTER[k])) return true;
    size_t b = v0;
    while (b && s.s[b - 1] == ' ') b--;
    mf_span head = {s.s, b};
    if (ends_with_ci(head, " not") || (b == 3 && mf_span_starts(head, "not")) || ends_with_ci(head, "\xE4\xB8\x8D\xE6\x98\xAF") /* 不是 */)
        return true;
    size_t from = b > 24 ? b - 24 : 0; /* the clause before the value, within a few words */
    for (size_t k = b; k > from; k--) if (strchr(",;.", s.s[k - 1])) { from = k; break; }
    mf_span clause = {s.s + from, b - from};
    return mf_span_has(clause, "drop ") || mf_span_has(clause, "no longer") || mf_span_has(clause, "\xE4\xB8\x8D\xE5\x86\x8D") /* 不再 */;
}

size_t mf_find_constraints(mf_span s, mf_constraint *out, size_t cap)
{
    size_t found = 0;
    bool code = false; /* inside `backquotes`: quoted code or output, not a statement */
    bool deadline = has_deadline_cue(s);
    for (size_t i = 0; i < s.n && found < cap;) {
        if (s.s[i] == '`') code = !code;
        size_t day = deadline && !code ? day_end(s, i) : i;
        if (day > i) { /* "the deadline is Friday" → "Monday": a value like any other */
            mf_constraint c = {{0}, {0}, {s.s + i, day - i}, {s.s + i, 0}};
            size_t before = i;
            while (before > 0 && s.s[before - 1] == ' ') before--;
            bool ok = before > 0 && (cjk_at(s, cp_before(s, before)) ? cjk_subject(s, before, &c) : ascii_subject(s, before, &c, false));
            if (ok) out[found++] = c;
            i = day;
            continue;
        }
        bool chinese;
        size_t end = number_end(s, i, &chinese);
        if (end == i) { i++; continue; }
        if (code || memchr(s.s + i, '/', end - i)) { i = end; continue; } /* a date (09/03/2024), a fraction */
        /* A number glued to a word is an identifier (v2, TS2345, #412, file2.txt). */
        char prev = i ? s.s[i - 1] : ' ';
        bool glued = !chinese && (is_alpha(prev) || is_digit(prev) || prev == '#' || prev == '_' || prev == '.' ||
                                  prev == '/' || prev == '-' || prev == '@' ||
                                  (end < s.n && (is_alpha(s.s[end]) && !ascii_unit(s, end))));
        size_t v0 = i;
        if (!chinese && i > 0 && strchr("$", s.s[i - 1])) v0 = i - 1;
        if (!chinese && i >= 2 && ((unsigned char)s.s[i - 2] == 0xC2 && ((unsigned char)s.s[i - 1] == 0xA3 ||
                                                                       (unsigned char)s.s[i - 1] == 0xA5)))
            v0 = i - 2, glued = false; /* £ ¥ */
        if (!chinese && i >= 3 && memcmp(s.s + i - 3, "\xE2\x82\xAC", 3) == 0) v0 = i - 3, glued = false; /* € */
        size_t u = end;
        if (u < s.n && s.s[u] == ' ' && (ascii_unit(s, u + 1) || prefix_in(s, u + 1, UNITS_ZH))) u++;
        size_t unit_from = u, unit_len = ascii_unit(s, u);
        const char *zh = unit_len ? NULL : prefix_in(s, u, UNITS_ZH);
        if (zh) unit_len = strlen(zh);
        /* Chinese numerals count with the units of a plan only (三晚, 两个人, 两万), never a lone
         * 一 or 半 (一行, 一条: an article) or an ordinal (第二天). */
        if (chinese) {
            size_t run = end - i;
            bool big = run >= 3 && (memcmp(s.s + end - 3, "万", 3) == 0 || memcmp(s.s + end - 3, "千", 3) == 0);
            bool lone = run == 3 && (memcmp(s.s + i, "一", 3) == 0 || memcmp(s.s + i, "半", 3) == 0);
            bool ordinal = i >= 3 && memcmp(s.s + i - 3, "第", 3) == 0;
            if (lone || ordinal || (!prefix_in(s, end, PLAN_UNITS_ZH) && !big)) { i = end; continue; }
            if (big && !zh) zh = "";
        }
        const char *date = prefix_in(s, end, DATE_ZH);
        bool before_date = i >= 3 && memcmp(s.s + cp_before(s, i), "\xE6\x9C\x88", 3) == 0; /* 月: a day */
        if (glued || date || before_date || (chinese && !zh)) { i = end; continue; }
        size_t v1 = unit_len ? u + unit_len : end;
        const char *q = prefix_in(s, v1, AFTER_ZH);
        if (q) v1 += strlen(q);
        if (!chinese) v1 = rate_end(s, v1);
        /* Turned down, quoted ("(3.20)"), a date (2024-05-20), or a lone digit with no unit
         * (a heading's "v: 1", "returns 0"): no value of a constraint. */
        bool quoted = v0 > 0 && strchr("(\"", s.s[v0 - 1]) && v1 < s.n && strchr(")\"", s.s[v1]);
        bool iso_date = !chinese && end - i == 10 && s.s[i + 4] == '-' && s.s[i + 7] == '-';
        if (turned_down(s, v0, v1) || quoted || iso_date || (!unit_len && !chinese && end - i == 1 && v0 == i)) { i = v1; continue; }
        mf_constraint c = {{0}, {0}, {s.s + v0, v1 - v0}, {unit_len ? s.s + unit_from : s.s, unit_len}};
        size_t before = v0;
        while (before > 0 && s.s[before - 1] == ' ') before--;
        bool bare = !unit_len && !memchr(s.s + i, ':', end - i); /* 17:30 is a time, not a bare number */
        bool ok = before > 0 && cjk_at(s, cp_before(s, before)) ? cjk_subject(s, before, &c) : ascii_subject(s, before, &c, bare);
        if (!ok && !chinese && unit_len) ok = ascii_subject_after(s, v1, &c);
        if (!ok && unit_len) {
            set_subject(&c, (mf_span){s.s + unit_from, unit_len});
            ok = true;
        }
        if (ok) out[found++] = c;
        i = v1 > i ? v1 : end;
    }
    return found;
}

/* Does `needle` occur in `hay`, but for ASCII case? */
static size_t find_ci(mf_span hay, mf_span needle)
{
    for (size_t i = 0; needle.n && i + needle.n <= hay.n; i++) {
        size_t k = 0;
        while (k < needle.n && ((hay.s[i + k] | (is_alpha(hay.s[i + k]) ? 32 : 0)) == (needle.s[k] | (is_alpha(needle.s[k]) ? 32 : 0)))) k++;
        if (k == needle.n) return i;
    }
    return SIZE_MAX;
}

static bool says_change(mf_span s)
{
    static const char *const CUES[] = {"make it", "change", "raise", "lower", "increase", "reduce", "bump", "instead", "actually",
                                       " now", "moved", "not ", "update", "\xE6\x94\xB9" /* 改 */, "\xE6\x94\xBE\xE5\xAE\xBD" /* 放宽 */,
                                       "\xE6\x8F\x90\xE9\xAB\x98" /* 提高 */, "\xE9\x99\x8D" /* 降 */, "\xE8\xB0\x83" /* 调 */,
                                       "\xE5\x8F\x98" /* 变 */, "\xE6\x94\xB6\xE7\xB4\xA7" /* 收紧 */, "\xE4\xB8\x8D\xE6\x98\xAF" /* 不是 */, NULL};
    for (int k = 0; CUES[k]; k++) if (mf_span_has(s, CUES[k])) return true;
    return false;
}

long mf_constraint_match(const mf_constraint *later, mf_span later_sentence, const mf_constraint *earlier,
                         mf_span earlier_sentence)
{
    if (mf_span_eq_ci(later->key, earlier->key)) return 0;
    mf_span a = later->unit, b = earlier->unit;
    if (a.n > 3 && (a.s[a.n - 1] | 32) == 's') a.n--;
    if (b.n > 3 && (b.s[b.n - 1] | 32) == 's') b.n--;
    if ((a.n && b.n && !mf_span_eq_ci(a, b)) || !says_change(later_sentence)) return -1;
    size_t named = find_ci(earlier_sentence, later->key);
    if (named == SIZE_MAX && find_ci(later_sentence, earlier->key) == SIZE_MAX) return -1;
    if (named == SIZE_MAX) return 1 + (long)earlier_sentence.n; /* named the other way round */
    size_t at = (size_t)(earlier->value.s - earlier_sentence.s); /* the value lies in its sentence */
    return 1 + (long)(at >= named ? at - named : earlier_sentence.n + named - at);
}
