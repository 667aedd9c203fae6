/* text_features_ascii.c — the feature pass over stretches of ASCII, up to 64 bytes at a
 * time as bit masks (bit j stands for byte j).
 *
 * Code, JSON and logs are mostly ASCII, and there the code-point state machine of
 * text_features.c spends its time deciding, byte by byte, which run closes. Here each
 * class is a mask: per-code-point counts are popcounts of masks and of masks shifted by
 * one (the previous code point), and runs are counted from their start and end masks. The
 * one run of each kind that was open before the block (the head) and the one still open
 * after it (the tail) go through the same state as the general path, so the two paths can
 * hand over at any code point and count exactly what model.mjs counts. Only the
 * letter-pair boundaries need a table lookup: per byte in wasm (a table indexed by the two
 * bytes, so pairs need no classifying), per letter pair in native builds.
 *
 * The masks come from wasm SIMD in the module (16 bytes per compare) and from a plain
 * loop in native builds, where everything after the masks is the same code the tests run
 * under the sanitizers. */
#include "text_features.h"

#include <string.h>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

/* One block's classes (the text's classes of model.mjs restricted to ASCII), plus the
 * vowels (a e i o u y, either case) and `eq`: the byte equals the code point before it. A
 * letter pair is a lower-case letter after a letter or a capital after a capital (as in
 * text_features.c: lower -> upper is a camel-case step, priced by CAMEL). */
typedef struct ascii_masks {
    uint64_t lower, upper, digit, space, tab, nl, pstr, punct, ctrl, vowel, eq;
    uint64_t pairs; /* the packed boundary entries of its letter pairs, lower-case and capital */
} ascii_masks;

/* The previous code point of the block's first byte, for `eq`: a value no ASCII byte
 * equals when there is none (or when it is not ASCII, so it cannot be equal). */
#define NO_PREV 0x100u

static uint64_t low_bits(unsigned n) { return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1; }
static unsigned popcount(uint64_t x) { return (unsigned)__builtin_popcountll(x); }
/* The number of set bits from bit 0 up to the first clear one. */
static unsigned leading_run(uint64_t x) { return ~x ? (unsigned)__builtin_ctzll(~x) : 64; }
/* The number of set bits from bit n - 1 down to the first clear one. */
static unsigned trailing_run(uint64_t x, unsigned n)
{
    uint64_t clear = ~x & low_bits(n);
    return clear ? n - 1 - (63 - (unsigned)__builtin_clzll(clear)) : n;
}
static unsigned highest_bit(uint64_t x) { return 63 - (unsigned)__builtin_clzll(x); }

/* Sums the packed entries of the letters in `where`, each paired with the byte before it
 * (the block's first byte with `prev`). At most 64 pairs of at most 255 each: no field
 * carries into the next. */
static uint64_t pair_sum(const uint64_t *entries, const unsigned char *p, uint64_t where, unsigned prev)
{
    uint64_t sum = 0;
    if (where & 1) {
        sum += entries[(prev & 31) << 5 | (p[0] & 31)];
        where &= where - 1;
    }
    while (where) {
        unsigned j = (unsigned)__builtin_ctzll(where);
        where &= where - 1;
        sum += entries[(p[j - 1] & 31u) << 5 | (p[j] & 31u)];
    }
    return sum;
}

#ifndef __wasm_simd128__
/* Native builds look letter pairs up in mf_packed_pairs itself: nothing more to fill. */
void mf_features_ascii_init(void) {}

/* " ' ( ) , . : ; [ ] { } as a 128-bit set (model.mjs's PSTR). */
static bool is_pstr(unsigned b)
{
    static const uint64_t set[2] = {
        (uint64_t)1 << '"' | (uint64_t)1 << '\'' | (uint64_t)1 << '(' | (uint64_t)1 << ')' | (uint64_t)1 << ',' |
            (uint64_t)1 << '.' | (uint64_t)1 << ':' | (uint64_t)1 << ';',
        (uint64_t)1 << ('[' - 64) | (uint64_t)1 << (']' - 64) | (uint64_t)1 << ('{' - 64) |
            (uint64_t)1 << ('}' - 64)};
    return set[b >> 6] >> (b & 63) & 1;
}

