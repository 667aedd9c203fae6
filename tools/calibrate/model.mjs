// model.mjs — the reference feature extractor of midfold's calibrated estimator profiles.
//
// This file is the specification the C port implements. An estimate is
//
//     estimate(text) = sum over features f of count_f(text) * weight_f  +  LENGTH * sqrt(code points)   (section 6;
//                                                                      milli-tokens in C; no constant term)
//
// so the estimate of the empty text is 0. All weights are >= 0, so the estimate is never negative. Counts are
// non-negative integers; every code point adds to exactly one per-code-point count (section 4), except the SPACE
// of a single-space run, which is priced by its run feature instead.
//
// ---------------------------------------------------------------------------------------------------------------
// 1. Decoding. The text is a sequence of Unicode code points.
//    - C (UTF-8 bytes): decode with mf_utf8_decode (src/utf8.c): a byte that does not start a valid, shortest-form,
//      non-surrogate sequence of at most U+10FFFF yields U+FFFD and consumes ONE byte. So each invalid byte is one
//      code point U+FFFD (class OTHER3).
//    - JS (UTF-16 strings): a valid surrogate pair is one code point; a lone surrogate is one code point treated
//      exactly like U+FFFD (TextEncoder turns it into U+FFFD, so both paths agree).
//    - No normalization (NFC/NFKC) is applied.
//
// 2. Classes, by code point cp (first match wins):
//      LOWER  a-z                      UPPER  A-Z                 DIGIT  0-9
//      SPACE  U+0020                   TAB    U+0009              NL     U+000A, U+000D
//      PSTR   structural ASCII punctuation: " ' ( ) , . : ; [ ] { }
//      PUNCT  the other printable ASCII: ! # $ % & * + - / < = > ? @ \ ^ _ ` | ~
//      CTRL   the other ASCII: U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+007F
//      LATIN  U+0080-U+024F, U+1E00-U+1EFF        (Latin-1 supplement incl. NBSP, Latin extended, Vietnamese)
//      CYR    U+0370-U+052F                       (Greek, Cyrillic)
//      OTHER2 U+0250-U+036F, U+0530-U+07FF        (IPA, modifiers, combining marks, Armenian, Hebrew, Arabic, ...)
//      HAN    U+3400-U+4DBF, U+4E00-U+9FFF, U+F900-U+FAFF   (BMP CJK ideographs; astral ones are ASTRAL)
//      CJKP   U+3000-U+303F, U+FF00-U+FFEF        (CJK symbols and punctuation, full-width/half-width forms)
//      KANA   U+3040-U+30FF, U+31F0-U+31FF
//      HANGUL U+1100-U+11FF, U+3130-U+318F, U+AC00-U+D7AF
//      SYM3   U+2000-U+2BFF                       (general punctuation, arrows, math, box drawing, dingbats, ...)
//      OTHER3 every other code point below U+10000 (incl. U+FFFD; in JS also lone surrogates)
//      ASTRAL U+10000-U+10FFFF                    (emoji, astral ideographs, ...)
//    Groups: ALPHA = {LOWER, UPPER, LATIN, CYR, OTHER2}; ALNUM = ALPHA + {DIGIT}; WS = {SPACE, TAB, NL};
//    REPABLE = {PSTR, PUNCT, CJKP, SYM3, OTHER3}.
//
// 3. Runs (maximal, over consecutive code points; every open run is closed at the end of the text):
//    - letter run  = maximal run of ALPHA. When it closes, with length n (code points):
//                    W1 += 1 if n == 1, W2 += 1 if 2 <= n <= 3, W4 += 1 if 4 <= n <= 6, W7 += 1 if 7 <= n <= 10,
//                    W11 += 1 if n >= 11; NOVOW += 1 if n >= 2 and the run has no vowel (see below).
//                    LONG += 1 for every code point of the run after its 8th.
//                    XWORD += 1 if the run holds at least one non-ASCII code point (LATIN, CYR or OTHER2).
//                    Vowels: a e i o u y A E I O U Y, and every non-ASCII ALPHA code point counts as a vowel.
//                    CONS3 += 1 for each LOWER consonant (a-z minus the vowels) that is at least the third in an
//                    unbroken sequence of LOWER consonants (any other code point resets the sequence).
//    - CAMEL       += 1 for each UPPER whose previous code point is LOWER.
//    - digit run   = maximal run of DIGIT: DRUN += 1 when it starts; DGRP += 1 at its 1st, 4th, 7th, ... digit
//                    (a run of n digits adds ceil(n/3): numbers are split in groups of three by most tokenizers).
//    - alnum run   = maximal run of ALNUM. SWITCH += 1 for each code point inside it whose group (ALPHA or DIGIT)
//                    differs from the previous code point's. When it closes, if it held at least one ALPHA and at
//                    least one DIGIT: MIXRUN += 1 and MIXCHR += its length.
//    - ws run      = maximal run of WS. When it closes, with length n:
//                    if it holds an NL: WSNL += 1, and WSIND += 1 if at least one SPACE/TAB follows its last NL;
//                    else if it is exactly one SPACE: WS1D += 1 if the code point after it is a DIGIT, else
//                    WS1 += 1 (this SPACE is not counted in c_SPACE);
//                    else WSH += 1.
//    - punct run   = maximal run of {PSTR, PUNCT}: PRUN += 1 when it starts.
//    - Han run     = maximal run of HAN: HANRUN += 1 when it starts.
//
// 4. Per-code-point counts (exactly one per code point):
//      a PSTR/PUNCT code point equal to the previous code point        -> c_REP   ("-----", "****")
//      a CJKP/SYM3/OTHER3 code point equal to the previous code point  -> c_REPX  ("───", "。。", U+FFFD runs)
//      an UPPER whose previous code point is UPPER                      -> c_CAPS
//      a HAN code point that is not one of the common ideographs        -> c_HANR
//        (common-han.json, chosen by frequency by common-han.mjs; all in U+4E00-U+9FFF)
//      a SPACE in a single-space ws run                                 -> nothing (priced by WS1 / WS1D)
//      any other code point                                             -> c_<its class>
//
// 5. Letter-pair boundaries (boundaries.json, measured by boundaries.mjs): three tables, one per vocabulary family
//    (o200k, deepseek, qwen; BOUNDARY_TABLES), each a `lower` and a `caps` array of 676 bytes. For each code point
//    that is LOWER or UPPER and whose previous code point is LOWER or UPPER, except LOWER -> UPPER (a camel-case step,
//    priced by CAMEL), with pair = ((prev | 0x20) - 'a') * 26 + ((cur | 0x20) - 'a'), for each table t:
//      UPPER -> UPPER   BNDU<t> += t.caps[pair]
//      otherwise        BND<t>  += t.lower[pair]
//    (<t> is '' for o200k, '_DS' for deepseek, '_QW' for qwen.) Table entries are the probability that a token
//    starts between the two letters, in 1/255 steps (0..255), so these six features count in units of 1/255 of an
//    expected boundary: their FEATURE_SCALE is 255, and a weight w of theirs (tokens per expected boundary) prices
//    count * w / 255 (see priceMilli for the exact integer rule). A profile uses one table's pair of features; its
//    weights for the other two are 0.

