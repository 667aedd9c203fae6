#!/usr/bin/env node
/**
 * cli.js — `midfold <estimate|serialize|micro|compact|validate|simulate> FILE [options]`.
 * Reads a conversation (a JSON array of messages, or an object with `messages`) from a
 * file or `-` (stdin), in any of the three formats. Exit codes: 0 done, 1 the
 * conversation has problems (validate) or compaction did not happen when forced,
 * 2 bad input or usage.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  init, estimateTokens, serialize, microCompact, validate, detectFormat, Compactor, digestSummarizer,
  openAISummarizer, anthropicSummarizer, simulate, simulationChart,
} from './hosts/node.js';

const HELP = `midfold — keep an LLM agent's conversation inside its context window

Usage: midfold <command> FILE|- [options]

Commands:
  estimate    estimated tokens of the conversation (and of each message with --json)
  serialize   the transcript a summarizer reads
  micro       micro-compaction: old tool results become "[truncated: …]" lines
  compact     micro-compaction, then a summary of the middle when over --threshold
  validate    provider rules the conversation breaks (exit 1 if any)
  simulate    replays the session turn by turn under context policies and prices
              every request with the provider's prompt caching (see below)

FILE is a JSON array of messages, an object with "messages" (Anthropic, OpenAI
Chat or AI SDK format) or a Responses API body with "input"; "-" reads stdin.

Options:
  --format F          anthropic | openai | openai-responses | ai-sdk | ai-sdk-ui
                      (default: detected)
  --profile P         estimator profile for estimate, micro and compact: safe,
                      bareagent, o200k, cl100k, deepseek, qwen or claude. Default:
                      bareagent for estimate and micro (estimateTokens and
                      microCompact), safe for compact (the Compactor's, which errs
                      high); --threshold and --keep-tail are in its tokens
  --keep-recent N     tool-result turns kept whole (default 3)
  --exclude-tools A,B tools whose results are never cleared
  --threshold N       compact above N tokens (default 50000; 150000 with
                      --pricing deepseek)
  --pricing P         compact: whose prompt cache the requests use (anthropic |
                      openai | deepseek); sets the default threshold
  --keep-tail N       recent tokens kept verbatim (default threshold/5)
  --force             compact even below the threshold (like /compact); when the
                      tail budget holds the whole conversation, the tail shrinks
                      to half of it so the older part is still folded
  --instructions S    a focus for the summary
  --language L        auto | en | zh | another language code (default auto)
  --summarizer S      digest | openai | anthropic (default: openai when a base URL
                      is given, else digest: no model, no network)
  --base-url URL      the model endpoint (openai: …/v1; env MIDFOLD_BASE_URL)
  --model M           the model (env MIDFOLD_MODEL)
                      API key: env MIDFOLD_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY
  --timeout MS        give up on the summarizer after MS milliseconds (default 120000)
  -o, --output FILE   write the resulting conversation to FILE
  --json              machine-readable output

Simulate options:
  --pricing P         anthropic | openai | deepseek (default anthropic)
  --model M           a model of that price list (default: its first)
  --ttl T             cache lifetime: 5m | 1h (anthropic), in_memory | 24h (openai)
  --policy SPEC       a policy to compare; repeat for several. Names: none,
                      every-turn, context-editing, micro-every-turn, micro-batched,
                      defaults ('seed' is a deprecated name of every-turn); or
                      micro:trigger=60k,clearAtLeast=30k,keepRecent=3,
                      compactor:threshold=50k,microTrigger=40k,clearAtLeast=20k,
                      context-editing:trigger=100k,keep=3 (join parts with +)
                      (default: none, every-turn, context-editing, micro-batched, defaults)
  --window N          the context window in tokens (default 200000)
  --turn-seconds S    seconds between turns (default: the session's timestamps,
                      else every turn inside the cache lifetime)
  --cache-match M     breakpoints (default: Anthropic's breakpoint on the last
                      message) | prefix (every earlier prefix cached)
  --chart FILE        also draw context and cumulative cost per turn as SVG
  -h, --help          this text

Exit codes:
  0  done (compact: compacted, or not needed without --force)
  1  validate found problems; compact --force could not compact (the summarizer
     failed or there was nothing to fold); the conversation is unchanged
  2  bad input or usage (a one-line reason on stderr)
`;

class UsageError extends Error {}

function fail(message, code = 2) {
  process.stderr.write(`midfold: ${message}\n`);
  process.exit(code);
}

function number(value, name) {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

async function readInput(file) {
  const progress = (text) => process.stderr.isTTY && process.stderr.write(text);
  let raw;
  if (file === '-') {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    raw = Buffer.concat(chunks).toString('utf8');
  } else {
    raw = await readFile(file, 'utf8').catch((e) => { throw new UsageError(`cannot read ${file}: ${e.code || e.message}`); });
  }
  if (raw.length > 1 << 20) progress(`midfold: read ${(raw.length / 1e6).toFixed(1)} MB\n`);
  let value;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new UsageError(`${file === '-' ? 'stdin' : file} is not valid JSON: ${e.message}`);
  }
  // A request body holds its conversation under "messages" (Messages, Chat Completions, the
  // AI SDK) or, for the Responses API, under "input"; what is written back goes there too.
  const key = Array.isArray(value) ? null
    : value && typeof value === 'object' && Array.isArray(value.messages) ? 'messages'
      : value && typeof value === 'object' && Array.isArray(value.input) ? 'input' : undefined;
  if (key === undefined) throw new UsageError('expected a JSON array of messages, an object with "messages" or a Responses body with "input"');
  return { value, messages: key === null ? value : value[key], key };
}

function makeSummarizer(values) {
  // A model endpoint given by flag or environment means a model summarizer.
  const endpoint = values['base-url'] || process.env.MIDFOLD_BASE_URL;
  const kind = values.summarizer || (endpoint ? 'openai' : 'digest');
  if (kind === 'digest') return digestSummarizer();
  const model = values.model || process.env.MIDFOLD_MODEL;
  const baseURL = values['base-url'] || process.env.MIDFOLD_BASE_URL;
  if (!model) throw new UsageError(`--summarizer ${kind} needs --model (or MIDFOLD_MODEL)`);
  if (kind === 'openai')
    return openAISummarizer({ model, baseURL, apiKey: process.env.MIDFOLD_API_KEY || process.env.OPENAI_API_KEY });
  if (kind === 'anthropic')
    return anthropicSummarizer({ model, baseURL, apiKey: process.env.MIDFOLD_API_KEY || process.env.ANTHROPIC_API_KEY });
  throw new UsageError(`unknown --summarizer ${JSON.stringify(kind)} (digest, openai, anthropic)`);
}

async function output(values, { value, key }, messages) {
  if (!values.output) return;
  const doc = key === null ? messages : { ...value, [key]: messages };
  await writeFile(values.output, JSON.stringify(doc, null, 2) + '\n');
}

const usd = (v) => `$${v < 10 ? v.toFixed(4) : v.toFixed(2)}`;
const kilo = (v) => `${Math.round(v / 1000)}k`;

/** simulate's report as a plain-text table, one line per policy. */
function simulationTable(report) {
  const head = ['policy', 'input cost', 'cached', 'peak', 'mean', 'summaries (cost)', 'over window'];
  const rows = report.results.map((r) => [
    // The defaults follow the pricing (150k under DeepSeek's): say which ran.
    r.name === 'defaults' && r.compactor ? `${r.label} at ${kilo(r.compactor.threshold)}` : r.label, usd(r.inputUsd), `${(r.cachedShare * 100).toFixed(1)} %`, kilo(r.peakContext), kilo(r.meanContext),
    `${r.summaries} (${usd(r.summaryUsd)})`, r.turnsOverWindow ? `${r.turnsOverWindow} turns` : '0']);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const p = report.prices;
  return [
    `${report.turns} turns, ${report.provider} ${report.model} (cache ${report.ttl}${report.cacheMatch ? `, ${report.cacheMatch}` : ''}), `
      + `tokens by the ${report.profile} profile, window ${report.window}`,
    `prices per million tokens: ${Object.entries(p).filter(([k, v]) => typeof v === 'number' && k !== 'minCacheable').map(([k, v]) => `${k} $${v}`).join(', ')}`,
    '', line(head), ...rows.map(line),
    '', 'input cost: every request of the session at the cache\'s prices; summaries: the summarizer\'s calls (input + output).',
  ].join('\n');
}

