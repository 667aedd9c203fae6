/* memory_path.c — which paths the memory tool accepts. Every path the model sends is
 * checked here before the host's store sees it, and the store only ever receives the
 * checked path (minus one trailing slash): no decoding, no Unicode normalization, no
 * resolving of "." or "..", so there is nothing for a trick to hide behind. What is
 * refused, and why:
 *
 * - anything that is not "/memories" or under "/memories/" (case matters);
 * - empty names ("//"), and names made only of dots (".", "..", "...");
 * - percent escapes ("%2e", "%2F", "%5c", "%25..."): a store that decodes keys (an HTTP
 *   backend, a URL router) would otherwise see a different path than was checked;
 * - backslashes, and : * ? " < > | (separators or specials on some file systems);
 * - control characters (C0, DEL, C1), line and paragraph separators, and invisible
 *   format characters (zero-width, bidi overrides, BOM, tags): a name must read as
 *   what it is;
 * - characters that fold to "." "/" "\" or "%" under NFKC (every one, from the generated
 *   memory_lookalike_table.c: fullwidth and small forms, dot leaders, the ellipsis, the
 *   vertical two-dot and ellipsis forms, ℀ ℁ ℅ ℆, ⒈ to ⒛, ㏂ ㏇ ㏘, 🄀) or look like them
 *   under Windows "best fit" code-page mappings (fraction and division slashes, set minus,
 *   the big and operator solidi): a store on a file system that folds them would turn
 *   "／．．／" into "/../" and "︰" into "..";
 * - names that begin or end with white space or end with a dot (Windows drops those, so
 *   ".. " and "..." would become "..");
 * - invalid UTF-8 and U+FFFD (what an unpaired surrogate becomes on the way in);
 * - paths over MF_MEMORY_MAX_PATH bytes, names over MF_MEMORY_MAX_NAME bytes, more than
 *   MF_MEMORY_MAX_DEPTH names below the root.
 * Other Unicode (CJK, accents, emoji) is allowed and compared byte for byte. */
#include "memory.h"
#include "base.h"

#include <string.h>

static const char ROOT[] = "/memories";

static bool is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Characters no name may hold: controls and invisible format characters. */
static bool is_hidden_char(uint32_t cp)
{
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) return true;
    switch (cp) {
    case 0xAD: case 0x34F: case 0x61C: case 0x115F: case 0x1160: case 0x17B4: case 0x17B5: case 0x180E:
    case 0x3164: case 0xFEFF: case 0xFFA0:
        return true;
    default:
        break;
    }
    return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x206F) ||
           (cp >= 0xFFF9 && cp <= 0xFFFB) || cp == 0xFFFE || cp == 0xFFFF || (cp >= 0x1D173 && cp <= 0x1D17A) ||
           (cp >= 0xE0000 && cp <= 0xE0FFF);
}

/* Characters that a folding store could turn into ".", "/", "\" or "%": NFKC's, from the
 * generated table, and the solidus look-alikes that NFKC leaves alone but code-page "best fit"
 * conversions and readers take for "/" or "\". */
static bool is_lookalike(uint32_t cp)
{
    switch (cp) {
    case 0x2044: case 0x2215: case 0x29F8: /* fraction slash, division slash, big solidus */
    case 0x2216: case 0x29F5: case 0x29F9: /* set minus, reverse solidus operator, big reverse solidus */
        return true;
    default:
        return mf_memory_nfkc_lookalike(cp);
    }
}

static bool is_space(uint32_t cp)
{
    return cp == 0x20 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F ||
           cp == 0x205F || cp == 0x3000;
}

/* The last code point of a non-empty, valid UTF-8 name. */
static uint32_t last_char(const unsigned char *s, size_t len)
{
    size_t i = len - 1;
    while (i > 0 && (s[i] & 0xC0) == 0x80) i--;
    uint32_t cp;
    mf_utf8_decode(s + i, len - i, &cp);
    return cp;
}

static mf_path_problem check_name(const unsigned char *s, size_t len)
{
    if (len == 0) return MF_PATH_EMPTY_NAME;
    if (len > MF_MEMORY_MAX_NAME) return MF_PATH_NAME_TOO_LONG;
    size_t dots = 0;
    while (dots < len && s[dots] == '.') dots++;
    if (dots == len) return MF_PATH_DOT_NAME;
    uint32_t first;
    mf_utf8_decode(s, len, &first);
    if (is_space(first) || is_space(last_char(s, len)) || s[len - 1] == '.') return MF_PATH_EDGE;
    return MF_PATH_OK;
}

