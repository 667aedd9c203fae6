// Anthropic blocks beyond tool_use/tool_result (issue 17, item 4) and the pending turn
// (item 6), on the fixtures of tests/fixtures/anthropic-blocks/ (typed against the SDK by
// fixtures.ts). Rules: docs/anthropic-blocks.md.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, estimateTokens, serialize, validate, detectFormat, microCompact } from '../../js/hosts/node.js';
import { compileFixtures } from '../fixtures/anthropic-blocks/build.mjs';
import { loadFixture } from '../helpers/fixtures.mjs';

const NAMES = ['research-session', 'mcp-tracker', 'code-execution', 'coding-screenshot-pdf', 'compaction-history'];
const DIR = new URL('../fixtures/anthropic-blocks/', import.meta.url);
const load = (name) => JSON.parse(readFileSync(new URL(`${name}.anthropic.json`, DIR), 'utf8'));

/** Every opaque string of a value: encrypted_*, signature, and base64 media data. */
function opaqueStrings(value, out = []) {
  if (Array.isArray(value)) value.forEach((v) => opaqueStrings(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && (k.startsWith('encrypted_') || k === 'signature' || (k === 'data' && value.type === 'base64'))) out.push(v);
      else opaqueStrings(v, out);
    }
  return out;
}
/** A deep copy with every opaque string replaced by `by(old)`. */
function replaceOpaque(value, by) {
  if (Array.isArray(value)) return value.map((v) => replaceOpaque(v, by));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) =>
    [k, typeof v === 'string' && (k.startsWith('encrypted_') || k === 'signature') ? by(v) : replaceOpaque(v, by)]));
}

test.before(() => init());

test('the JSON fixtures are what fixtures.ts builds, and fixtures.ts type-checks against @anthropic-ai/sdk', async () => {
  const built = await compileFixtures();
  for (const name of NAMES) assert.deepEqual(load(name), built[`${name}.anthropic`], name);
});

test('every fixture is detected as Anthropic and is valid', () => {
  for (const name of NAMES) {
    const msgs = load(name);
    assert.equal(detectFormat(msgs), 'anthropic', name);
    assert.deepEqual(validate(msgs), { ok: true, format: 'anthropic', problems: [] }, name);
  }
});

test('a conversation whose only Anthropic feature is a server-tool or compaction block is detected as Anthropic', () => {
  const research = load('research-session');
  assert.equal(detectFormat([research[0], { role: 'assistant', content: [research[1].content[5]] }]), 'anthropic');
  const compaction = load('compaction-history');
  assert.equal(detectFormat([{ role: 'assistant', content: [compaction[1].content[0]] }]), 'anthropic');
  assert.equal(detectFormat([{ role: 'user', content: [load('code-execution')[0].content[1]] }]), 'anthropic');
});

test('encrypted_content, encrypted_index and signatures cost nothing: any other opaque string gives the same estimate', () => {
  for (const name of ['research-session', 'compaction-history']) {
    const msgs = load(name);
    const opaque = opaqueStrings(msgs).join('').length;
    assert.ok(opaque > 10000 || name === 'compaction-history', `${name} carries ${opaque} opaque chars`);
    assert.equal(estimateTokens(msgs), estimateTokens(replaceOpaque(msgs, () => 'x')), name);
    assert.equal(estimateTokens(msgs, { profile: 'claude' }), estimateTokens(replaceOpaque(msgs, () => 'x'), { profile: 'claude' }));
  }
  const research = load('research-session');
  assert.ok(estimateTokens(research) * 8 < opaqueStrings(research).join('').length,
    'the estimate is far below the length of the encrypted strings');
});

test('images cost the profile image price and a base64 PDF its pages (3 here), not their base64', () => {
  const msgs = load('coding-screenshot-pdf');
  const base64 = opaqueStrings(msgs).join('').length;
  const without = structuredClone(msgs);
  without[0].content = without[0].content.filter((b) => b.type === 'text');
  without[6].content[0].content = without[6].content[0].content.filter((b) => b.type === 'text');
  // reference profile: an image 1600 tokens, a PDF page 3000 (docs/anthropic-blocks.md), plus the title as text
  const extra = estimateTokens(msgs) - estimateTokens(without) - estimateTokens(msgs[0].content[2].title);
  assert.ok(Math.abs(extra - (2 * 1600 + 3 * 3000)) <= 1, `${extra}`);
  assert.ok(base64 > 60000 && estimateTokens(msgs) < base64 / 4, `${estimateTokens(msgs)} tokens for ${base64} base64 chars`);
});

