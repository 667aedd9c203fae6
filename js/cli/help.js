/**
 * help.js — what `midfold --help` and `midfold COMMAND --help` print. Each option is
 * described once; a command's help lists the options it reads.
 */

/** `text` in lines of at most `width` characters (its own line breaks kept). */
function wrap(text, width) {
  const out = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line && line.length + 1 + word.length > width) { out.push(line); line = word; } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out;
}

/** The estimator's stated error margin (measured as docs/estimator.md says). */
export const MARGIN = wrap('Estimates err high: the safe profile counts about 1.4x what OpenAI\'s o200k tokenizer counts, '
  + 'and no long text measured under it (docs/estimator.md has the figures for each profile, tokenizer and kind of content).', 80).join('\n');

const INPUT = wrap(`FILE is a conversation: a JSON array of messages (Anthropic Messages, OpenAI Chat Completions or Responses items, AI SDK), a request body with "messages" or a Responses body with "input"; or an agent's own log: a Claude Code session (~/.claude/projects/…/SESSION.jsonl) or a Codex CLI rollout (~/.codex/sessions/…/rollout-….jsonl), told apart by what they hold (docs/agent-logs.md). "-" reads stdin.`, 80).join('\n');

const OUTPUT = wrap(`The resulting conversation goes to -o FILE, or to stdout with -o -; without -o it goes to stdout when stdout is a pipe or a file (midfold compact s.json > out.json), and is not written on a terminal. Reports go to stderr; with --json, stdout holds one JSON document (report and messages) instead.`, 80).join('\n');

/** Each option's help lines. */
const OPTION_HELP = {
  format: ['--format F', 'anthropic | openai | openai-responses | ai-sdk | ai-sdk-ui | langchain (default: detected)'],
  profile: ['--profile P', 'the estimator profile tokens are counted in: safe (the default of every command, the Compactor\'s), bareagent, o200k, cl100k, deepseek, qwen or claude; compact\'s threshold and tail budget are in its tokens'],
  'keep-recent': ['--keep-recent N', 'tool-result turns kept whole (default 3)'],
  'exclude-tools': ['--exclude-tools A,B', 'tools whose results are never cleared'],
  threshold: ['--threshold N', 'compact above N tokens (default 50000; 150000 with --pricing deepseek), or above N% of --context-window (80%)'],
  'keep-tail': ['--keep-tail N', 'recent tokens kept verbatim (default threshold/5)'],
  'keep-tail-messages': ['--keep-tail-messages N', 'keep at least the last N messages verbatim (alone, it sets no token budget)'],
  'context-window': ['--context-window N', "the model's context window in tokens, for --threshold 80%"],
  force: ['--force', 'compact even below the threshold (like /compact); when the tail budget holds the whole conversation, the tail shrinks to half of it so the older part is folded'],
  instructions: ['--instructions S', 'a focus for the summary'],
  language: ['--language L', 'auto | en | zh | another language code (default auto)'],
  summarizer: ['--summarizer S', 'digest | openai | anthropic (default: openai when a base URL is given, else digest: no model, no network)'],
  'base-url': ['--base-url URL', 'the model endpoint (openai: …/v1; env MIDFOLD_BASE_URL)'],
  model: ['--model M', 'compact: the summarizer\'s model (env MIDFOLD_MODEL; API key: env MIDFOLD_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY); simulate: a model of the price list (default: its first)'],
  timeout: ['--timeout MS', 'give up on the summarizer after MS milliseconds (default 120000)'],
  output: ['-o, --output FILE', 'write the resulting conversation to FILE ("-": stdout)'],
  json: ['--json', 'machine-readable output on stdout'],
  progress: ['--progress', 'show progress on stderr even when it is not a terminal (on a terminal it shows by itself once the work takes over a second)'],
  pricing: ['--pricing P', 'anthropic | openai | deepseek: whose prompt cache the requests use (simulate: default anthropic; compact: sets the default threshold)'],
  ttl: ['--ttl T', 'cache lifetime: 5m | 1h (anthropic), in_memory | 24h (openai)'],
  policy: ['--policy SPEC', 'a policy to compare; repeat for several. Names: none, every-turn, context-editing, micro-every-turn, micro-batched, defaults, recall; or parts joined with +:\n'
    + 'micro:trigger=60k,clearAtLeast=30k,keepRecent=3\ncompactor:threshold=50k,microTrigger=40k,clearAtLeast=20k,keepTailMessages=20\n'
    + 'context-editing:trigger=100k,keep=3, server-compaction:trigger=150k,maxSummaryTokens=2000\nrecall:page=4000 (with another part: re-reads of what it cleared are recalled)\n(default: none, every-turn, context-editing, micro-batched, defaults; "seed" is a deprecated name of every-turn)'],
  window: ['--window N', 'the context window in tokens (default 200000)'],
  'turn-seconds': ['--turn-seconds S', 'seconds between turns (default: the session\'s timestamps, else every turn inside the cache lifetime)'],
  'cache-match': ['--cache-match M', 'breakpoints (default: Anthropic\'s breakpoint on the last message) | prefix (every earlier prefix cached)'],
  chart: ['--chart FILE', 'also draw context and cumulative cost per turn as SVG'],
  help: ['-h, --help', 'this text'],
  recall: ['--recall', 'archive what is cleared or folded (in FILE.recall/, or --archive DIR) and name it in the markers by a recall id'],
  archive: ['--archive DIR', 'the directory of the recall archive (default: FILE.recall/ beside FILE)'],
  page: ['--page N', 'the page of a long content (1)'],
};

