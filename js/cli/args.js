/**
 * args.js — the command line as a command, its FILE and its options. Every option is known
 * here once; a mistyped one is refused with the nearest known name ("did you mean
 * --keep-recent?"), never ignored.
 */

/** A mistake in how midfold was called: one line on stderr, exit 2. */
export class UsageError extends Error {}

/** Every option: its value (a string, or none), its short form, whether it may repeat. */
export const OPTIONS = {
  format: { value: 'F' }, profile: { value: 'P' }, 'keep-recent': { value: 'N' }, 'exclude-tools': { value: 'A,B' },
  threshold: { value: 'N' }, 'keep-tail': { value: 'N' }, 'keep-tail-messages': { value: 'N' }, 'context-window': { value: 'N' }, force: {}, instructions: { value: 'S' }, language: { value: 'L' },
  summarizer: { value: 'S' }, 'base-url': { value: 'URL' }, model: { value: 'M' }, timeout: { value: 'MS' },
  output: { value: 'FILE', short: 'o' }, json: {}, progress: {}, help: { short: 'h' }, version: {},
  pricing: { value: 'P' }, ttl: { value: 'T' }, policy: { value: 'SPEC', multiple: true }, window: { value: 'N' },
  'turn-seconds': { value: 'S' }, 'cache-match': { value: 'M' }, chart: { value: 'FILE' },
  recall: {}, archive: { value: 'DIR' }, page: { value: 'N' },
};

export const COMMANDS = ['estimate', 'serialize', 'micro', 'compact', 'validate', 'simulate', 'convert', 'recall', 'help'];

/** Edit distance with a swap of two neighbours counting as one edit (optimal string alignment). */
export function editDistance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known name nearest to `name`, if it is near enough to be what was meant. */
export function nearest(name, known) {
  let best, bestDistance = Infinity;
  for (const k of known) {
    const distance = editDistance(name, k);
    if (distance < bestDistance) { best = k; bestDistance = distance; }
  }
  // a third of the name's letters wrong at most (one for a short name); a prefix counts too
  if (best !== undefined && (bestDistance <= Math.max(1, Math.floor(name.length / 3)))) return best;
  return known.find((k) => name.length >= 3 && k.startsWith(name));
}

const suggestion = (name, known, dashes) => {
  const near = nearest(name, known);
  return near ? `; did you mean ${dashes}${near}?` : '';
};

/**
 * `argv` as {values, positionals}: `--name value`, `--name=value`, `-o value`, `-h`; `-` is
 * a positional (stdin); after `--` everything is.
 * @param {string[]} argv
 */
export function parseCommandLine(argv) {
  const values = {};
  const positionals = [];
  const shorts = Object.fromEntries(Object.entries(OPTIONS).filter(([, o]) => o.short).map(([name, o]) => [o.short, name]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') { positionals.push(...argv.slice(i + 1)); break; }
    if (arg === '-' || !arg.startsWith('-')) { positionals.push(arg); continue; }
    let name, inline;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
      if (!Object.prototype.hasOwnProperty.call(OPTIONS, name)) throw new UsageError(`unknown option --${name}${suggestion(name, Object.keys(OPTIONS), '--')}`);
    } else {
      const letter = arg[1];
      name = shorts[letter];
      if (!name) throw new UsageError(`unknown option ${arg}${suggestion(arg.slice(1), Object.keys(OPTIONS), '--')}`);
      inline = arg.length > 2 ? arg.slice(2) : undefined;
    }
    const option = OPTIONS[name];
    let value = true;
    if (option.value) {
      if (inline !== undefined) value = inline;
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
      else throw new UsageError(`--${name} needs a value (${option.value})`);
    } else if (inline !== undefined) {
      throw new UsageError(`--${name} takes no value`);
    }
    if (option.multiple) (values[name] ||= []).push(value);
    else values[name] = value;
  }
  return { values, positionals };
}

/** An unknown command, with the nearest known one. */
export function unknownCommand(command) {
  return new UsageError(`unknown command ${JSON.stringify(command)}${suggestion(command, COMMANDS, '')}; see midfold --help`);
}