test('a compaction block is read as its summary text', () => {
  const msgs = load('compaction-history');
  const block = msgs[1].content[0];
  const t = serialize(msgs);
  assert.ok(t.includes(`[assistant]\n${block.content}\nPicking up: next is the staging drain.`));
  const asText = structuredClone(msgs);
  asText[1].content[0] = { type: 'text', text: block.content };
  // What the model reads starts at the compaction block: the estimate counts from there.
  assert.equal(estimateTokens(msgs), estimateTokens(asText.slice(1)));
  assert.ok(estimateTokens(msgs) < estimateTokens(asText));
});

test('transcripts are readable and free of opaque strings', () => {
  for (const name of NAMES) {
    const msgs = load(name);
    const t = serialize(msgs);
    for (const s of opaqueStrings(msgs)) assert.ok(!t.includes(s.slice(0, 24)), `${name}: an opaque string reached the transcript`);
    assert.doesNotMatch(t, /"type": "(server_tool_use|mcp_tool_use|\w+_tool_result|\w+_result|document|image|compaction|container_upload)"/,
      `${name}: no raw JSON blocks`);
  }
  const research = serialize(load('research-session'));
  for (const s of ['[tool_use:web_search] {"query": "SQLite WAL mode concurrent readers writers network filesystem"}',
    '[search result] Write-Ahead Logging - SQLite <https://www.sqlite.org/wal.html> (March 14, 2026)',
    // Inside a result its placeholders are content, escaped on a line of their own (docs/transcript.md): the page's
    // lines stay in the result instead of reading as a document the user attached.
    '[tool_result:web_fetch] [fetched] https://www.sqlite.org/wal.html\n\\[document: Write-Ahead Logging]\nWrite-Ahead Logging',
    '[tool_error:web_fetch] [error: url_not_accessible]'])
    assert.ok(research.includes(s), s);
  const mcp = serialize(load('mcp-tracker'));
  assert.ok(mcp.includes('[tool_use:linear/list_issues] {"team": "Payments", "label": "bug", "orderBy": "createdAt", "limit": 3}'));
  assert.ok(mcp.includes('[tool_result:list_issues] {\n  "issues": ['));
  assert.ok(mcp.includes('[tool_error:create_issue_relation] Error: an issue cannot block'));
  const code = serialize(load('code-execution'));
  assert.ok(code.includes('[container_upload: file_011CPd3sVx8bT5qLmR2nWk9E]'));
  assert.ok(code.includes('[tool_result:bash_code_execution] region               n      p50      p99'));
  assert.ok(code.includes('[stderr] /usr/lib/python3/dist-packages/pandas'));
  assert.ok(code.includes('[output file: file_011CPd4Qn7Lx2Vb9Tm5Ws8Rk]'));
  assert.ok(code.includes('[tool_result:text_editor_code_execution] [file created]'));
  const coding = serialize(load('coding-screenshot-pdf'));
  assert.ok(coding.includes('[image]\n[document: Checkout redesign spec v3]'));
  // Inside a result a placeholder on a line of its own is content, escaped (docs/transcript.md).
  assert.ok(coding.includes('[tool_result:screenshot] Saved checkout-390x844.png\n\\[image]'));
});

/** The API's shape rules for the blocks micro-compaction may edit (docs/anthropic-blocks.md). */
function assertApiShapes(msgs) {
  for (const m of msgs) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === 'web_search_tool_result') assert.ok(Array.isArray(b.content) || b.content.type === 'web_search_tool_result_error');
      if (b.type === 'web_fetch_tool_result' && b.content.type === 'web_fetch_result') {
        assert.equal(b.content.content.type, 'document');
        const s = b.content.content.source;
        assert.ok(s.type !== 'text' || (s.media_type === 'text/plain' && typeof s.data === 'string'));
      }
      if (/code_execution_tool_result$/.test(b.type)) assert.equal(typeof b.content, 'object');
      if (b.content?.type === 'bash_code_execution_result' || b.content?.type === 'code_execution_result') {
        assert.equal(typeof b.content.stdout, 'string');
        assert.equal(typeof b.content.stderr, 'string');
        assert.equal(typeof b.content.return_code, 'number');
        assert.ok(Array.isArray(b.content.content));
      }
      if (b.content?.type === 'text_editor_code_execution_view_result') assert.equal(typeof b.content.content, 'string');
      if (b.type === 'mcp_tool_result') assert.ok(typeof b.content === 'string' || b.content.every((c) => c.type === 'text'));
    }
  }
}

