/* test_search.c — the archive's search (src/search.h): how text is cut into terms (words,
 * identifiers, paths, Chinese and Korean runs), BM25's figures against the formula written
 * out here, the order of hits, snippets on code point boundaries around the best match,
 * bad arguments, and every allocation failing in turn. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "failing_alloc.h"
#include "search.h"
#include "suites.h"

/* The terms of a text, joined by '|', and their byte ranges as "start-end" joined by ','. */
typedef struct collected {
    char terms[2048];
    char ranges[2048];
    size_t count;
    size_t last_start;
    bool ordered;
} collected;

static int collect(void *ctx, const mf_search_token *tok)
{
    collected *c = ctx;
    size_t n = strlen(c->terms), r = strlen(c->ranges);
    snprintf(c->terms + n, sizeof c->terms - n, "%s%.*s", c->count ? "|" : "", (int)tok->term_len, tok->term);
    snprintf(c->ranges + r, sizeof c->ranges - r, "%s%zu-%zu", c->count ? "," : "", tok->start, tok->end);
    if (c->count && tok->start < c->last_start) c->ordered = false;
    c->last_start = tok->start;
    c->count++;
    return 0;
}

static int stop_at_third(void *ctx, const mf_search_token *tok)
{
    (void)tok;
    return ++*(int *)ctx == 3 ? 7 : 0;
}

static collected terms_of(const char *text, mf_search_mode mode)
{
    collected c;
    memset(&c, 0, sizeof c);
    c.ordered = true;
    mf_search_tokenize(text, strlen(text), mode, collect, &c);
    return c;
}

static void test_tokens(void)
{
    CHECK_EQ_STR("plain words are lower-cased; punctuation separates",
                 terms_of("Error: File NOT found!", MF_SEARCH_DOCUMENT).terms, "error|file|not|found");
    CHECK_EQ_STR("a camelCase identifier gives itself whole, then its words",
                 terms_of("getUserById", MF_SEARCH_DOCUMENT).terms, "getuserbyid|get|user|by|id");
    CHECK_EQ_STR("a run of capitals ends where the next word's capital starts",
                 terms_of("HTTPServer", MF_SEARCH_DOCUMENT).terms, "httpserver|http|server");
    collected path = terms_of("see src/app.ts:12", MF_SEARCH_DOCUMENT);
    CHECK_EQ_STR("a path is a compound of its names (a ':' line number is apart)", path.terms,
                 "see|src/app.ts|src|app|ts|12");
    CHECK_EQ_STR("each term's byte range is where it stands", path.ranges, "0-3,4-14,4-7,8-11,12-14,15-17");
    CHECK_EQ_STR("snake_case and kebab-case split at their joiners",
                 terms_of("user_id max-retries", MF_SEARCH_DOCUMENT).terms, "user_id|user|id|max-retries|max|retries");
    CHECK_EQ_STR("a sentence's final dot joins nothing", terms_of("Done. Next", MF_SEARCH_DOCUMENT).terms, "done|next");
    CHECK_EQ_STR("digits stay with their letters", terms_of("utf8 v2", MF_SEARCH_DOCUMENT).terms, "utf8|v2");
    CHECK_EQ_STR("Latin-1, Greek and Cyrillic capitals are lower-cased",
                 terms_of("Ärger ΣΟΦΙΑ Привет", MF_SEARCH_DOCUMENT).terms, "ärger|σοφια|привет");
    collected han = terms_of("数据库", MF_SEARCH_DOCUMENT);
    CHECK_EQ_STR("a Han run gives each character and each pair, in order", han.terms, "数|数据|据|据库|库");
    CHECK_EQ_STR("pairs span both characters' bytes", han.ranges, "0-3,0-6,3-6,3-9,6-9");
    CHECK_EQ_STR("a query's Han run gives its pairs only", terms_of("数据库", MF_SEARCH_QUERY).terms, "数据|据库");
    CHECK_EQ_STR("a query's one-character run gives the character", terms_of("库", MF_SEARCH_QUERY).terms, "库");
    CHECK_EQ_STR("kana and Han make one run (Japanese)", terms_of("データ接続", MF_SEARCH_QUERY).terms,
                 "デー|ータ|タ接|接続");
    CHECK_EQ_STR("hangul runs pair up apart from Han", terms_of("서버 오류", MF_SEARCH_QUERY).terms, "서버|오류");
    CHECK_EQ_STR("CJK punctuation and Latin between runs separate them",
                 terms_of("连接失败：getUser函数", MF_SEARCH_QUERY).terms, "连接|接失|失败|getuser|get|user|函数");
    collected hostile = terms_of("ab\xff\xfe" "cd\xe4\xb8", MF_SEARCH_DOCUMENT);
    CHECK_EQ_STR("invalid bytes separate words", hostile.terms, "ab|cd");
    char longword[200];
    memset(longword, 'x', sizeof longword - 1);
    longword[sizeof longword - 1] = 0;
    collected lw = terms_of(longword, MF_SEARCH_DOCUMENT);
    CHECK("a long word is its first MF_SEARCH_TERM_MAX bytes", lw.count == 1 && strlen(lw.terms) == MF_SEARCH_TERM_MAX);
    int seen = 0;
    CHECK("a callback's non-zero return stops the walk and is returned",
          mf_search_tokenize("getUserById 数据库", strlen("getUserById 数据库"), MF_SEARCH_DOCUMENT, stop_at_third, &seen) == 7 &&
              seen == 3);
    CHECK("tokens come in order of their start",
          terms_of("fooBar 数据 src/x.c 서버 a_b", MF_SEARCH_DOCUMENT).ordered);
}

