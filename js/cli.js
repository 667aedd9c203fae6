#!/usr/bin/env node
/**
 * cli.js — `midfold <estimate|serialize|micro|compact|validate|simulate|convert> FILE [options]`.
 * Reads a conversation (a JSON array of messages, a request body, or an agent's log: Claude
 * Code, Codex CLI) from a file or `-` (stdin). stdout carries the result — the figure, the
 * transcript, the table, or the resulting conversation — and stderr everything else: reports,
 * notes, progress. Exit codes: 0 done, 1 the conversation has problems (validate) or
 * compaction did not happen when forced, 2 bad input or usage.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import {
  init, estimateTokens, serialize, microCompact, validate, detectFormat, Compactor, digestSummarizer,
  openAISummarizer, anthropicSummarizer, simulate, simulationChart,
} from './hosts/node.js';
import { UsageError, COMMANDS, parseCommandLine, unknownCommand } from './cli/args.js';
import { COMMAND_HELP, commandHelp, overview } from './cli/help.js';
import { logNote, readConversation, requireMessages } from './cli/input.js';
import { progressLine } from './cli/progress.js';
import { recallArchive } from './recall/archive.js';
import { fileStateStore } from './recall/file-store.js';
import { recallMicroCompact } from './recall/micro.js';
import { recallExecutor } from './recall/tool.js';

// A reader that stops early (`midfold serialize s.json | head -1`) closes the pipe: the rest
// of the output has nowhere to go, and that is not an error.
process.stdout.on('error', (e) => {
  if (e && e.code === 'EPIPE') process.exit(0);
  throw e;
});

const print = (text) => process.stdout.write(text.endsWith('\n') ? text : text + '\n');
const note = (text) => process.stderr.write(`midfold: ${text}\n`);
const json = (obj) => print(JSON.stringify(obj, null, 2));

function number(value, name) {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** --exclude-tools A,B as a list. */
function toolList(text) {
  return text ? text.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
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


/**
 * Where a command's resulting conversation goes: -o FILE, -o - (stdout), or, without -o, stdout
 * when it is a pipe or a file and nowhere on a terminal (a megabyte of JSON helps nobody
 * there). 'json' is --json's: stdout holds the JSON report, so the conversation goes to FILE only.
 */
function destination(values, always = false) {
  if (values.json) {
    if (values.output === '-') throw new UsageError('--json and -o - would both write stdout: give -o FILE for the conversation');
    return values.output ? { file: values.output } : { none: true };
  }
  if (values.output === '-') return { stdout: true };
  if (values.output) return { file: values.output };
  return always || !process.stdout.isTTY ? { stdout: true } : { none: true };
}

/** Writes the conversation (in the body it came in, or as the plain array) where `to` says. */
async function writeConversation(to, { value, key }, messages) {
  if (to.none) return;
  const doc = key === null ? messages : { ...value, [key]: messages };
  const text = JSON.stringify(doc, null, 2) + '\n';
  if (to.stdout) process.stdout.write(text);
  else await writeFile(to.file, text);
}

/**
 * The recall archive of FILE: files in --archive DIR, else in FILE.recall/ beside it (stdin has
 * no beside: it needs --archive). One conversation per directory.
 */
function archiveOf(values, file) {
  const dir = typeof values.archive === 'string' ? values.archive : file === '-' ? null : `${file}.recall`;
  if (!dir) throw new UsageError('--recall with stdin needs --archive DIR');
  return recallArchive({ store: fileStateStore(dir), conversation: 'session' });
}

/** The messages with the times the log gives them, for the simulator's turn times. */
function timed(input) {
  if (!input.log) return input.value;
  return input.messages.map((m, i) => (input.log.times[i] === undefined ? m : { ...m, timestamp: input.log.times[i] }));
}

async function main(argv) {
  const { values, positionals } = parseCommandLine(argv);
  if (values.version) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    print(`midfold ${pkg.version}`);
    return 0;
  }
  let [command, file] = positionals;
  if (command === 'help') {
    if (file !== undefined && !COMMAND_HELP[file]) throw unknownCommand(file);
    print(file ? commandHelp(file) : overview());
    return 0;
  }
  if (command !== undefined && !COMMANDS.includes(command)) throw unknownCommand(command);
  if (values.help) { print(command ? commandHelp(command) : overview()); return 0; }
  if (!command) throw new UsageError('no command; see midfold --help');
  // A flag the command does not read would be ignored without a word (--keep-recent on estimate).
  const reads = COMMAND_HELP[command].options;
  for (const flag of Object.keys(values)) {
    if (!reads.includes(flag)) throw new UsageError(`--${flag} does not apply to ${command}; see midfold ${command} --help`);
  }
  if (!file) throw new UsageError(`${command} needs a FILE (or - for stdin)`);
  if (command === 'recall') return recallCommand(values, file, positionals);
  if (positionals.length > 2) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[2])}`);
  if (values.archive !== undefined && !values.recall) throw new UsageError('--archive goes with --recall');
  const to = COMMAND_HELP[command].writes ? destination(values, command === 'convert') : null;
  // One profile for every command: the Compactor's, which errs high (docs/estimator.md).
  const profile = values.profile ?? 'safe';
  const common = { format: values.format, profile };
  await init();
  const input = await readConversation(file);
  const { value, messages } = input;
  if (command !== 'validate') requireMessages(messages, validate);
  if (input.log) note(logNote(input));

  switch (command) {
    case 'estimate': {
      const tokens = estimateTokens(value, common);
      if (values.json) json({ format: detectFormat(messages), profile, tokens, messages: messages.map((m) => estimateTokens(m, common)) });
      else print(`${tokens} tokens (${profile} profile)`);
      return 0;
    }
    case 'serialize': // (--profile is for the commands that count)
      print(serialize(messages, { format: values.format }));
      return 0;
    case 'convert':
      await writeConversation(to, { value: messages, key: null }, messages);
      if (!input.log) note(`${input.name}: ${messages.length} messages (${detectFormat(messages)})`);
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
      const options = { ...common, keepRecent: number(values['keep-recent'], 'keep-recent'), excludeTools: toolList(values['exclude-tools']) };
      const report = values.recall ? await recallMicroCompact(messages, { ...options, archive: archiveOf(values, file) }) : microCompact(messages, options);
      if (report.recall && report.recall.error) note(`recall: ${report.recall.error}`);
      await writeConversation(to, input, messages);
      if (values.json) json({ report, profile, messages });
      else {
        note(`micro-compaction: cleared ${report.cleared} tool results (${report.charsCleared} chars), ${report.tokensBefore} → ${report.tokensAfter} tokens (${profile} profile)`);
        if (to.none) note('the conversation was not written: give -o FILE, or -o - for stdout');
      }
      return 0;
    }
    case 'simulate': {
      const seconds = values['turn-seconds'];
      if (seconds !== undefined && !/^\d+(\.\d+)?$/.test(seconds)) throw new UsageError(`--turn-seconds must be a number of seconds, got ${JSON.stringify(seconds)}`);
      const progress = progressLine({ forced: values.progress === true });
      const report = await simulate(timed(input), {
        pricing: values.pricing, model: values.model, ttl: values.ttl, policies: values.policy, profile,
        window: number(values.window, 'window'), turnSeconds: seconds === undefined ? undefined : Number(seconds),
        cacheMatch: values['cache-match'],
        onProgress: (p) => progress.update(`simulate: ${p.label} (policy ${p.policyIndex + 1}/${p.policies}), turn ${p.turn}/${p.turns}`),
      }).finally(() => progress.done());
      if (values.chart) await writeFile(values.chart, simulationChart(report));
      if (values.json) json(report);
      else print(simulationTable(report));
      return 0;
    }
    case 'compact': {
      // --threshold 80% is a fraction of --context-window (the Compactor refuses it without one)
      const percent = /^(\d+(?:\.\d+)?)%$/.exec(values.threshold ?? '');
      const threshold = percent ? { fraction: Number(percent[1]) / 100 } : number(values.threshold, 'threshold');
      const contextWindow = number(values['context-window'], 'context-window');
      const keepTail = number(values['keep-tail'], 'keep-tail');
      const keepTailMessages = number(values['keep-tail-messages'], 'keep-tail-messages');
      const progress = progressLine({ forced: values.progress === true });
      const compactor = new Compactor({
        ...common, summarize: makeSummarizer(values), pricing: values.pricing, threshold, contextWindow, keepRecent: number(values['keep-recent'], 'keep-recent'),
        excludeTools: toolList(values['exclude-tools']),
        keepTail: keepTail === undefined && keepTailMessages === undefined ? undefined
          : { ...(keepTail === undefined ? {} : { tokens: keepTail }), ...(keepTailMessages === undefined ? {} : { messages: keepTailMessages }) },
        language: values.language,
        instructions: values.instructions, timeoutMs: number(values.timeout, 'timeout') ?? 120000,
        onWarn: (message, error) => note(`${message.replace(/^midfold: /, '')}${error && error.message ? ` (${error.message})` : ''}`),
        ...(values.recall ? { recall: { archive: archiveOf(values, file) } } : {}),
      });
      // A summary from a model can take a while: say what is being waited for, and for how long.
      const started = Date.now();
      const waiting = () => progress.update(`compact: ${messages.length} messages, ${Math.round((Date.now() - started) / 1000)} s`);
      waiting();
      const ticking = setInterval(waiting, 250);
      const report = await compactor.compact(messages, { force: values.force }).finally(() => { clearInterval(ticking); progress.done(); });
      await writeConversation(to, input, messages);
      const used = `${compactor.profile} profile`;
      if (values.json) {
        json({ report: { ...report, error: report.error && String(report.error.message || report.error) }, profile: compactor.profile, messages });
      } else {
        note(`micro-compaction: cleared ${report.micro.cleared} tool results (${report.micro.charsCleared} chars)`);
        if (report.compacted) {
          note(`compaction: folded ${report.summarizedMessages} messages into a summary, ${report.tokensBefore} → ${report.tokensAfter} tokens (${used}), ${messages.length} messages left${report.tailShrunk ? ' (--force: the tail budget held everything, so the tail was cut to half)' : ''}`);
          process.stderr.write(`\n--- summary ---\n${report.summary}\n`);
        } else {
          note(`compaction: not done (${report.reason}), ${report.tokensBefore} → ${report.tokensAfter} tokens (${used})`);
        }
        if (to.none) note('the conversation was not written: give -o FILE, or -o - for stdout');
      }
      return report.compacted || !values.force ? 0 : 1;
    }
  }
  return 2;
}

/** `midfold recall FILE ID`: the tool's answer for ID from FILE's archive, on stdout; exit 1 for an error answer. */
async function recallCommand(values, file, positionals) {
  const id = positionals[2];
  if (!id) throw new UsageError('recall needs FILE and a recall ID (as a marker names it: r7f3a2b9c)');
  if (positionals.length > 3) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[3])}`);
  if (file === '-' && values.archive === undefined) throw new UsageError('recall from stdin needs --archive DIR');
  await init();
  const answer = await recallExecutor({ archive: archiveOf(values, file) })({ id, page: number(values.page, 'page') });
  if (answer.isError) {
    note(answer.text.replace(/^recall error: /, ''));
    return 1;
  }
  print(answer.text);
  return 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e) => {
  const message = e instanceof UsageError ? e.message
    : e && e.name === 'MidfoldError' ? `${e.code}: ${e.message}` : (e && e.stack) || String(e);
  process.stderr.write(`midfold: ${message}\n`);
  process.exitCode = 2;
});
