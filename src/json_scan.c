/* json_scan.c — the top-level string members (and arrays of strings) of a JSON object text
 * (json_scan.h).
 *
 * The digest reads OpenAI arguments strings ('{"path": "src/a.js", "command": "npm test"}')
 * for a handful of string values. A tree parser (cJSON) would do, but it drags a parser into
 * every module that digests; this scanner is one bounded pass that checks the whole text and
 * keeps only what the digest reads. Nesting is a counter and a fixed stack, never recursion,
 * so a hostile text (truncated strings, bad escapes, lone surrogates, ten thousand brackets)
 * costs one scan and fails with a status. Raw control bytes inside strings are accepted, as
 * lenient parsers do: a model's arguments are read, not validated, here. */
#include "json_scan.h"
#include "tree.h"

#include <string.h>

typedef struct scan {
    const char *s;
    size_t n, i;
    bool strict;             /* refuse what cJSON refuses in a string: a lone surrogate, \u0000, a NUL byte */
} scan;

static void skip_ws(scan *sc)
{
    while (sc->i < sc->n) {
        char c = sc->s[sc->i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
        sc->i++;
    }
}

static bool take(scan *sc, char c)
{
    skip_ws(sc);
    if (sc->i < sc->n && sc->s[sc->i] == c) { sc->i++; return true; }
    return false;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Four hex digits at s[i..i+4), or -1. */
static long hex4(const scan *sc, size_t i)
{
    if (sc->n - i < 4) return -1;
    long v = 0;
    for (size_t k = 0; k < 4; k++) {
        int d = hex_digit(sc->s[i + k]);
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

/* A string starting at the opening quote. With `arena`, *out and *out_len receive its decoded
 * bytes: borrowed from the text when it has no escape, else decoded into the arena (an escape
 * never decodes longer than it is written, so the raw length bounds the copy). Returns
 * MF_OK, MF_ERR_PARSE or MF_ERR_NOMEM. */
static mf_status read_string(scan *sc, mf_arena *arena, const char **out, size_t *out_len)
{
    if (sc->i >= sc->n || sc->s[sc->i] != '"') return MF_ERR_PARSE;
    size_t start = ++sc->i;
    bool escaped = false;
    while (sc->i < sc->n && sc->s[sc->i] != '"') {
        if (sc->s[sc->i] == '\\') {
            escaped = true;
            if (sc->n - sc->i < 2) return MF_ERR_PARSE;
            char e = sc->s[sc->i + 1];
            if (e == 'u') {
                long cp = hex4(sc, sc->i + 2);
                if (cp < 0) return MF_ERR_PARSE;
                sc->i += 6;
                if (sc->strict && (cp == 0 || (cp >= 0xDC00 && cp <= 0xDFFF))) return MF_ERR_PARSE;
                if (sc->strict && cp >= 0xD800 && cp <= 0xDBFF) { /* a pair, or nothing */
                    long low = sc->n - sc->i >= 6 && sc->s[sc->i] == '\\' && sc->s[sc->i + 1] == 'u' ? hex4(sc, sc->i + 2) : -1;
                    if (low < 0xDC00 || low > 0xDFFF) return MF_ERR_PARSE;
                    sc->i += 6;
                }
            } else if (e && strchr("\"\\/bfnrt", e)) {
                sc->i += 2;
            } else {
                return MF_ERR_PARSE;
            }
        } else {
            if (sc->strict && !sc->s[sc->i]) return MF_ERR_PARSE;
            sc->i++;
        }
    }
    if (sc->i >= sc->n) return MF_ERR_PARSE; /* unterminated */
    size_t end = sc->i++;
    if (!arena) return MF_OK;
    if (!escaped) { *out = sc->s + start; *out_len = end - start; return MF_OK; }
    char *dst = mf_arena_alloc(arena, end - start + 1);
    if (!dst) return MF_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = start; i < end;) {
        char c = sc->s[i];
        if (c != '\\') { dst[k++] = c; i++; continue; }
        char e = sc->s[i + 1];
        i += 2;
        switch (e) {
        case 'b': dst[k++] = '\b'; continue;
        case 'f': dst[k++] = '\f'; continue;
        case 'n': dst[k++] = '\n'; continue;
        case 'r': dst[k++] = '\r'; continue;
        case 't': dst[k++] = '\t'; continue;
        case 'u': break;
        default: dst[k++] = e; continue; /* " \ / */
        }
        uint32_t cp = (uint32_t)hex4(sc, i);
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF && end - i >= 6 && sc->s[i] == '\\' && sc->s[i + 1] == 'u') {
            long low = hex4(sc, i + 2);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)low - 0xDC00);
                i += 6;
            }
        }
        /* A lone surrogate is no character, and a NUL would cut the text for C readers. */
        if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0) cp = 0xFFFD;
        k += mf_utf8_encode(cp, dst + k);
    }
    dst[k] = 0;
    *out = dst;
    *out_len = k;
    return MF_OK;
}