// 6. Length term. A profile also prices the square root of the text's code-point count: LENGTH milli-tokens per
//    sqrt(code points), rounded up (priceMilli). The code points are the per-code-point counts of section 4 plus
//    WS1 and WS1D (the lone spaces they price instead), so the term needs no count of its own. Why: the spread of
//    the ratio estimate / exact shrinks with length (word rarity averages out over more words), so a margin that
//    covers 99 % of 200-byte texts over-covers 20-KB ones by ~8 %; a term growing like the noise (sqrt n) puts the
//    slack where it is needed, and the linear weights fall by as much. Not additive: two texts priced apart carry
//    more of it than the two priced together (sqrt(a) + sqrt(b) >= sqrt(a + b)); the empty text still costs 0.

// The feature vector is the per-code-point counts followed by the run counts, in the order of FEATURES below.
// One left-to-right pass with O(1) state: previous class and code point, letter-run length, vowel flag,
// non-ASCII flag and consonant streak, digit-run length, alnum-run length and has-letter/has-digit flags, ws-run length, has-NL flag,
// SPACE/TAB-after-last-NL count, and the number of SPACEs in the ws run.
// ---------------------------------------------------------------------------------------------------------------

import fs from 'node:fs';

export const CLASS_NAMES = ['LOWER', 'UPPER', 'DIGIT', 'SPACE', 'TAB', 'NL', 'PSTR', 'PUNCT', 'CTRL', 'LATIN', 'CYR',
  'OTHER2', 'HAN', 'CJKP', 'KANA', 'HANGUL', 'SYM3', 'OTHER3', 'ASTRAL'];