/* The masks of the ASCII bytes that start p[0..n), one byte at a time (native builds: the
 * same masks as the SIMD version, which the JS tests check against the specification).
 * Returns how many bytes they cover: up to the first non-ASCII one. */
static unsigned build_masks(const unsigned char *p, unsigned n, unsigned prev, ascii_masks *m)
{
    memset(m, 0, sizeof *m);
    for (unsigned j = 0; j < n; j++) {
        unsigned b = p[j];
        if (b >= 0x80) {
            n = j;
            break;
        }
        uint64_t bit = (uint64_t)1 << j;
        unsigned folded = (b | 0x20) - 'a';
        if (b - 'a' < 26u) m->lower |= bit;
        else if (b - 'A' < 26u) m->upper |= bit;
        else if (b - '0' < 10u) m->digit |= bit;
        else if (b == ' ') m->space |= bit;
        else if (b == '\t') m->tab |= bit;
        else if (b == '\n' || b == '\r') m->nl |= bit;
        else if (is_pstr(b)) m->pstr |= bit;
        else if (b >= 33 && b <= 126) m->punct |= bit;
        else m->ctrl |= bit;
        if (folded < 26u && (1u << 0 | 1u << 4 | 1u << 8 | 1u << 14 | 1u << 20 | 1u << 24) >> folded & 1)
            m->vowel |= bit;
        if (b == (j ? p[j - 1] : prev)) m->eq |= bit;
    }
    uint64_t prev_lower = m->lower << 1 | (prev - 'a' < 26u), prev_upper = m->upper << 1 | (prev - 'A' < 26u);
    m->pairs = pair_sum(mf_packed_pairs[0], p, m->lower & (prev_lower | prev_upper), prev) +
               pair_sum(mf_packed_pairs[1], p, m->upper & prev_upper, prev);
    return n;
}
#else
/* Lanes holding a byte in [lo, lo + span), for ASCII lanes: moved so that the range starts
 * at -128, one signed compare (x64 has no unsigned byte compare; wasm's costs four). */
static v128_t in_range(v128_t v, unsigned char lo, unsigned char span)
{
    return wasm_i8x16_lt(wasm_i8x16_add(v, wasm_i8x16_splat((int8_t)(0x80 - lo))), wasm_i8x16_splat((int8_t)(span - 128)));
}

/* Membership in a set of ASCII bytes through two 16-entry tables, by high and low nibble,
 * whose entries are group bits below 0x80: a byte is in the set when its nibbles share a
 * group, and adding 0x7F to the shared bits moves "any" into the sign bit bitmask reads. */
static v128_t in_nibble_set(v128_t high, v128_t low, v128_t by_high, v128_t by_low)
{
    v128_t shared = wasm_v128_and(wasm_i8x16_swizzle(by_high, high), wasm_i8x16_swizzle(by_low, low));
    return wasm_i8x16_add(shared, wasm_i8x16_splat(0x7F));
}

/* The packed boundary entry of every pair of ASCII bytes, by the first byte minus '@'
 * (saturating, so every byte below '@' shares the row of '@', which is all zeros) and
 * the second byte: a letter pair's entry (capital pairs from the caps table), 0 for any
 * other pair. Indexing by the bytes themselves costs four SIMD operations a vector where
 * classifying the pair first cost twenty. 64 KB of zeroed memory, filled at first use. */
static uint64_t byte_pairs[64 * 128];

void mf_features_ascii_init(void)
{
    for (unsigned first = 'A'; first < 0x80; first++)
        for (unsigned second = 'A'; second < 0x80; second++) {
            bool first_upper = first - 'A' < 26u, first_lower = first - 'a' < 26u;
            bool second_upper = second - 'A' < 26u, second_lower = second - 'a' < 26u;
            unsigned pair = (first & 31) << 5 | (second & 31);
            uint64_t entry = 0;
            if ((first_upper || first_lower) && second_lower) entry = mf_packed_pairs[0][pair];
            else if (first_upper && second_upper) entry = mf_packed_pairs[1][pair];
            byte_pairs[(first - 0x40) << 7 | second] = entry;
        }
}