static bool digits(scan *sc)
{
    size_t from = sc->i;
    while (sc->i < sc->n && sc->s[sc->i] >= '0' && sc->s[sc->i] <= '9') sc->i++;
    return sc->i > from;
}

/* A number by JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool read_number(scan *sc)
{
    if (sc->i < sc->n && sc->s[sc->i] == '-') sc->i++;
    if (sc->i < sc->n && sc->s[sc->i] == '0') sc->i++;
    else if (!digits(sc)) return false;
    if (sc->i < sc->n && sc->s[sc->i] == '.') { sc->i++; if (!digits(sc)) return false; }
    if (sc->i < sc->n && (sc->s[sc->i] == 'e' || sc->s[sc->i] == 'E')) {
        sc->i++;
        if (sc->i < sc->n && (sc->s[sc->i] == '+' || sc->s[sc->i] == '-')) sc->i++;
        if (!digits(sc)) return false;
    }
    return true;
}

static bool read_word(scan *sc, const char *w)
{
    size_t len = strlen(w);
    if (sc->n - sc->i < len || memcmp(sc->s + sc->i, w, len) != 0) return false;
    sc->i += len;
    return true;
}

/* "KEY" : — the key of a member, then its colon. */
static mf_status read_key(scan *sc, mf_arena *arena, const char **key, size_t *key_len)
{
    skip_ws(sc);
    mf_status st = read_string(sc, arena, key, key_len);
    if (st) return st;
    return take(sc, ':') ? MF_OK : MF_ERR_PARSE;
}

/* Checks one value of any kind, at most `max_depth` containers deep, and steps over it.
 * Containers nest on a fixed stack. */
static mf_status skip_value(scan *sc, size_t max_depth)
{
    char stack[MF_MAX_DEPTH];
    size_t depth = 0;
    for (;;) {
        skip_ws(sc);
        if (sc->i >= sc->n) return MF_ERR_PARSE;
        char c = sc->s[sc->i];
        if (c == '{' || c == '[') {
            if (depth == max_depth) return MF_ERR_DEPTH;
            stack[depth++] = c;
            sc->i++;
            if (take(sc, c == '{' ? '}' : ']')) {
                depth--;
            } else {
                if (c == '{') {
                    mf_status st = read_key(sc, NULL, NULL, NULL);
                    if (st) return st;
                }
                continue; /* its first value */
            }
        } else if (c == '"') {
            mf_status st = read_string(sc, NULL, NULL, NULL);
            if (st) return st;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            if (!read_number(sc)) return MF_ERR_PARSE;
        } else if (!read_word(sc, "true") && !read_word(sc, "false") && !read_word(sc, "null")) {
            return MF_ERR_PARSE;
        }
        /* After a value: close what ends here, or go on to the next item. */
        for (;;) {
            if (!depth) return MF_OK;
            char open = stack[depth - 1];
            if (take(sc, open == '{' ? '}' : ']')) { depth--; continue; }
            if (!take(sc, ',')) return MF_ERR_PARSE;
            if (open == '{') {
                mf_status st = read_key(sc, NULL, NULL, NULL);
                if (st) return st;
            }
            break;
        }
    }
}

/* An array of strings at sc->i (`["bash", "-lc", "cargo test"]`, an argv): *matched when it
 * is one, and with `arena` *out becomes its MF_ARRAY node; anything else leaves sc->i where it
 * was, for skip_value to check. */
