#!/usr/bin/env node
// unicode-tables.mjs — writes src/unicode_tables.c, the Unicode tables the content door
// (src/content.c) reads, from the Unicode data of the Node that runs it: its regular
// expressions' property escapes (\p{White_Space}, \p{Default_Ignorable_Code_Point}, \p{Cc},
// \p{Cf}, \p{M}, \p{L}, \p{Script=…}) and String.prototype.normalize('NFKC'), asked of every
// code point. No table is copied from anywhere: what follows are the rules, the data is Node's.
//
//   node tools/unicode-tables.mjs           rewrites src/unicode_tables.c
//   node tools/unicode-tables.mjs --check   exits 1 when the file is not what this Node writes
//
// `make unicode-tables` runs it on the pinned Node (another Node may ship another Unicode
// version; the header records the one used). docs/transcript.md has the reasons.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'unicode_tables.c');

/** Every code point but the surrogates, as a one-character string. */
function* codePoints() {
  for (let cp = 0; cp < 0x110000; cp++) if (cp < 0xd800 || cp > 0xdfff) yield [cp, String.fromCodePoint(cp)];
}

// ---- the rules -----------------------------------------------------------------------------

/** Line breaks (content.c's is_break): Python's str.splitlines set, a superset of UAX #14's BK, CR, LF, NL. */
const BREAK = /^[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]$/u;

/**
 * Invisible before a line's first visible character: White_Space, Default_Ignorable_Code_Point,
 * control and format characters, every mark (general category M, spacing ones too: a mark with
 * nothing before it to combine with shows nothing of its own a reader takes for a line's start),
 * U+2800 (the blank braille pattern), and the five combining-mark blocks whole, unassigned code
 * points included (a mark Unicode adds there later is blank from the start): U+0300–036F,
 * U+1AB0–1AFF, U+1DC0–1DFF, U+20D0–20FF, U+FE20–FE2F. Line breaks are told apart before and are
 * not in the table.
 */
const INVISIBLE = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{M}\u2800\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]$/u;
const isBlank = (c) => !BREAK.test(c) && INVISIBLE.test(c);

/**
 * "[" and the opening brackets that look like it: the Ps characters named LEFT … SQUARE /
 * LENTICULAR / TORTOISE SHELL BRACKET and the left square-bracket pieces. The table holds these
 * and every code point whose NFKC form opens with one (full-width "［", the vertical and small
 * presentation forms, the bracketed letter and ideographs such as "🉀" = "〔本〕").
 */
const BRACKET_BASE = [
  0x5b /* [ */, 0x2045 /* ⁅ */, 0x23a1, 0x23a2, 0x23a3 /* ⎡⎢⎣ */, 0x2772 /* ❲ */, 0x27e6 /* ⟦ */, 0x27ec /* ⟬ */,
  0x298b, 0x298d, 0x298f /* ⦋⦍⦏ */, 0x2997 /* ⦗ */, 0x2e55, 0x2e57 /* ⹕⹗ */,
  0x3010 /* 【 */, 0x3014 /* 〔 */, 0x3016 /* 〖 */, 0x3018 /* 〘 */, 0x301a /* 〚 */,
];

/**
 * How a code point reads inside a closing tag "</transcript": its NFKC form with the invisible
 * characters (and line breaks) taken out, each remaining character as one of "<", "/", "*" (a
 * letter: an ASCII one, or one of the Latin, Greek or Cyrillic script; Node ships no confusables
 * data, so every such letter stands for any letter, which folds each of their look-alikes of
 * "transcript"'s letters and a few letters more), "?" (anything else: it ends a tag). Code points
 * NFKC leaves nothing visible of ("¨" is a space and a mark) read as nothing. ASCII itself is read
 * by content.c.
 */
const LETTER = /^(?:[A-Za-z]|(?=\p{L})[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])$/u;
function tagFold(c) {
  let s = '';
  for (const ch of c.normalize('NFKC')) {
    if (BREAK.test(ch) || isBlank(ch)) continue;
    s += ch === '<' || ch === '/' ? ch : LETTER.test(ch) ? '*' : '?';
  }
  // What stands around a "?" cannot matter: a tag ends at one and can only begin again at a "<",
  // so of a fold with a "?" the part before the first one and the part from the last "<" after
  // the last one are kept ("a.m." is "*?").
  const first = s.indexOf('?');
  if (first < 0) return s;
  const tail = s.slice(s.lastIndexOf('?') + 1);
  const open = tail.lastIndexOf('<');
  return `${s.slice(0, first)}?${open < 0 ? '' : tail.slice(open)}`;
}

// ---- the tables --------------------------------------------------------------------------

/**
 * Sorted [lo, hi, value] runs of code points with the same value; valueOf gives null for a code
 * point in no range, undefined for one the table is never asked about (a run may cover it:
 * fewer, longer runs). Surrogates are never asked about.
 */
function runs(valueOf) {
  const out = [];
  let open = false; // whether the last run may still grow (only code points nobody asks about since)
  for (let cp = 0; cp < 0x110000; cp++) {
    const v = cp >= 0xd800 && cp <= 0xdfff ? undefined : valueOf(cp, String.fromCodePoint(cp));
    if (v === undefined) continue;
    const last = out[out.length - 1];
    if (v === null) open = false;
    else if (open && last[2] === v) last[1] = cp;
    else { out.push([cp, cp, v]); open = true; }
  }
  return out;
}