/* The masks of the ASCII bytes that start p[0..n), 16 bytes per step, and the letter-pair
 * sums; returns how many bytes they cover (up to the first non-ASCII one). Bytes past n
 * are read from a zeroed copy when the block is short; bytes past the count are cleared
 * from every mask and have no pair. */
static unsigned build_masks(const unsigned char *p, unsigned n, unsigned prev, ascii_masks *m)
{
    unsigned char copy[64];
    if (n < 64) {
        memset(copy, 0, sizeof copy);
        memcpy(copy, p, n);
        p = copy;
    }
    /* PSTR: high nibble 2 with low 2 7 8 9 C E (group 1); 3 with A B (group 2); 5 and 7
     * with B D (group 4). Vowels, case-folded (high nibble 6 or 7): 6 with 1 5 9 F
     * (group 1); 7 with 5 9 (group 2). */
    const v128_t pstr_hi = wasm_i8x16_make(0, 0, 1, 2, 0, 4, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0);
    const v128_t pstr_lo = wasm_i8x16_make(0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 2, 6, 1, 4, 1, 0);
    const v128_t vowel_hi = wasm_i8x16_make(0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0);
    const v128_t vowel_lo = wasm_i8x16_make(0, 1, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1);
    /* Each mask's four 16-lane bitmasks, stored as they come (live vectors would not fit in
     * registers) and read back as one little-endian 64-bit word. */
    enum { HIGH, LOWER, UPPER, DIGIT, SPACE, TAB, NL, PSTR, PRINT, VOWEL, EQ, KINDS };
    uint16_t bits[KINDS][4];
    uint16_t index[64];
    /* The byte before the block, or NUL when there is none or it is not ASCII: it then
     * indexes the zero row of byte_pairs, and a NUL it may equal is never repeated
     * punctuation (the only use of `eq`). */
    v128_t before = wasm_i8x16_splat((int8_t)(prev < 0x80 ? prev : 0));
    for (unsigned k = 0; k < 4; k++) {
        v128_t v = wasm_v128_load(p + 16 * k);
        /* the byte before each lane: the last lane of the previous vector, then this one's */
        v128_t last = wasm_i8x16_shuffle(before, v, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
        before = v;
        v128_t lower = in_range(v, 'a', 26), upper = in_range(v, 'A', 26);
        v128_t high = wasm_u8x16_shr(v, 4), low = wasm_v128_and(v, wasm_i8x16_splat(0x0F));
        v128_t vowel = in_nibble_set(wasm_v128_or(high, wasm_i8x16_splat(2)), low, vowel_hi, vowel_lo);
        bits[HIGH][k] = (uint16_t)wasm_i8x16_bitmask(v);
        bits[LOWER][k] = (uint16_t)wasm_i8x16_bitmask(lower);
        bits[UPPER][k] = (uint16_t)wasm_i8x16_bitmask(upper);
        bits[DIGIT][k] = (uint16_t)wasm_i8x16_bitmask(in_range(v, '0', 10));
        bits[SPACE][k] = (uint16_t)wasm_i8x16_bitmask(wasm_i8x16_eq(v, wasm_i8x16_splat(' ')));
        bits[TAB][k] = (uint16_t)wasm_i8x16_bitmask(wasm_i8x16_eq(v, wasm_i8x16_splat('\t')));
        bits[NL][k] = (uint16_t)wasm_i8x16_bitmask(
            wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat('\n')), wasm_i8x16_eq(v, wasm_i8x16_splat('\r'))));
        bits[PSTR][k] = (uint16_t)wasm_i8x16_bitmask(in_nibble_set(high, low, pstr_hi, pstr_lo));
        bits[PRINT][k] = (uint16_t)wasm_i8x16_bitmask(in_range(v, 33, 94));
        bits[VOWEL][k] = (uint16_t)wasm_i8x16_bitmask(wasm_v128_and(wasm_v128_or(lower, upper), vowel));
        bits[EQ][k] = (uint16_t)wasm_i8x16_bitmask(wasm_i8x16_eq(v, last));
        /* each lane's byte_pairs index: (byte before - '@', saturating) * 128 + byte */
        v128_t row = wasm_u8x16_sub_sat(last, wasm_i8x16_splat(0x40));
        wasm_v128_store(index + 16 * k, wasm_v128_or(wasm_i16x8_shl(wasm_u16x8_extend_low_u8x16(row), 7),
                                                     wasm_u16x8_extend_low_u8x16(v)));
        wasm_v128_store(index + 16 * k + 8, wasm_v128_or(wasm_i16x8_shl(wasm_u16x8_extend_high_u8x16(row), 7),
                                                         wasm_u16x8_extend_high_u8x16(v)));
    }
    uint64_t word[KINDS];
    memcpy(word, bits, sizeof word);
    if (word[HIGH]) {
        unsigned ascii = (unsigned)__builtin_ctzll(word[HIGH]);
        if (ascii < n) n = ascii;
    }
    uint64_t valid = low_bits(n);
    m->lower = word[LOWER] & valid;
    m->upper = word[UPPER] & valid;
    m->digit = word[DIGIT] & valid;
    m->space = word[SPACE] & valid;
    m->tab = word[TAB] & valid;
    m->nl = word[NL] & valid;
    m->pstr = word[PSTR] & valid;
    m->punct = word[PRINT] & ~(m->lower | m->upper | m->digit | m->pstr) & valid;
    m->ctrl = valid & ~(m->lower | m->upper | m->digit | m->space | m->tab | m->nl | m->pstr | m->punct);
    m->vowel = word[VOWEL] & valid;
    m->eq = word[EQ] & valid;
    /* Every lane's entry, in two sums so the adds overlap. Only lanes below n: past them a
     * byte may be non-ASCII, and its index outside the table. */
    uint64_t sum0 = 0, sum1 = 0;
    unsigned j = 0;
    for (; j + 2 <= n; j += 2) {
        sum0 += byte_pairs[index[j]];
        sum1 += byte_pairs[index[j + 1]];
    }
    if (j < n) sum0 += byte_pairs[index[j]];
    m->pairs = sum0 + sum1;
    return n;
}
#endif