/** What each command does, and the options it reads. */
export const COMMAND_HELP = {
  estimate: { usage: 'midfold estimate FILE|- [options]', summary: 'estimated tokens of the conversation (each message\'s with --json)',
    options: ['format', 'profile', 'json'] },
  serialize: { usage: 'midfold serialize FILE|- [--format F]', summary: 'the transcript a summarizer reads', options: ['format'] },
  micro: { usage: 'midfold micro FILE|- [-o OUT] [options]', summary: 'micro-compaction: old tool results become "[truncated: …]" lines',
    options: ['format', 'profile', 'keep-recent', 'exclude-tools', 'recall', 'archive', 'output', 'json'], writes: true },
  compact: { usage: 'midfold compact FILE|- [-o OUT] [options]', summary: 'micro-compaction, then a summary of the middle over --threshold',
    options: ['format', 'profile', 'keep-recent', 'exclude-tools', 'pricing', 'threshold', 'context-window', 'keep-tail', 'keep-tail-messages', 'force', 'instructions', 'language',
      'summarizer', 'base-url', 'model', 'timeout', 'recall', 'archive', 'output', 'json', 'progress'], writes: true },
  validate: { usage: 'midfold validate FILE|- [--format F] [--json]', summary: 'provider rules the conversation breaks (exit 1 if any)', options: ['format', 'json'] },
  simulate: { usage: 'midfold simulate SESSION|- [options]', summary: 'replays the session turn by turn under context policies and prices\nevery request with the provider\'s prompt caching',
    options: ['profile', 'pricing', 'model', 'ttl', 'policy', 'window', 'turn-seconds', 'cache-match', 'chart', 'json', 'progress'] },
  convert: { usage: 'midfold convert LOG|- [-o conversation.json]', summary: 'an agent log (or any conversation) as its plain array of messages',
    options: ['output'], writes: true },
  recall: { usage: 'midfold recall FILE ID [--page N] [--archive DIR]', summary: 'what a recall id names, from the archive micro --recall or compact --recall wrote\n(exit 1 when the archive holds no such id or page)',
    options: ['archive', 'page'], id: true },
};

const EXIT = `Exit codes:
  0  done (compact: compacted, or not needed without --force)
  1  validate found problems; compact --force could not compact (the summarizer
     failed or there was nothing to fold); the conversation is unchanged
  2  bad input or usage (a one-line reason on stderr)`;

const indent = (text, by) => text.split('\n').map((l) => ' '.repeat(by) + l).join('\n');

function optionLines(names) {
  return names.map((name) => {
    const [flag, text] = OPTION_HELP[name];
    const lines = wrap(text, 58);
    const first = `  ${flag.padEnd(20)}${lines[0]}`;
    return [first, ...lines.slice(1).map((l) => ' '.repeat(22) + l)].join('\n');
  }).join('\n');
}

/** `midfold --help`. */
export function overview() {
  const commands = Object.entries(COMMAND_HELP).map(([name, c]) => {
    const lines = c.summary.split('\n');
    return [`  ${name.padEnd(12)}${lines[0]}`, ...lines.slice(1).map((l) => ' '.repeat(14) + l)].join('\n');
  }).join('\n');
  return `midfold — keep an LLM agent's conversation inside its context window

Usage: midfold <command> FILE|- [options]
       midfold <command> --help    the command's options
       midfold --version

Commands:
${commands}

${INPUT}

Every command counts tokens with the safe profile unless --profile names another;
every figure names the profile it was counted in.
${MARGIN}

${OUTPUT}

Options (each command takes those its --help lists):
${optionLines(['format', 'profile', 'output', 'json', 'progress', 'help'])}

${EXIT}
`;
}

/** `midfold COMMAND --help`. */
export function commandHelp(command) {
  const c = COMMAND_HELP[command];
  return `Usage: ${c.usage}

${indent(c.summary, 0)}

${command === 'convert' ? 'LOG' : command === 'simulate' ? 'SESSION' : 'FILE'}: ${INPUT.slice('FILE is '.length)}
${c.writes ? `\n${OUTPUT}\n` : ''}${c.options.includes('profile') ? `\n${MARGIN}\n` : ''}
Options:
${optionLines([...c.options, 'help'])}

${EXIT}
`;
}