/**
 * A range table as unicode_tables.h reads it: per range, varint(lo - next) and varint(hi - lo),
 * `next` being the code point after the previous range (0 at first), then its value byte when the
 * table has values; every INDEX_EVERY ranges an index entry: `next` there and the byte offset.
 * Varints are 7 bits a byte, low bits first, the high bit set on all but the last.
 */
const INDEX_EVERY = 8;
function rangeTable(ranges, valueOf = null) {
  const stream = [], indexCp = [], indexAt = [];
  const varint = (n) => { for (; n >= 0x80; n >>>= 7) stream.push((n & 0x7f) | 0x80); stream.push(n); };
  let next = 0;
  ranges.forEach(([lo, hi, v], i) => {
    if (i % INDEX_EVERY === 0) { indexCp.push(next); indexAt.push(stream.length); }
    varint(lo - next);
    varint(hi - lo);
    if (valueOf) stream.push(valueOf(v));
    next = hi + 1;
  });
  if (stream.length > 0xffff) throw new Error('a stream too long for its uint16 offsets');
  return { stream, indexCp, indexAt, count: ranges.length, values: !!valueOf };
}

// content.c reads ASCII itself and never asks about a line break.
const blank = rangeTable(runs((cp, c) => (cp < 0x80 || BREAK.test(c) ? undefined : isBlank(c) ? true : null)));

const brackets = [];
for (const [cp, c] of codePoints()) if (BRACKET_BASE.includes(c.normalize('NFKC').codePointAt(0))) brackets.push(cp);
for (const b of BRACKET_BASE) if (!brackets.includes(b)) throw new Error(`U+${b.toString(16)} is not its own NFKC form`);

// Non-ASCII code points that are not invisible and read as more than "?" in a tag, with their
// fold (an index into FOLDS); a plain "?" is what a code point not in the table reads as.
const foldRuns = runs((cp, c) => {
  if (cp < 0x80 || BREAK.test(c) || isBlank(c)) return undefined; // read before the table is asked
  const f = tagFold(c);
  return f === '?' ? null : f;
});
const FOLDS = [...new Set(foldRuns.map((r) => r[2]))].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
if (FOLDS.length > 255 || FOLDS.some((f) => f.length > 7)) throw new Error('the folds do not fit the table');
const folds = rangeTable(foldRuns, (f) => FOLDS.indexOf(f));
// The code points a tag can open with (their fold holds "<"): content.c looks for them by
// their UTF-8 lead byte 0xEF, so all must be in U+F000-U+FFFF.
const openers = [];
for (const [cp, c] of codePoints()) if (cp >= 0x80 && !BREAK.test(c) && !isBlank(c) && tagFold(c).includes('<')) openers.push(cp);
if (openers.some((cp) => cp < 0xf000 || cp > 0xffff)) throw new Error('an opener whose UTF-8 does not start with 0xEF');

// ---- the file ----------------------------------------------------------------------------

const hex = (n) => `0x${n.toString(16).toUpperCase()}`;
function rows(items, perLine = 8) {
  const lines = [];
  for (let i = 0; i < items.length; i += perLine) lines.push(`    ${items.slice(i, i + perLine).join(', ')},`);
  return lines.join('\n');
}
const cString = (s) => `"${s.replace(/[\\"]/g, '\\$&')}"`;

/** A range table's C definition: its stream, its index, and the mf_range_table that names them. */
function table(name, t, what) {
  return `/* ${what}: ${t.count} ranges, ${t.stream.length} bytes. */
static const uint8_t ${name}_stream[] = {
${rows(t.stream.map(hex), 16)}
};
static const uint32_t ${name}_index_cp[] = {
${rows(t.indexCp.map(hex))}
};
static const uint16_t ${name}_index_at[] = {
${rows(t.indexAt.map(String), 12)}
};
const mf_range_table ${name}_table = {${name}_stream, ${name}_index_cp, ${name}_index_at, ${t.indexCp.length}, ${t.count}, ${INDEX_EVERY}, ${t.values}};`;
}

const text = `/* unicode_tables.c — GENERATED by tools/unicode-tables.mjs from Unicode ${process.versions.unicode} as Node
 * reads it; do not edit. Regenerate with \`make unicode-tables\` (the pinned Node; \`make test\` checks
 * the file is what it writes). What each table holds, and why: the generator's rules. */
#include "unicode_tables.h"

${table('mf_blank', blank, 'Invisible code points (line breaks aside)')}

${table('mf_tag_fold', folds, 'How a closing tag reads non-ASCII code points (a value: an index into mf_tag_folds)')}
const char *const mf_tag_folds[] = {${FOLDS.map(cString).join(', ')}};

/* Non-ASCII code points a closing tag may open with. */
const uint32_t mf_tag_openers[] = {${openers.map(hex).join(', ')}};
const size_t mf_tag_opener_count = ${openers.length};

/* The opening brackets a marker's "[" may look like, sorted. */
const uint32_t mf_brackets[] = {
${rows(brackets.map(hex))}
};
const size_t mf_bracket_count = ${brackets.length};
`;

if (process.argv.includes('--check')) {
  const now = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  if (now !== text) {
    console.error(`${path.relative(process.cwd(), OUT)} is not what tools/unicode-tables.mjs writes on Node ${process.versions.node}`);
    process.exit(1);
  }
} else {
  fs.writeFileSync(OUT, text);
  console.log(`wrote ${path.relative(process.cwd(), OUT)}: ${blank.count} blank ranges (${blank.stream.length} bytes), ` +
    `${brackets.length} brackets, ${folds.count} tag-fold ranges (${folds.stream.length} bytes, ${FOLDS.length} folds), ${openers.length} openers; ` +
    `Unicode ${process.versions.unicode}`);
}