export const CHAR_NAMES = [...CLASS_NAMES, 'REP', 'REPX', 'CAPS', 'HANR'];
export const RUN_NAMES = ['W1', 'W2', 'W4', 'W7', 'W11', 'LONG', 'NOVOW', 'CONS3', 'CAMEL', 'DRUN', 'DGRP', 'SWITCH',
  'MIXRUN', 'MIXCHR', 'WS1', 'WS1D', 'WSH', 'WSNL', 'WSIND', 'PRUN', 'HANRUN', 'XWORD',
  'BND', 'BNDU', 'BND_DS', 'BNDU_DS', 'BND_QW', 'BNDU_QW'];
export const FEATURES = [...CHAR_NAMES.map((c) => 'c_' + c), ...RUN_NAMES];
export const NF = FEATURES.length;
/** Units per feature count: the boundary features count 1/255ths of an expected boundary; the others count whole. */
export const FEATURE_SCALE = Float64Array.from(FEATURES, (f) => (f.startsWith('BND') ? 255 : 1));
/** The letter-pair tables, in the order the C core stores them, and the two features each one feeds. */
export const BOUNDARY_TABLES = ['o200k', 'deepseek', 'qwen'];
export const BOUNDARY_FEATURES = { o200k: ['BND', 'BNDU'], deepseek: ['BND_DS', 'BNDU_DS'], qwen: ['BND_QW', 'BNDU_QW'] };
export const BOUNDARIES = JSON.parse(fs.readFileSync(new URL('./boundaries.json', import.meta.url), 'utf8')).tables;
const PAIR_TABLES = BOUNDARY_TABLES.map((t) => {
  const b = BOUNDARIES[t];
  if (!b || b.lower.length !== 676 || b.caps.length !== 676) throw new Error(`boundaries.json: table ${t} needs 2 x 676 entries`);
  return { lower: Uint8Array.from(b.lower), caps: Uint8Array.from(b.caps),
    fLower: FEATURES.indexOf(BOUNDARY_FEATURES[t][0]), fCaps: FEATURES.indexOf(BOUNDARY_FEATURES[t][1]) };
});
export const COMMON_HAN_LIST = JSON.parse(fs.readFileSync(new URL('./common-han.json', import.meta.url), 'utf8')).codePoints;
const COMMON_HAN = new Set(COMMON_HAN_LIST);
if (COMMON_HAN_LIST.some((cp) => cp < 0x4e00 || cp > 0x9fff)) throw new Error('common-han.json: only U+4E00-U+9FFF');

const [LOWER, UPPER, DIGIT, SPACE, TAB, NL, PSTR, PUNCT, CTRL, LATIN, CYR, OTHER2, HAN, CJKP, KANA, HANGUL, SYM3, OTHER3,
  ASTRAL] = CLASS_NAMES.map((_, i) => i);
const F = Object.fromEntries(FEATURES.map((f, i) => [f, i]));
const fREP = F.c_REP, fREPX = F.c_REPX, fCAPS = F.c_CAPS, fHANR = F.c_HANR;
const [fW1, fW2, fW4, fW7, fW11, fLONG, fNOVOW, fCONS3, fCAMEL, fDRUN, fDGRP, fSWITCH, fMIXRUN, fMIXCHR, fWS1, fWS1D,
  fWSH, fWSNL, fWSIND, fPRUN, fHANRUN, fXWORD] = RUN_NAMES.map((n) => F[n]);

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT
    : c === 32 ? SPACE : c === 9 ? TAB : c === 10 || c === 13 ? NL : c >= 33 && c <= 126 ? PUNCT : CTRL;
}
for (const ch of '"\'(),.:;[]{}') ASCII_CLASS[ch.charCodeAt(0)] = PSTR;
const VOWEL = new Uint8Array(128);
for (const ch of 'aeiouyAEIOUY') VOWEL[ch.charCodeAt(0)] = 1;

export function classify(cp) {
  if (cp < 0x80) return ASCII_CLASS[cp];
  if (cp < 0x800) {
    if (cp <= 0x24f) return LATIN;
    if (cp >= 0x370 && cp <= 0x52f) return CYR;
    return OTHER2;
  }
  if (cp < 0x10000) {
    if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff)) return HAN;
    if ((cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff00 && cp <= 0xffef)) return CJKP;
    if ((cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff)) return KANA;
    if ((cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f)) return HANGUL;
    if (cp >= 0x1e00 && cp <= 0x1eff) return LATIN;
    if (cp >= 0x2000 && cp <= 0x2bff) return SYM3;
    return OTHER3; // includes U+FFFD
  }
  return ASTRAL;
}