test('micro-compaction clears old server-tool and MCP results into blocks the API accepts', () => {
  const research = load('research-session');
  const r = microCompact(research, { keepRecent: 1 });
  assert.deepEqual(r.edits.map((e) => [e.message, e.part, e.tool]), [[1, 5, 'web_fetch'], [3, 3, 'web_fetch']]);
  assert.equal(research[1].content[5].content.content.source.data, `[truncated: web_fetch result, ${r.edits[0].chars} chars]`);
  assert.equal(research[1].content[5].content.url, 'https://www.sqlite.org/wal.html', 'the fetched URL is kept');
  assert.equal(research[1].content[2].content.length, 3, 'web search results have no valid shorter form: left whole');
  assert.deepEqual(opaqueStrings(research), opaqueStrings(load('research-session')), 'no opaque string is touched');
  assert.ok(validate(research).ok);
  assert.equal(estimateTokens(research), r.tokensAfter, 'tokensAfter is the estimate of what is left');
  assertApiShapes(research);
  assert.equal(microCompact(research, { keepRecent: 1 }).cleared, 0, 'idempotent');

  const mcp = load('mcp-tracker');
  const m = microCompact(mcp, { keepRecent: 1 });
  assert.deepEqual(m.edits.map((e) => e.tool), ['list_issues', 'search_users', 'create_issue']);
  assert.equal(mcp[1].content[2].content, `[truncated: list_issues result, ${m.edits[0].chars} chars]`);
  assert.ok(validate(mcp).ok);
  assertApiShapes(mcp);

  const code = load('code-execution');
  const c = microCompact(code, { keepRecent: 0 });
  assert.deepEqual(c.edits.map((e) => [e.message, e.part]), [[1, 2], [1, 6], [3, 1], [3, 3]]);
  const exec = code[3].content[1].content;
  assert.equal(exec.stdout, `[truncated: code_execution result, ${c.edits[2].chars} chars]`);
  assert.equal(exec.stderr, '');
  assert.equal(exec.content[0].file_id, 'file_011CPd4Qn7Lx2Vb9Tm5Ws8Rk', 'output files are kept');
  assert.match(code[3].content[3].content.content, /^\[truncated: text_editor_code_execution result, \d+ chars\]$/);
  assert.equal(code[1].content[4].content.type, 'text_editor_code_execution_create_result', 'a create result is left as it is');
  assert.ok(validate(code).ok);
  assert.equal(estimateTokens(code), c.tokensAfter, 'tokensAfter prices the return codes and files that stay');
  assertApiShapes(code);
  assert.equal(microCompact(code, { keepRecent: 0 }).cleared, 0, 'idempotent');
});

test('excludeTools applies to server tools and MCP tools by their tool name', () => {
  const research = load('research-session');
  assert.equal(microCompact(research, { keepRecent: 0, excludeTools: ['web_fetch'] }).cleared, 0);
  const mcp = load('mcp-tracker');
  assert.deepEqual(microCompact(mcp, { keepRecent: 0, excludeTools: ['list_issues'] }).edits.map((e) => e.tool),
    ['search_users', 'create_issue', 'create_issue_relation']);
});

test('pairing: a server or MCP result must sit with its call in the same assistant message', () => {
  const codes = (r) => r.problems.map((p) => [p.code, p.index, p.part, p.severity]);
  const moved = load('research-session');
  const [result] = moved[1].content.splice(2, 1);
  moved.splice(2, 0, { role: 'user', content: [result] });
  // (the moved result's message now stands before another user message: a turn the API would combine)
  assert.deepEqual(codes(validate(moved)), [
    ['call-without-result', 1, 1, 'error'], ['bad-content', 2, 0, 'error'], ['result-without-call', 2, 0, 'error'],
    ['consecutive-role', 3, undefined, 'warning']]);

  const lost = load('mcp-tracker');
  lost[3].content.splice(1, 1);
  assert.deepEqual(codes(validate(lost)), [['call-without-result', 3, 0, 'error']]);
  const orphan = load('mcp-tracker');
  orphan[3].content.splice(0, 1);
  assert.deepEqual(codes(validate(orphan)), [['result-without-call', 3, 0, 'error']]);
  assert.equal(validate(orphan).ok, false);

  // A paused turn (stop_reason "pause_turn") ends on a server call the API continues from.
  const paused = load('code-execution').slice(0, 4);
  paused[3].content = paused[3].content.slice(0, 1);
  const r = validate(paused);
  assert.deepEqual(codes(r), [['call-without-result', 3, 0, 'warning']]);
  assert.equal(r.ok, true);
});