/* Letter runs: W1..W11 and NOVOW when one closes, LONG for each letter after a run's 8th,
 * and the open run's state. `letters` = lower | upper (every ALPHA of an ASCII block). */
static void letter_runs(mf_feature_state *st, const ascii_masks *m, uint64_t letters, unsigned n, uint64_t c[])
{
    uint64_t inside = letters; /* the letters of runs that start in this block */
    if (st->word_len) {
        unsigned h = leading_run(letters);
        if (h > n) h = n;
        uint32_t before = st->word_len;
        st->word_len += h;
        c[MF_F_LONG] += (st->word_len > 8 ? st->word_len - 8 : 0) - (before > 8 ? before - 8 : 0);
        st->vowel |= (m->vowel & low_bits(h)) != 0;
        if (h == n) return; /* the run goes on past the block */
        uint32_t w = st->word_len;
        c[w == 1 ? MF_F_W1 : w <= 3 ? MF_F_W2 : w <= 6 ? MF_F_W4 : w <= 10 ? MF_F_W7 : MF_F_W11]++;
        if (w >= 2 && !st->vowel) c[MF_F_NOVOW]++;
        if (st->non_ascii) c[MF_F_XWORD]++;
        st->word_len = 0;
        st->vowel = st->non_ascii = false;
        inside &= ~low_bits(h);
    }
    /* LONG: letters with eight letters of their run before them. */
    uint64_t w2 = inside & inside << 1, w4 = w2 & w2 << 2, w8 = w4 & w4 << 4;
    c[MF_F_LONG] += popcount(w8 & w8 << 1);
    unsigned t = trailing_run(inside, n);
    uint64_t closed = inside & ~(t ? ~low_bits(n - t) : 0);
    if (closed) {
        /* Run lengths by windows: g_k has bit j when j .. j+k-1 are letters of one run. */
        uint64_t starts = closed & ~(closed << 1);
        uint64_t g2 = closed & closed >> 1, g4 = g2 & g2 >> 2, g7 = g4 & g4 >> 3, g11 = g7 & g4 >> 7;
        unsigned runs = popcount(starts), r2 = popcount(starts & g2), r4 = popcount(starts & g4),
                 r7 = popcount(starts & g7), r11 = popcount(starts & g11);
        c[MF_F_W1] += runs - r2;
        c[MF_F_W2] += r2 - r4;
        c[MF_F_W4] += r4 - r7;
        c[MF_F_W7] += r7 - r11;
        c[MF_F_W11] += r11;
        /* NOVOW: adding a run's first bit to its consonants carries through them and lands
         * on its first vowel, or past its end when it has none. */
        uint64_t consonants = closed & ~m->vowel;
        uint64_t seeds = starts & consonants & closed >> 1;
        c[MF_F_NOVOW] += popcount((consonants + seeds) & ~consonants & ~closed);
    }
    if (t) {
        uint64_t tail = ~low_bits(n - t) & low_bits(n);
        st->word_len = t;
        st->vowel = (m->vowel & tail) != 0;
        st->non_ascii = false;
    }
}