const isAlpha = (k) => k === LOWER || k === UPPER || k === LATIN || k === CYR || k === OTHER2;
const isWS = (k) => k === SPACE || k === TAB || k === NL;
const REPABLE = new Uint8Array(CLASS_NAMES.length);
for (const k of [PSTR, PUNCT, CJKP, SYM3, OTHER3]) REPABLE[k] = 1;

/** Feature counts of a JS string (Float64Array of length NF). `out` may be passed to accumulate. */
export function features(text, out = new Float64Array(NF)) {
  let prevK = -1, prevCp = -1;
  let wl = 0, vow = false, cons = 0, wx = false; // letter run: length, has vowel, LOWER-consonant streak, non-ASCII
  let al = 0, aL = false, aD = false; // alnum run: length, has letter, has digit
  let dl = 0; // digit run length so far
  let wsn = 0, wsNL = false, wsTail = 0, wsSpaces = 0; // ws run
  const n = text.length;
  for (let i = 0; i < n; i++) {
    let cp = text.charCodeAt(i);
    let k;
    if (cp < 0x80) k = ASCII_CLASS[cp];
    else {
      if (cp >= 0xd800 && cp <= 0xdfff) {
        const lo = i + 1 < n ? text.charCodeAt(i + 1) : 0;
        if (cp <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff) { cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00); i++; }
        else cp = 0xfffd; // lone surrogate
      }
      k = classify(cp);
    }
    const alpha = isAlpha(k);
    // 1. close the runs that end before this code point
    if (wl > 0 && !alpha) {
      out[wl === 1 ? fW1 : wl <= 3 ? fW2 : wl <= 6 ? fW4 : wl <= 10 ? fW7 : fW11]++;
      if (wl >= 2 && !vow) out[fNOVOW]++;
      if (wx) out[fXWORD]++;
      wl = 0; vow = false; cons = 0; wx = false;
    }
    if (al > 0 && !(alpha || k === DIGIT)) {
      if (aL && aD) { out[fMIXRUN]++; out[fMIXCHR] += al; }
      al = 0; aL = false; aD = false;
    }
    if (wsn > 0 && !isWS(k)) {
      if (wsNL) { out[fWSNL]++; if (wsTail > 0) out[fWSIND]++; out[SPACE] += wsSpaces; }
      else if (wsn === 1 && wsSpaces === 1) out[k === DIGIT ? fWS1D : fWS1]++;
      else { out[fWSH]++; out[SPACE] += wsSpaces; }
      wsn = 0; wsNL = false; wsTail = 0; wsSpaces = 0;
    }
    // 2. this code point
    if (k === SPACE) { wsn++; wsSpaces++; if (wsNL) wsTail++; }
    else if (k === TAB) { wsn++; out[TAB]++; if (wsNL) wsTail++; }
    else if (k === NL) { wsn++; out[NL]++; wsNL = true; wsTail = 0; }
    else {
      if (REPABLE[k] && cp === prevCp) out[k === PSTR || k === PUNCT ? fREP : fREPX]++;
      else if (k === UPPER && prevK === UPPER) out[fCAPS]++;
      else if (k === HAN && !COMMON_HAN.has(cp)) out[fHANR]++;
      else out[k]++;
      if (alpha) {
        wl++;
        if (wl > 8) out[fLONG]++;
        if (k === LOWER) {
          if (VOWEL[cp]) { vow = true; cons = 0; } else if (++cons >= 3) out[fCONS3]++;
        } else {
          cons = 0;
          if (k === UPPER) {
            if (VOWEL[cp]) vow = true;
            if (prevK === LOWER) out[fCAMEL]++;
          } else { vow = true; wx = true; }
        }
        if ((k === LOWER || k === UPPER) && (prevK === UPPER || (prevK === LOWER && k === LOWER))) {
          const pair = ((prevCp | 32) - 97) * 26 + ((cp | 32) - 97);
          const caps = prevK === UPPER && k === UPPER;
          for (const t of PAIR_TABLES) {
            if (caps) out[t.fCaps] += t.caps[pair];
            else out[t.fLower] += t.lower[pair];
          }
        }
        if (al > 0 && prevK === DIGIT) out[fSWITCH]++;
        al++; aL = true;
      } else if (k === DIGIT) {
        if (prevK !== DIGIT) { out[fDRUN]++; dl = 0; }
        if (dl++ % 3 === 0) out[fDGRP]++;
        if (al > 0 && prevK !== DIGIT) out[fSWITCH]++;
        al++; aD = true;
      } else if (k === PSTR || k === PUNCT) {
        if (prevK !== PSTR && prevK !== PUNCT) out[fPRUN]++;
      } else if (k === HAN) {
        if (prevK !== HAN) out[fHANRUN]++;
      }
    }
    prevK = k; prevCp = cp;
  }
  if (wl > 0) {
    out[wl === 1 ? fW1 : wl <= 3 ? fW2 : wl <= 6 ? fW4 : wl <= 10 ? fW7 : fW11]++;
    if (wl >= 2 && !vow) out[fNOVOW]++;
    if (wx) out[fXWORD]++;
  }
  if (al > 0 && aL && aD) { out[fMIXRUN]++; out[fMIXCHR] += al; }
  if (wsn > 0) {
    if (wsNL) { out[fWSNL]++; if (wsTail > 0) out[fWSIND]++; out[SPACE] += wsSpaces; }
    else if (wsn === 1 && wsSpaces === 1) out[fWS1]++;
    else { out[fWSH]++; out[SPACE] += wsSpaces; }
  }
  return out;
}