/** The flags each command reads. */
const FLAGS = {
  estimate: ['format', 'profile', 'json'],
  serialize: ['format'],
  validate: ['format', 'json'],
  micro: ['format', 'profile', 'keep-recent', 'exclude-tools', 'output', 'json'],
  compact: ['format', 'profile', 'keep-recent', 'exclude-tools', 'pricing', 'threshold', 'keep-tail', 'force', 'instructions', 'language',
    'summarizer', 'base-url', 'model', 'timeout', 'output', 'json'],
  simulate: ['pricing', 'model', 'ttl', 'policy', 'window', 'turn-seconds', 'cache-match', 'chart', 'json'],
};

/** --exclude-tools A,B as a list. */
function toolList(text) {
  return text ? text.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, allowPositionals: true, options: {
        format: { type: 'string' }, profile: { type: 'string' }, 'keep-recent': { type: 'string' },
        'exclude-tools': { type: 'string' }, threshold: { type: 'string' }, 'keep-tail': { type: 'string' },
        force: { type: 'boolean' }, instructions: { type: 'string' }, language: { type: 'string' },
        summarizer: { type: 'string' }, 'base-url': { type: 'string' }, model: { type: 'string' },
        timeout: { type: 'string' }, output: { type: 'string', short: 'o' }, json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        pricing: { type: 'string' }, ttl: { type: 'string' }, policy: { type: 'string', multiple: true },
        window: { type: 'string' }, 'turn-seconds': { type: 'string' }, 'cache-match': { type: 'string' }, chart: { type: 'string' },
      },
    });
  } catch (e) {
    throw new UsageError(e.message);
  }
  const { values, positionals } = parsed;
  if (values.help) { process.stdout.write(HELP); return 0; }
  const [command, file] = positionals;
  if (!Object.prototype.hasOwnProperty.call(FLAGS, command)) throw new UsageError(command ? `unknown command ${JSON.stringify(command)}; see --help` : 'no command; see --help');
  // A flag the command does not read would be ignored without a word (--keep-recent on estimate).
  for (const flag of Object.keys(values)) {
    if (!FLAGS[command].includes(flag)) throw new UsageError(`--${flag} does not apply to ${command}; see --help`);
  }
  if (!file) throw new UsageError(`${command} needs a FILE (or - for stdin)`);
  if (positionals.length > 2) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[2])}`);
  const common = { format: values.format, profile: values.profile };
  await init();
  const input = await readInput(file);
  const { value, messages } = input;
  const print = (text) => process.stdout.write(text.endsWith('\n') ? text : text + '\n');
  const json = (obj) => print(JSON.stringify(obj, null, 2));

  switch (command) {
    case 'estimate': {
      const tokens = estimateTokens(value, common);
      if (values.json) json({ format: detectFormat(messages), tokens, messages: messages.map((m) => estimateTokens(m, common)) });
      else print(String(tokens));
      return 0;
    }
    case 'serialize': // (--profile is for the commands that count)
      print(serialize(messages, { format: values.format }));
      return 0;
    case 'validate': {
      const report = validate(messages, { format: values.format });
      if (values.json) json(report);
      else {
        if (report.ok) print(`ok (${report.format})`);
        for (const p of report.problems) // warnings too: a block type midfold does not know yet
          print(`message ${p.index}${p.part === undefined ? '' : `, part ${p.part}`}: ${p.severity === 'warning' ? 'warning: ' : ''}${p.code}: ${p.message}`);
      }
      return report.ok ? 0 : 1;
    }
    case 'micro': {
      const report = microCompact(messages, {
        ...common, keepRecent: number(values['keep-recent'], 'keep-recent'),
        excludeTools: toolList(values['exclude-tools']),
      });
      await output(values, input, messages);
      if (values.json) json({ report, messages });
      else print(`micro-compaction: cleared ${report.cleared} tool results (${report.charsCleared} chars), ${report.tokensBefore} → ${report.tokensAfter} tokens (${values.profile ?? 'bareagent'})`);
      return 0;
    }
    case 'simulate': {
      const seconds = values['turn-seconds'];
      if (seconds !== undefined && !/^\d+(\.\d+)?$/.test(seconds)) throw new UsageError(`--turn-seconds must be a number of seconds, got ${JSON.stringify(seconds)}`);
      const report = await simulate(value, {
        pricing: values.pricing, model: values.model, ttl: values.ttl, policies: values.policy,
        window: number(values.window, 'window'), turnSeconds: seconds === undefined ? undefined : Number(seconds),
        cacheMatch: values['cache-match'],
      });
      if (values.chart) await writeFile(values.chart, simulationChart(report));
      if (values.json) json(report);
      else print(simulationTable(report));
      return 0;
    }
    case 'compact': {
      const threshold = number(values.threshold, 'threshold');
      const keepTail = number(values['keep-tail'], 'keep-tail');
      const compactor = new Compactor({
        ...common, summarize: makeSummarizer(values), pricing: values.pricing, threshold, keepRecent: number(values['keep-recent'], 'keep-recent'),
        excludeTools: toolList(values['exclude-tools']),
        keepTail: keepTail === undefined ? undefined : { tokens: keepTail }, language: values.language,
        instructions: values.instructions, timeoutMs: number(values.timeout, 'timeout') ?? 120000,
        onWarn: (message, error) => process.stderr.write(`midfold: ${message}${error && error.message ? ` (${error.message})` : ''}\n`),
      });
      if (process.stderr.isTTY) process.stderr.write(`midfold: compacting ${messages.length} messages…\n`);
      const report = await compactor.compact(messages, { force: values.force });
      await output(values, input, messages);
      if (values.json) {
        json({ report: { ...report, error: report.error && String(report.error.message || report.error) }, messages });
      } else {
        print(`micro-compaction: cleared ${report.micro.cleared} tool results (${report.micro.charsCleared} chars)`);
        if (report.compacted) {
          print(`compaction: folded ${report.summarizedMessages} messages into a summary, ${report.tokensBefore} → ${report.tokensAfter} tokens (${compactor.profile}), ${messages.length} messages left${report.tailShrunk ? ' (--force: the tail budget held everything, so the tail was cut to half)' : ''}`);
          print('\n--- summary ---');
          print(report.summary);
        } else {
          print(`compaction: not done (${report.reason}), ${report.tokensBefore} → ${report.tokensAfter} tokens (${compactor.profile})`);
        }
      }
      return report.compacted || !values.force ? 0 : 1;
    }
  }
  return 2;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e) => {
  if (e instanceof UsageError) fail(e.message);
  if (e && e.name === 'MidfoldError') fail(`${e.code}: ${e.message}`);
  fail(e && e.stack ? e.stack : String(e));
});
