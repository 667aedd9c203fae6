/* test_utf8.c — code points in UTF-8 text: strict decoding, where each byte that does not
 * start a valid sequence stands for one code point of its own. */
#include <string.h>

#include "check.h"
#include "midfold.h"
#include "suites.h"

#define COUNT(lit) mf_count_code_points((lit), sizeof(lit) - 1)

static void valid_text(void)
{
    CHECK("an empty text has no code points", mf_count_code_points("", 0) == 0);
    CHECK("a NULL text of length 0 has no code points", mf_count_code_points(NULL, 0) == 0);
    CHECK("ASCII has one code point per byte", COUNT("ls -la\n") == 7);
    CHECK("a two-byte letter is one code point", COUNT("h\xc3\xa9llo") == 5);
    CHECK("Chinese is one code point per character", COUNT("你好，世界") == 5);
    CHECK("an emoji outside the BMP is one code point", COUNT("\xf0\x9f\x98\x80") == 1);
    CHECK("a NUL byte inside the given length is a code point", COUNT("a\0b") == 3);
    CHECK("only the given length is read", mf_count_code_points("hello", 3) == 3);
    CHECK("U+FFFD written out is one code point", COUNT("\xef\xbf\xbd") == 1);
}

static void boundaries(void)
{
    CHECK("U+007F is one code point", COUNT("\x7f") == 1);
    CHECK("U+0080, the first two-byte value, is one code point", COUNT("\xc2\x80") == 1);
    CHECK("U+07FF, the last two-byte value, is one code point", COUNT("\xdf\xbf") == 1);
    CHECK("U+0800, the first three-byte value, is one code point", COUNT("\xe0\xa0\x80") == 1);
    CHECK("U+D7FF, just below the surrogates, is one code point", COUNT("\xed\x9f\xbf") == 1);
    CHECK("U+E000, just above the surrogates, is one code point", COUNT("\xee\x80\x80") == 1);
    CHECK("U+FFFF is one code point", COUNT("\xef\xbf\xbf") == 1);
    CHECK("U+10000, the first four-byte value, is one code point", COUNT("\xf0\x90\x80\x80") == 1);
    CHECK("U+10FFFF, the last code point, is one code point", COUNT("\xf4\x8f\xbf\xbf") == 1);
}

static void invalid_bytes(void)
{
    CHECK("a byte 0xFF is one code point", COUNT("\xff") == 1);
    CHECK("lone continuation bytes count one each", COUNT("\x80\xbf") == 2);
    CHECK("a sequence cut short counts each of its bytes", COUNT("\xe4\xbd") == 2);
    CHECK("a sequence cut short before a valid character counts its bytes and the character",
          COUNT("\xe4\xbd" "好") == 3);
    CHECK("a sequence cut by the given length counts each byte left", mf_count_code_points("你", 2) == 2);
    CHECK("an overlong NUL (C0 80) is two invalid bytes", COUNT("\xc0\x80") == 2);
    CHECK("an overlong '/' in three bytes is three invalid bytes", COUNT("\xe0\x80\xaf") == 3);
    CHECK("an overlong euro sign in four bytes is four invalid bytes", COUNT("\xf0\x82\x82\xac") == 4);
    CHECK("an encoded high surrogate (U+D800) is three invalid bytes", COUNT("\xed\xa0\x80") == 3);
    CHECK("an encoded low surrogate (U+DFFF) is three invalid bytes", COUNT("\xed\xbf\xbf") == 3);
    CHECK("a CESU-8 surrogate pair is six invalid bytes", COUNT("\xed\xa0\xbd\xed\xb8\x80") == 6);
    CHECK("a value past U+10FFFF (F4 90 80 80) is four invalid bytes", COUNT("\xf4\x90\x80\x80") == 4);
    CHECK("a lead byte F5 is invalid on its own", COUNT("\xf5\x80\x80\x80") == 4);
    CHECK("an invalid byte inside text costs one code point and no more",
          COUNT("ok \xff done") == 9);
}

void test_utf8(void)
{
    valid_text();
    boundaries();
    invalid_bytes();
}
