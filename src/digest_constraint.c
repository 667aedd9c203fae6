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
#include "digest.h"

#include <string.h>

static const char *const FILLER[] = {
    "is", "are", "was", "were", "be", "been", "now", "of", "to", "at", "about", "around", "roughly", "under", "below",
    "over", "above", "max", "maximum", "min", "minimum", "up", "down", "than", "more", "less", "no", "not", "it", "its",
    "the", "a", "an", "my", "our", "your", "their", "total", "set", "raise", "raised", "increase", "increased",
    "lower", "lowered", "reduce", "reduced", "change", "changed", "bump", "bumped", "make", "made", "keep", "stay",
    "within", "by", "per", "for", "only", "just", "actually", "please", "can", "could", "should", "would", "will",
    "we", "i", "me", "us", "you", "and", "so", "with", "on", "in", "have", "has", "had", "need", "needs", "want",
    "from", "get", "go", "then", "also", "extra", "another", "each", "every", "at", "most", "least", "exactly",
    "approximately", "instead", "let", "lets", "let's", "it's", "that", "this", "use", "give", "take", "moved", "move",
    "pushed", "push", "becomes", "became", "today", "tomorrow", "goes", "went", "going", NULL};

/* Chinese filler, stripped from the end of the characters before the number (longest first). */
static const char *const FILLER_ZH[] = {
    "提高到", "增加到", "降低到", "减少到", "调整到", "调整为", "控制在", "不超过", "放宽到", "改成", "改为", "改到",
    "提到", "加到", "调到", "降到", "减到", "变成", "涨到", "定在", "定为", "总共", "一共", "大约", "大概", "最多",
    "至少", "只有", "还是", "是", "为", "到", "成", "在", "约", "共", "有", "要", "就", "了", "算", "住", "玩", "待",
    "呆", "去", "再", "先", "按", NULL};

static const char *const UNITS[] = {
    "euros", "euro", "eur", "usd", "dollars", "dollar", "rmb", "cny", "yuan", "jpy", "yen", "gbp", "pounds",
    "people", "persons", "person", "adults", "adult", "kids", "children", "guests", "nights", "night", "days", "day",
    "weeks", "week", "months", "hours", "hour", "hrs", "minutes", "minute", "mins", "min", "seconds", "secs", "ms",
    "km", "kg", "kb", "mb", "gb", "tb", "tokens", "lines", "line", "chars", "characters", "words", "pages", "items",
    "rows", "files", "tests", "retries", "times", "requests", "users", "percent", "px", "rps", "qps", NULL};

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

/* The subject before byte `end` in ASCII text: the nearest word that is not filler. */
static bool ascii_subject(mf_span s, size_t end, mf_constraint *c)
{
    size_t i = end;
    /* At most 8 words (numbers among them) and 120 bytes back: a sentence of a thousand
     * numbers costs each of them a short walk, never the whole sentence. */
    for (int words = 0; words < 8 && i > 0 && end - i < 120;) {
        char ch = s.s[i - 1];
        if (ch == ' ' || ch == ':' || ch == '=' || ch == ',' || ch == '(' || ch == '"' || ch == '\'' || ch == '$' ||
            ch == '~' || ch == '*' || ch == '`') { i--; continue; }
        if (!is_alpha(ch) && !is_digit(ch)) return false;
        size_t w = i;
        while (w > 0 && end - w < 120 && (is_alpha(s.s[w - 1]) || is_digit(s.s[w - 1]) || s.s[w - 1] == '-' ||
                                          s.s[w - 1] == '_' || s.s[w - 1] == '\''))
            w--;
        mf_span word = {s.s + w, i - w};
        i = w;
        words++;
        if (is_digit(word.s[0])) continue; /* another value: "from 200 to 500" */
        if (filler(word)) continue;
        c->subject = word;
        c->key = word;
        if (c->key.n > 3 && (c->key.s[c->key.n - 1] | 32) == 's') c->key.n--; /* nights ~ night */
        return true;
    }
    return false;
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

size_t mf_find_constraints(mf_span s, mf_constraint *out, size_t cap)
{
    size_t found = 0;
    bool code = false; /* inside `backquotes`: quoted code or output, not a statement */
    bool deadline = has_deadline_cue(s);
    for (size_t i = 0; i < s.n && found < cap;) {
        if (s.s[i] == '`') code = !code;
        size_t day = deadline && !code ? day_end(s, i) : i;
        if (day > i) { /* "the deadline is Friday" → "Monday": a value like any other */
            mf_constraint c = {{0}, {0}, {s.s + i, day - i}};
            size_t before = i;
            while (before > 0 && s.s[before - 1] == ' ') before--;
            bool ok = before > 0 && (cjk_at(s, cp_before(s, before)) ? cjk_subject(s, before, &c) : ascii_subject(s, before, &c));
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
        mf_constraint c = {{0}, {0}, {s.s + v0, v1 - v0}};
        size_t before = v0;
        while (before > 0 && s.s[before - 1] == ' ') before--;
        bool ok = before > 0 && cjk_at(s, cp_before(s, before)) ? cjk_subject(s, before, &c) : ascii_subject(s, before, &c);
        if (!ok && unit_len) {
            c.subject = c.key = (mf_span){s.s + unit_from, unit_len};
            if (c.key.n > 3 && (c.key.s[c.key.n - 1] | 32) == 's') c.key.n--;
            ok = true;
        }
        if (ok) out[found++] = c;
        i = v1 > i ? v1 : end;
    }
    return found;
}