/* Alphanumeric runs: MIXRUN and MIXCHR when one holding letters and digits closes. */
static void alnum_runs(mf_feature_state *st, uint64_t letters, uint64_t digits, unsigned n, uint64_t c[])
{
    uint64_t alnum = letters | digits, inside = alnum;
    if (st->al) {
        unsigned h = leading_run(alnum);
        if (h > n) h = n;
        st->al += h;
        st->al_letter |= (letters & low_bits(h)) != 0;
        st->al_digit |= (digits & low_bits(h)) != 0;
        if (h == n) return;
        if (st->al_letter && st->al_digit) { c[MF_F_MIXRUN]++; c[MF_F_MIXCHR] += st->al; }
        st->al = 0;
        st->al_letter = st->al_digit = false;
        inside &= ~low_bits(h);
    }
    unsigned t = trailing_run(inside, n);
    uint64_t tail = t ? ~low_bits(n - t) & low_bits(n) : 0;
    uint64_t closed = inside & ~tail;
    if (closed & digits) {
        /* Spread each run's letters and digits over the whole run (prefix and suffix OR
         * within runs, doubling the reach each step): a run is mixed where both cover it. */
        uint64_t up_d = digits & closed, up_l = letters & closed, down_d = up_d, down_l = up_l;
        uint64_t up_run = closed & closed << 1, down_run = closed & closed >> 1; /* bit j: j and j -/+ 1 in one run */
        for (unsigned shift = 1; shift < 64; shift <<= 1) {
            up_d |= up_d << shift & up_run;
            up_l |= up_l << shift & up_run;
            down_d |= down_d >> shift & down_run;
            down_l |= down_l >> shift & down_run;
            up_run &= up_run << shift; /* j .. j - 2 * shift in one run, for the next step */
            down_run &= down_run >> shift;
        }
        uint64_t mixed = (up_d | down_d) & (up_l | down_l);
        c[MF_F_MIXRUN] += popcount(mixed & ~(mixed << 1));
        c[MF_F_MIXCHR] += popcount(mixed);
    }
    if (t) {
        st->al = t;
        st->al_letter = (letters & tail) != 0;
        st->al_digit = (digits & tail) != 0;
    }
}

/* Digit runs: DGRP at each run's 1st, 4th, 7th, ... digit (DRUN is a popcount). */
static void digit_groups(mf_feature_state *st, uint64_t digits, unsigned n, uint64_t c[])
{
    uint64_t inside = digits;
    if (st->prev_class == MF_F_DIGIT) {
        unsigned h = leading_run(digits);
        if (h > n) h = n;
        uint32_t before = st->digits;
        st->digits += h;
        c[MF_F_DGRP] += (st->digits + 2) / 3 - (before + 2) / 3;
        if (h == n) return;
        inside &= ~low_bits(h);
    }
    /* a group starts where one started three digits before, with those three all digits */
    uint64_t three = inside & inside << 1 & inside << 2;
    for (uint64_t groups = inside & ~(inside << 1); groups; groups = groups << 3 & three)
        c[MF_F_DGRP] += popcount(groups);
    st->digits = trailing_run(inside, n);
}