mf_path_problem mf_memory_check_path(const char *path, size_t len, size_t *key_len)
{
    if (key_len) *key_len = 0;
    if (!path || len == 0) return MF_PATH_EMPTY;
    if (len > MF_MEMORY_MAX_PATH) return MF_PATH_TOO_LONG;
    const unsigned char *p = (const unsigned char *)path;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = mf_utf8_decode(p + i, len - i, &cp);
        if (cp == 0xFFFD) return MF_PATH_BAD_UTF8;
        if (is_hidden_char(cp)) return MF_PATH_CONTROL;
        if (cp == '\\') return MF_PATH_BACKSLASH;
        if (cp == '%' && len - i > 2 && is_hex(p[i + 1]) && is_hex(p[i + 2])) return MF_PATH_ENCODED;
        if (cp < 0x80 && strchr(":*?\"<>|", (int)cp)) return MF_PATH_RESERVED;
        if (is_lookalike(cp)) return MF_PATH_LOOKALIKE;
        i += n;
    }
    if (len < MF_MEMORY_ROOT_LEN || memcmp(path, ROOT, MF_MEMORY_ROOT_LEN) != 0 ||
        (len > MF_MEMORY_ROOT_LEN && path[MF_MEMORY_ROOT_LEN] != '/'))
        return MF_PATH_OUTSIDE_ROOT;
    size_t end = len;
    if (end > MF_MEMORY_ROOT_LEN && path[end - 1] == '/') end--; /* one trailing slash: a directory */
    size_t depth = 0;
    for (size_t at = MF_MEMORY_ROOT_LEN; at < end;) {
        size_t start = at + 1; /* path[at] is '/' */
        size_t stop = start;
        while (stop < end && path[stop] != '/') stop++;
        mf_path_problem problem = check_name(p + start, stop - start);
        if (problem) return problem;
        if (++depth > MF_MEMORY_MAX_DEPTH) return MF_PATH_TOO_DEEP;
        at = stop;
    }
    if (key_len) *key_len = end;
    return MF_PATH_OK;
}

const char *mf_path_problem_text(mf_path_problem problem)
{
    switch (problem) {
    case MF_PATH_OK: return "it is a valid memory path";
    case MF_PATH_EMPTY: return "it is empty";
    case MF_PATH_OUTSIDE_ROOT: return "every memory path starts with /memories";
    case MF_PATH_TOO_LONG: return "it is longer than 1024 bytes";
    case MF_PATH_NAME_TOO_LONG: return "a name in it is longer than 255 bytes";
    case MF_PATH_TOO_DEEP: return "it is nested more than 32 levels deep";
    case MF_PATH_EMPTY_NAME: return "it has an empty name (two slashes in a row)";
    case MF_PATH_DOT_NAME: return "it has a name made only of dots, like . or ..";
    case MF_PATH_ENCODED: return "it has a percent escape, like %2e or %2f";
    case MF_PATH_BACKSLASH: return "it has a backslash";
    case MF_PATH_CONTROL: return "it has a control or invisible character";
    case MF_PATH_BAD_UTF8: return "it is not valid UTF-8 text";
    case MF_PATH_RESERVED: return "it has one of the characters : * ? \" < > |";
    case MF_PATH_LOOKALIKE: return "it has a character that looks like . / \\ or %";
    case MF_PATH_EDGE: return "a name in it begins or ends with a space, or ends with a dot";
    }
    return "it is not a memory path";
}

bool mf_memory_is_key(const char *s, size_t len)
{
    size_t key_len = 0;
    return mf_memory_check_path(s, len, &key_len) == MF_PATH_OK && key_len == len;
}

void mf_memory_put_shown_path(mf_buf *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        if (i >= 160) { mf_buf_puts(b, "..."); return; }
        uint32_t cp;
        size_t n = mf_utf8_decode(p + i, len - i, &cp);
        if (cp == 0xFFFD && !(n == 3 && p[i] == 0xEF)) {
            char esc[4] = {'\\', 'x', hex[p[i] >> 4], hex[p[i] & 15]};
            mf_buf_append(b, esc, 4);
        } else if (is_hidden_char(cp) || cp == 0xFFFD) {
            char esc[10];
            int k = 0;
            esc[k++] = '\\';
            esc[k++] = 'u';
            int digits = cp > 0xFFFF ? 5 : 4;
            for (int d = digits - 1; d >= 0; d--) esc[k++] = hex[(cp >> (4 * d)) & 15];
            mf_buf_append(b, esc, (size_t)k);
        } else {
            mf_buf_append(b, s + i, n);
        }
        i += n;
    }
}