/** The text's code points, from its feature counts: every code point adds to one per-code-point count, except a lone
 *  space, which WS1 or WS1D prices instead (section 4). */
export function codePoints(x) {
  let n = x[fWS1] + x[fWS1D];
  for (let j = 0; j < CHAR_NAMES.length; j++) n += x[j];
  return n;
}

/** The terms a profile's weights multiply, in fit units: the features in units, then sqrt(code points) for LENGTH. */
export const TERMS = [...FEATURES, 'LENGTH'];
export const NT = TERMS.length;
export const terms = (x) => {
  const t = new Float64Array(NT);
  for (let j = 0; j < NF; j++) t[j] = x[j] / FEATURE_SCALE[j];
  t[NF] = Math.sqrt(codePoints(x));
  return t;
};

/** The estimate in milli-tokens exactly as the C core computes it from integer counts and whole milli-token weights
 *  (`weightsMilli`: term name -> milli-tokens per unit): the unscaled features' products summed, plus the scaled
 *  features' products summed and divided by 255, rounded up, plus LENGTH x sqrt(code points), rounded up (IEEE
 *  double square root and product, as C's sqrt and * give). */
export function priceMilli(x, weightsMilli) {
  let whole = 0, scaled = 0;
  FEATURES.forEach((f, j) => {
    if (FEATURE_SCALE[j] === 1) whole += x[j] * (weightsMilli[f] || 0);
    else scaled += x[j] * (weightsMilli[f] || 0);
  });
  return whole + Math.ceil(scaled / 255) + Math.ceil((weightsMilli.LENGTH || 0) * Math.sqrt(codePoints(x)));
}

/** The estimate of a text in tokens (a float: priceMilli / 1000 before the caller's rounding up). */
export const estimate = (text, weightsMilli) => priceMilli(features(text), weightsMilli) / 1000;

// ---- baselines (for the comparison table only) -----------------------------------------------------------
// bareagent: the reference profile of src/text_class.c, per code point: CJK 1.5, ASCII letter/digit 0.25,
// whitespace (Python's \s) 0.25, anything else 0.5.
function bareClass(cp) {
  const space = (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x20) || cp === 0x85 || cp === 0xa0 || cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) || cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f || cp === 0x3000;
  if (cp < 0x80) {
    if ((cp >= 48 && cp <= 57) || ((cp | 0x20) >= 97 && (cp | 0x20) <= 122)) return 0.25;
    return space ? 0.25 : 0.5;
  }
  if (space) return 0.25;
  const cjk = (cp >= 0x2e80 && cp <= 0x2fdf) || (cp >= 0x3001 && cp <= 0x303f) || (cp >= 0x3040 && cp <= 0x30ff) ||
    (cp >= 0x3100 && cp <= 0x31ff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff00 && cp <= 0xffef) ||
    (cp >= 0x20000 && cp <= 0x2fa1f);
  return cjk ? 1.5 : 0.5;
}
export function bareagent(text) {
  let s = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    s += cp >= 0xd800 && cp <= 0xdfff ? 0.5 : bareClass(cp);
  }
  return s;
}
export const charsOver4 = (text) => text.length / 4; // UTF-16 length / 4, the common rule of thumb