/* Whitespace runs: what each closed one is (WS1/WS1D, WSNL and WSIND, WSH), the spaces
 * that count as c_SPACE (all but a lone space's), and the open run's state. */
static void ws_runs(mf_feature_state *st, const ascii_masks *m, uint64_t ws, unsigned n, uint64_t c[])
{
    uint64_t inside = ws;
    if (st->wsn) {
        unsigned h = leading_run(ws);
        if (h > n) h = n;
        uint64_t head = low_bits(h);
        st->wsn += h;
        st->ws_spaces += popcount(m->space & head);
        if (m->nl & head) {
            st->ws_nl = true;
            st->ws_tail = h - 1 - highest_bit(m->nl & head);
        } else if (st->ws_nl) {
            st->ws_tail += h;
        }
        if (h == n) return;
        /* close it as text_features.c's close_ws does, before the block's byte h */
        if (st->ws_nl) {
            c[MF_F_WSNL]++;
            if (st->ws_tail) c[MF_F_WSIND]++;
            c[MF_F_SPACE] += st->ws_spaces;
        } else if (st->wsn == 1 && st->ws_spaces == 1) {
            c[(m->digit >> h & 1) ? MF_F_WS1D : MF_F_WS1]++;
        } else {
            c[MF_F_WSH]++;
            c[MF_F_SPACE] += st->ws_spaces;
        }
        st->wsn = st->ws_tail = st->ws_spaces = 0;
        st->ws_nl = false;
        inside &= ~head;
    }
    unsigned t = trailing_run(inside, n);
    uint64_t tail = t ? ~low_bits(n - t) & low_bits(n) : 0;
    uint64_t closed = inside & ~tail;
    if (closed) {
        uint64_t starts = closed & ~(closed << 1), ends = closed & ~(closed >> 1);
        uint64_t lone = starts & ends & m->space;
        c[MF_F_WS1D] += popcount(lone & m->digit >> 1);
        c[MF_F_WS1] += popcount(lone & ~(m->digit >> 1));
        c[MF_F_SPACE] += popcount(m->space & closed & ~lone);
        /* Runs without a newline: from a run's first bit, carrying through its non-newline
         * bits, the carry lands past the run's end only when it holds no newline. */
        uint64_t blanks = closed & ~m->nl;
        uint64_t past_end = (blanks + (starts & blanks)) & ~blanks & ~closed;
        unsigned runs = popcount(starts), without_nl = popcount(past_end);
        c[MF_F_WSNL] += runs - without_nl;
        c[MF_F_WSH] += without_nl - popcount(lone);
        /* WSIND: a run with a newline whose last byte is a space or tab */
        c[MF_F_WSIND] += popcount(ends & ~m->nl & ~(past_end >> 1));
    }
    if (t) {
        st->wsn = t;
        st->ws_spaces = popcount(m->space & tail);
        uint64_t nl = m->nl & tail;
        st->ws_nl = nl != 0;
        st->ws_tail = nl ? n - 1 - highest_bit(nl) : 0;
    }
}

/* The class of the block's byte j (a class is the number of its per-code-point feature). */
static int class_at(const ascii_masks *m, unsigned j)
{
    const uint64_t *by_class[] = {
        [MF_F_LOWER] = &m->lower, [MF_F_UPPER] = &m->upper, [MF_F_DIGIT] = &m->digit, [MF_F_SPACE] = &m->space,
        [MF_F_TAB] = &m->tab, [MF_F_NL] = &m->nl, [MF_F_PSTR] = &m->pstr, [MF_F_PUNCT] = &m->punct};
    for (int k = MF_F_LOWER; k <= MF_F_PUNCT; k++)
        if (*by_class[k] >> j & 1) return k;
    return MF_F_CTRL;
}