test('a block type midfold does not know is kept, priced by its text fields and only a warning', () => {
  const msgs = load('mcp-tracker');
  const secret = 'Eq' + 'Zm9yZWNhc3Q'.repeat(300);
  msgs[1].content.splice(3, 0, { type: 'tool_timeline', title: 'Linear sync', steps: ['listed 3 issues'], encrypted_trace: secret, id: 'tl_01' });
  const r = validate(msgs);
  assert.equal(r.ok, true);
  assert.deepEqual(r.problems.map((p) => [p.code, p.index, p.part, p.severity]), [['unknown-block', 1, 3, 'warning']]);
  const t = serialize(msgs);
  assert.ok(t.includes('[block: tool_timeline] Linear sync\nlisted 3 issues'), t); // the type is content: never a marker's word
  assert.ok(!t.includes('Zm9yZWNhc3Q'));
  const plain = load('mcp-tracker');
  plain[1].content.splice(3, 0, { type: 'text', text: 'tool_timeline Linear sync listed 3 issues' });
  assert.ok(Math.abs(estimateTokens(msgs) - estimateTokens(plain)) <= 3, 'priced like its text, not its encrypted field');
  assert.equal(detectFormat(msgs), 'anthropic');
});

/** The messages after the last assistant message: the pending turn. */
const pendingTail = (msgs) => msgs.slice(msgs.map((m) => m.role).lastIndexOf('assistant') + 1);

test('keepRecent 0 leaves the pending turn byte for byte (Anthropic, OpenAI, AI SDK)', () => {
  const cases = {
    anthropic: load('coding-screenshot-pdf'),
    openai: loadFixture('coding-session.openai').slice(0, -1),
    'ai-sdk': loadFixture('coding-session.ai-sdk').slice(0, -1),
    'anthropic (coding session)': loadFixture('coding-session.anthropic').slice(0, -1),
  };
  for (const [name, msgs] of Object.entries(cases)) {
    const tail = pendingTail(msgs);
    assert.ok(tail.length > 0 && JSON.stringify(tail).length > 100, `${name} ends on a pending result`);
    const before = JSON.stringify(tail);
    const r = microCompact(msgs, { keepRecent: 0 });
    assert.ok(r.cleared > 0, `${name}: older results are still cleared`);
    assert.equal(JSON.stringify(pendingTail(msgs)), before, `${name}: the pending turn is untouched`);
  }
});

test('a paused assistant turn that ends the list keeps its server results whatever keepRecent says', () => {
  const msgs = load('code-execution').slice(0, 4);
  const before = JSON.stringify(msgs[3]);
  const r = microCompact(msgs, { keepRecent: 0 });
  assert.deepEqual(r.edits.map((e) => e.message), [1, 1]);
  assert.equal(JSON.stringify(msgs[3]), before);
});

// A turn paused with stop_reason "pause_turn" and continued: the client sends the paused message back as it is and
// appends the response, so a server call the pause left unrun has its result in the next assistant message (the
// API combines consecutive assistant turns). Rule and sources: docs/anthropic-blocks.md, "Paused turns".
/** research-session with message 3 paused before its web fetch ran, and the continuation after it. */
function pausedSession() {
  const msgs = load('research-session');
  const [search, searchResult, fetch, fetchResult, text] = msgs[3].content;
  msgs.splice(3, 1, { role: 'assistant', content: [search, searchResult, fetch] }, { role: 'assistant', content: [fetchResult, text] });
  return msgs;
}
const problemsOf = (msgs) => validate(msgs).problems.map((p) => [p.code, p.index, p.severity]);

test('a paused turn continued in the next assistant message is valid: its last server call has its result there', () => {
  const msgs = pausedSession();
  assert.equal(msgs[3].content.at(-1).type, 'server_tool_use');
  assert.equal(msgs[4].content[0].tool_use_id, msgs[3].content.at(-1).id);
  assert.deepEqual(problemsOf(msgs), []);
  assert.equal(validate(msgs).ok, true);
  // Paused twice: each continuation answers the call the message before it stopped on.
  const twice = pausedSession();
  const [fetchResult, text] = twice[4].content;
  const again = { type: 'server_tool_use', id: 'srvtoolu_01PausedAgain7Qx', name: 'web_search', input: { query: 'SQLite WAL network filesystem NFS' } };
  const againResult = { type: 'web_search_tool_result', tool_use_id: again.id, content: [{ type: 'web_search_result', title: 'SQLite Over a Network', url: 'https://www.sqlite.org/useovernet.html', page_age: 'May 2, 2026', encrypted_content: 'EqgfCioIARgBIiQ3NmQ4' }] };
  twice.splice(4, 1, { role: 'assistant', content: [fetchResult, again] }, { role: 'assistant', content: [againResult, text] });
  assert.deepEqual(problemsOf(twice), []);
});