static mf_status string_array(scan *sc, mf_arena *arena, mf_node *out, bool *matched)
{
    size_t start = sc->i;
    uint32_t count = 0;
    mf_node *items = NULL;
    *matched = false;
    for (int pass = 0; pass < (arena ? 2 : 1); pass++) {
        if (pass && count && !(items = mf_arena_calloc(arena, count, sizeof *items))) return MF_ERR_NOMEM;
        sc->i = start + 1;
        uint32_t k = 0;
        if (!take(sc, ']')) {
            do {
                skip_ws(sc);
                const char *v = NULL;
                size_t v_len = 0;
                if (sc->i >= sc->n || sc->s[sc->i] != '"' || k == UINT32_MAX) { sc->i = start; return MF_OK; }
                mf_status st = read_string(sc, pass ? arena : NULL, &v, &v_len);
                if (st == MF_ERR_NOMEM) return st;
                if (st) { sc->i = start; return MF_OK; }
                if (pass) { items[k].kind = MF_STRING; items[k].str = v; items[k].len = v_len; }
                k++;
            } while (take(sc, ','));
            if (!take(sc, ']')) { sc->i = start; return MF_OK; }
        }
        count = k;
    }
    if (arena) { memset(out, 0, sizeof *out); out->kind = MF_ARRAY; out->items = items; out->count = count; }
    *matched = true;
    return MF_OK;
}

/* One pass over the object: counts its string members (items NULL) or fills items. */
static mf_status members(const char *json, size_t len, mf_arena *arena, mf_node *items, uint32_t *count)
{
    scan sc = {json, len, 0, false};
    *count = 0;
    if (!take(&sc, '{')) return MF_ERR_PARSE;
    if (!take(&sc, '}')) {
        do {
            const char *key = NULL, *value = NULL;
            size_t key_len = 0, value_len = 0;
            mf_status st = read_key(&sc, items ? arena : NULL, &key, &key_len);
            if (st) return st;
            skip_ws(&sc);
            if (sc.i < sc.n && sc.s[sc.i] == '"') {
                st = read_string(&sc, items ? arena : NULL, &value, &value_len);
                if (st) return st;
                if (*count == UINT32_MAX) return MF_ERR_TOO_LARGE;
                if (items) {
                    mf_node *m = &items[*count];
                    memset(m, 0, sizeof *m);
                    m->kind = MF_STRING;
                    m->str = value; m->len = value_len;
                    m->key = key; m->key_len = key_len;
                }
                (*count)++;
            } else {
                bool array = false;
                mf_node *m = items ? &items[*count] : NULL;
                if (sc.i < sc.n && sc.s[sc.i] == '[' && (st = string_array(&sc, items ? arena : NULL, m, &array)) != MF_OK) return st;
                if (array) {
                    if (*count == UINT32_MAX) return MF_ERR_TOO_LARGE;
                    if (m) { m->key = key; m->key_len = key_len; }
                    (*count)++;
                } else if ((st = skip_value(&sc, MF_MAX_DEPTH - 1)) != MF_OK) { /* the object is one level */
                    return st;
                }
            }
        } while (take(&sc, ','));
        if (!take(&sc, '}')) return MF_ERR_PARSE;
    }
    skip_ws(&sc);
    return sc.i == sc.n ? MF_OK : MF_ERR_PARSE; /* nothing after the object */
}

mf_status mf_json_scan_strings(mf_arena *arena, const char *json, size_t len, mf_node *out)
{
    memset(out, 0, sizeof *out);
    out->kind = MF_OBJECT;
    uint32_t count = 0;
    mf_status st = json ? members(json, len, NULL, NULL, &count) : MF_ERR_PARSE;
    if (st) return st == MF_ERR_TOO_LARGE ? MF_ERR_PARSE : st;
    if (!count) return MF_OK;
    mf_node *items = mf_arena_calloc(arena, count, sizeof *items);
    if (!items) return MF_ERR_NOMEM;
    st = members(json, len, arena, items, &count);
    if (st) return st; /* only memory can fail the second time */
    out->items = items;
    out->count = count;
    return MF_OK;
}

/* ---- printing JSON text back ------------------------------------------------------ */