static mf_search_text T(const char *s) { return (mf_search_text){s, strlen(s)}; }

/* BM25 written out for one term: the reference the C must agree with. */
static double bm25(double tf, double dl, double avgdl, double n, double df)
{
    double idf = log(1.0 + (n - df + 0.5) / (df + 0.5));
    return idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * dl / avgdl));
}

static bool near(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }

static void test_ranking(void)
{
    /* Lengths in tokens: 4, 2, 6, 3; avgdl 15/4. "cache" in texts 0 (twice) and 2. */
    mf_search_text texts[] = {T("cache miss cache hit"), T("cold start"), T("the cache was warm after start"),
                              T("nothing here either")};
    mf_search_hit *hits;
    size_t n;
    mf_error err;
    CHECK("a one-term query ranks", mf_search_rank(texts, 4, "cache", 5, 5, 240, &hits, &n, &err) == MF_OK);
    CHECK_EQ_U64("only the texts with the term are hits", n, 2);
    if (n == 2) {
        CHECK("the text with the term twice, shorter, ranks first", hits[0].entry == 0 && hits[1].entry == 2);
        CHECK("its score is BM25's (tf 2, 4 of 3.75 tokens, 2 of 4 texts)", near(hits[0].score, bm25(2, 4, 3.75, 4, 2)));
        CHECK("the second's too (tf 1, 6 tokens)", near(hits[1].score, bm25(1, 6, 3.75, 4, 2)));
    }
    mf_free(hits);

    CHECK("a two-term query ranks", mf_search_rank(texts, 4, "start cache", 11, 5, 240, &hits, &n, &err) == MF_OK);
    CHECK_EQ_U64("every text with either term is a hit", n, 3);
    if (n == 3) {
        CHECK("the text with both ranks first", hits[0].entry == 2);
        CHECK("its score is the sum over both terms",
              near(hits[0].score, bm25(1, 6, 3.75, 4, 2) + bm25(1, 6, 3.75, 4, 2)));
    }
    mf_free(hits);

    /* A rare term outweighs a common one: "alpha" in 3 of 4 texts, "omega" in 1. */
    mf_search_text idf_texts[] = {T("alpha beta"), T("alpha gamma"), T("alpha delta"), T("omega delta")};
    CHECK("idf", mf_search_rank(idf_texts, 4, "alpha omega", 11, 5, 240, &hits, &n, &err) == MF_OK);
    CHECK("the text with the rare term ranks above those with the common one", n == 4 && hits[0].entry == 3);
    CHECK("texts of equal score come in text order", n == 4 && hits[1].entry == 0 && hits[2].entry == 1 &&
                                                          hits[3].entry == 2 && hits[1].score == hits[3].score);
    mf_free(hits);

    /* Saturation: ten occurrences are worth less than (k1 + 1) times one. */
    mf_search_text sat[] = {T("retry retry retry retry retry retry retry retry retry retry"),
                            T("retry once then stop now ok fine so done yes")};
    CHECK("saturation", mf_search_rank(sat, 2, "retry", 5, 5, 240, &hits, &n, &err) == MF_OK && n == 2);
    if (n == 2) CHECK("a term's weight saturates below (k1 + 1) x its idf", hits[0].score < 2.2 * hits[1].score);
    if (n == 2) CHECK("ten occurrences still rank first", hits[0].entry == 0 && near(hits[0].score, bm25(10, 10, 10, 2, 2)));
    mf_free(hits);

    CHECK("limit", mf_search_rank(idf_texts, 4, "alpha", 5, 2, 240, &hits, &n, &err) == MF_OK && n == 2);
    mf_free(hits);
    CHECK("a query without terms has no hits",
          mf_search_rank(texts, 4, "?!", 2, 5, 240, &hits, &n, &err) == MF_OK && n == 0 && hits == NULL);
    CHECK("a query matching nothing has no hits",
          mf_search_rank(texts, 4, "zebra", 5, 5, 240, &hits, &n, &err) == MF_OK && n == 0 && hits == NULL);
    CHECK("no texts, no hits", mf_search_rank(NULL, 0, "cache", 5, 5, 240, &hits, &n, &err) == MF_OK && n == 0);
    CHECK("limit 0 is refused", mf_search_rank(texts, 4, "cache", 5, 0, 240, &hits, &n, &err) == MF_ERR_INVALID_ARG &&
                                    strstr(err.message, "limit") != NULL);
    CHECK("a snippet of 0 is refused", mf_search_rank(texts, 4, "cache", 5, 1, 0, &hits, &n, &err) == MF_ERR_INVALID_ARG);
    CHECK("a NULL text with a length is refused, with its index",
          mf_search_rank((mf_search_text[]){{NULL, 3}}, 1, "a", 1, 1, 1, &hits, &n, &err) == MF_ERR_INVALID_ARG &&
              err.position == 0);

    /* Chinese: the query's pairs find the text holding the word. */
    mf_search_text zh[] = {T("服务器返回错误：数据库连接超时"), T("数据已保存到文件"), T("连接成功")};
    CHECK("Chinese", mf_search_rank(zh, 3, "数据库连接", strlen("数据库连接"), 5, 240, &hits, &n, &err) == MF_OK);
    CHECK("the text holding the whole phrase ranks first", n == 3 && hits[0].entry == 0);
    mf_free(hits);
}