/* Counts the features of the ASCII bytes that start p[0..avail) (1 <= avail <= 64) and leaves
 * the state as the general path would; returns how many bytes that was. */
static unsigned ascii_block(mf_feature_state *st, const unsigned char *p, unsigned avail, uint64_t c[])
{
    int pk = st->prev_class;
    ascii_masks m;
    unsigned n = build_masks(p, avail, pk >= 0 && st->prev_cp < 0x80 ? st->prev_cp : NO_PREV, &m);
    if (!n) return 0;
    /* The previous code point's class as bit 0 of a mask shifted by one (a class is the
     * number of its per-code-point feature; a letter run is open after any ALPHA). */
    uint64_t was_lower = pk == MF_F_LOWER, was_upper = pk == MF_F_UPPER, was_digit = pk == MF_F_DIGIT,
             was_punct = pk == MF_F_PSTR || pk == MF_F_PUNCT, was_alpha = st->word_len != 0;
    uint64_t letters = m.lower | m.upper, punct = m.pstr | m.punct;
    uint64_t prev_lower = m.lower << 1 | was_lower, prev_upper = m.upper << 1 | was_upper;
    uint64_t prev_digit = m.digit << 1 | was_digit, prev_alpha = letters << 1 | was_alpha;

    c[MF_F_LOWER] += popcount(m.lower);
    c[MF_F_DIGIT] += popcount(m.digit);
    c[MF_F_TAB] += popcount(m.tab);
    c[MF_F_NL] += popcount(m.nl);
    c[MF_F_CTRL] += popcount(m.ctrl);
    c[MF_F_REP] += popcount(punct & m.eq);
    c[MF_F_PSTR] += popcount(m.pstr & ~m.eq);
    c[MF_F_PUNCT] += popcount(m.punct & ~m.eq);
    c[MF_F_CAPS] += popcount(m.upper & prev_upper);
    c[MF_F_UPPER] += popcount(m.upper & ~prev_upper);
    c[MF_F_CAMEL] += popcount(m.upper & prev_lower);
    c[MF_F_SWITCH] += popcount((letters & prev_digit) | (m.digit & prev_alpha));
    c[MF_F_DRUN] += popcount(m.digit & ~prev_digit);
    c[MF_F_PRUN] += popcount(punct & ~(punct << 1 | was_punct));

    /* CONS3: a lower-case consonant with two more right before it */
    uint64_t cons = m.lower & ~m.vowel;
    uint64_t cons1 = cons << 1 | (st->cons >= 1), cons2 = cons << 2 | (uint64_t)(st->cons >= 1) << 1 | (st->cons >= 2);
    c[MF_F_CONS3] += popcount(cons & cons1 & cons2);
    unsigned cons_tail = trailing_run(cons, n);
    st->cons = cons_tail == n ? st->cons + n : cons_tail;

    /* The capital pairs (rare) are summed again on their own to split the two features. */
    uint64_t cap_pairs = m.upper & prev_upper, caps_sum = 0;
    if (cap_pairs) caps_sum = pair_sum(mf_packed_pairs[1], p, cap_pairs, st->prev_cp);
    mf_add_packed_pairs(c, MF_F_BND, m.pairs - caps_sum);
    mf_add_packed_pairs(c, MF_F_BNDU, caps_sum);

    alnum_runs(st, letters, m.digit, n, c);
    digit_groups(st, m.digit, n, c);
    letter_runs(st, &m, letters, n, c);
    ws_runs(st, &m, m.space | m.tab | m.nl, n, c);

    st->prev_class = class_at(&m, n - 1);
    st->prev_cp = p[n - 1];
    return n;
}

size_t mf_features_ascii(mf_feature_state *st, const unsigned char *p, size_t len, uint64_t c[])
{
    if (len < 16 || !mf_ascii16(p)) return 0;
    size_t i = 0;
    while (len - i >= 16) {
        unsigned avail = len - i >= 64 ? 64 : (unsigned)(len - i);
        unsigned used = ascii_block(st, p + i, avail, c);
        i += used;
        if (used < avail) break; /* a non-ASCII byte: the general path takes it */
    }
    return i;
}