test('nothing looser than a paused turn and its continuation: the other splits of a server call and its result stay errors', () => {
  // (two assistant messages in a row that do not continue a paused turn also get the consecutive-role
  // warning; this test is about the pairing errors)
  const problemsOf = (msgs) => validate(msgs).problems.filter((p) => p.code !== 'consecutive-role').map((p) => [p.code, p.index, p.severity]);
  const pair = (call, result) => [['call-without-result', call, 'error'], ['result-without-call', result, 'error']];
  // A user message between them: the turn ended, nothing continues it.
  const afterUser = pausedSession();
  afterUser.splice(4, 0, { role: 'user', content: 'Go on.' });
  assert.deepEqual(problemsOf(afterUser), pair(3, 5));
  // The call is not where the turn paused: text follows it in its message.
  const notAtEnd = pausedSession();
  notAtEnd[3].content.push({ type: 'text', text: 'Fetching the WAL page.' });
  assert.deepEqual(problemsOf(notAtEnd), pair(3, 4));
  // The result two messages later.
  const later = pausedSession();
  later.splice(4, 0, { role: 'assistant', content: [{ type: 'text', text: 'Still working.' }] });
  assert.deepEqual(problemsOf(later), pair(3, 5));
  assert.deepEqual(validate(later).problems.filter((p) => p.code === 'consecutive-role').map((p) => [p.index, p.severity]), [[4, 'warning'], [5, 'warning']],
    'assistant messages that continue no paused turn are turns in a row');
  // The result before its call.
  const before = pausedSession();
  [before[3], before[4]] = [before[4], before[3]];
  assert.deepEqual(problemsOf(before).map(([c, i]) => [c, i]), [['result-without-call', 3], ['call-without-result', 4]]);
  // A second result for a call its own message already answered.
  const twice = pausedSession();
  twice[4].content.unshift({ ...twice[3].content[1] });
  assert.deepEqual(problemsOf(twice), [['result-without-call', 4, 'error']]);
  // The MCP connector's calls are answered in their own message: no pause splits them.
  const mcp = load('mcp-tracker');
  const i = mcp.findIndex((m) => m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => b.type === 'mcp_tool_result'));
  const at = mcp[i].content.findIndex((b) => b.type === 'mcp_tool_result');
  const [mcpResult, ...rest] = mcp[i].content.splice(at);
  mcp.splice(i + 1, 0, { role: 'assistant', content: [mcpResult, ...rest] });
  assert.deepEqual(problemsOf(mcp).map(([c]) => c), ['call-without-result', 'result-without-call']);
});

test('micro-compaction and folds keep a paused call and its continued result together', async () => {
  const { Compactor } = await import('../../js/hosts/node.js');
  const callId = pausedSession()[3].content.at(-1).id;
  const holds = (msgs, type) => msgs.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === type && (b.id ?? b.tool_use_id) === callId));
  const micro = pausedSession();
  const report = microCompact(micro, { keepRecent: 0 });
  assert.ok(report.cleared > 0);
  assert.ok(holds(micro, 'server_tool_use') && holds(micro, 'web_fetch_tool_result'));
  assert.deepEqual(problemsOf(micro), []);
  for (const tokens of [0, 100, 400, 1500, 4000]) {
    const msgs = pausedSession();
    const r = await new Compactor({ summarize: async () => 'WAL allows one writer and many readers; it needs shared memory, so not over NFS.', keepTail: { tokens } })
      .compact(msgs, { force: true });
    assert.ok(r.compacted || r.reason === 'nothing-to-summarize', `${tokens}: ${r.reason}`);
    assert.equal(holds(msgs, 'server_tool_use'), holds(msgs, 'web_fetch_tool_result'), `keepTail ${tokens}: both kept or both folded`);
    assert.deepEqual(problemsOf(msgs), [], `keepTail ${tokens}`);
  }
});