static size_t cps(const char *s, size_t len) { return mf_count_code_points(s, len); }

static void test_snippets(void)
{
    /* 300 code points of filler around one match, in a text of three-byte characters. */
    char text[4096];
    size_t at = 0;
    for (int i = 0; i < 150; i++) { memcpy(text + at, "中", 3); at += 3; }
    const char *needle = " needle ";
    memcpy(text + at, needle, strlen(needle));
    size_t needle_at = at + 1;
    at += strlen(needle);
    for (int i = 0; i < 150; i++) { memcpy(text + at, "文", 3); at += 3; }
    mf_search_text t = {text, at};
    mf_search_hit *hits;
    size_t n;
    mf_error err;
    CHECK("snippet", mf_search_rank(&t, 1, "needle", 6, 1, 40, &hits, &n, &err) == MF_OK && n == 1);
    if (n == 1) {
        size_t s = hits[0].snippet_start, e = hits[0].snippet_end;
        CHECK("the snippet holds the match", s <= needle_at && e >= needle_at + 6);
        CHECK_EQ_U64("the snippet is the asked number of code points", cps(text + s, e - s), 40);
        CHECK("its ends are on code point boundaries", (s == 0 || ((unsigned char)text[s] & 0xC0) != 0x80) &&
                                                           (e == at || ((unsigned char)text[e] & 0xC0) != 0x80));
        CHECK("the match is near its middle", needle_at - s >= 3 * 14 && e - (needle_at + 6) >= 3 * 14);
    }
    mf_free(hits);

    /* The window with both terms wins over the first occurrence of one. */
    mf_search_text two = T("alpha then a long stretch of other words that go on and on and on, and later alpha beta");
    CHECK("snippet of two terms", mf_search_rank(&two, 1, "alpha beta", 10, 1, 12, &hits, &n, &err) == MF_OK && n == 1);
    if (n == 1) {
        CHECK_EQ_MEM("the snippet is where both terms stand, its spare widened to the left at the end", two.text + hits[0].snippet_start,
                     hits[0].snippet_end - hits[0].snippet_start, "r alpha beta");
    }
    mf_free(hits);

    mf_search_text shortt = T("short text with the word");
    CHECK("short", mf_search_rank(&shortt, 1, "word", 4, 1, 240, &hits, &n, &err) == MF_OK && n == 1);
    CHECK("a text shorter than the snippet is whole", n == 1 && hits[0].snippet_start == 0 && hits[0].snippet_end == shortt.len);
    mf_free(hits);
}

static void test_failing_allocations(void)
{
    mf_search_text texts[] = {T("alpha beta alpha"), T("beta gamma 数据库"), T("alpha 数据")};
    bool all_clean = true;
    size_t tried = 0;
    for (size_t k = 1; k < 64; k++) {
        fa_fail_nth(k, false);
        mf_search_hit *hits = NULL;
        size_t n = 0;
        mf_error err;
        mf_status st = mf_search_rank(texts, 3, "alpha 数据库", strlen("alpha 数据库"), 3, 4, &hits, &n, &err);
        bool failed = fa_failed();
        fa_fail_nth(0, false);
        if (!failed) { mf_free(hits); break; }
        tried++;
        if (st != MF_ERR_NOMEM || hits != NULL || n != 0) all_clean = false;
        mf_free(hits);
    }
    CHECK("every allocation of a search was failed in turn", tried >= 4);
    CHECK("each failure is MF_ERR_NOMEM with no hits (nothing leaks: main.c checks)", all_clean);
}

void test_search(void)
{
    test_tokens();
    test_ranking();
    test_snippets();
    test_failing_allocations();
}
