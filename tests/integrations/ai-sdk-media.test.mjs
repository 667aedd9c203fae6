// AI SDK media (ai 6 and ai 7): images and files in tool results (`output: {type:
// 'content', value: [...]}`, every content item type both majors list) and in user and
// assistant `image` / `file` parts (base64, Uint8Array, ArrayBuffer, Buffer, URLs,
// provider references, v7's {type: 'data' | 'url' | 'reference' | 'text'} file data).
// They are priced as the provider bills them — an image at the profile's image cost, a
// document by its decoded size (one document cost per started 32 KiB, docs/ai-sdk.md) —
// shown as "[image]" / "[file: NAME]", and provider options are never priced as text.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { init, estimateTokens, serialize, validate, detectFormat, microCompact } from '../../js/hosts/node.js';
import { VERSIONS, codingSession, skipReason, pngBytes, pdfBytes, b64, load } from '../helpers/ai-sdk-flows.mjs';

await init();

// The reference profile's figures (src/profiles.c): what an image and a document cost.
const IMAGE = 1600, DOCUMENT = 3000, PAGE = 32768;
const docCost = (bytes) => Math.ceil(bytes / PAGE) * DOCUMENT;

/** The estimate of `msgs` minus the same conversation with one part replaced by plain text "x". */
function costOf(msgs, replace) {
  const without = replace(structuredClone(msgs));
  return estimateTokens(msgs) - estimateTokens(without);
}

const user = (content) => [{ role: 'user', content }];

for (const v of VERSIONS) {
  describe(`${v.name}: media in tool results`, { skip: skipReason(v) || false }, () => {
    test('a 150 KB screenshot (from toModelOutput: image-data in ai 6, a file part in ai 7) costs one image, not its base64', async () => {
      const s = await codingSession(v);
      const shot = s.done.findIndex((m) => m.role === 'tool' && m.content[0].toolName === 'screenshot');
      const item = s.done[shot].content[0].output.value[1];
      // (ai 7 deprecates image-data for `file` with {type: 'data'}: the session is written in each major's current names)
      assert.equal(item.type, v.name === 'ai 7' ? 'file' : 'image-data');
      const base64 = item.type === 'file' ? item.data.data : item.data;
      assert.ok(base64.length > 200000, 'the base64 of 150 KB');
      const total = estimateTokens(s.done);
      const cost = costOf(s.done, (m) => { m[shot].content[0].output.value.pop(); return m; });
      assert.equal(cost, IMAGE);
      assert.ok(total < 5000, `the whole session estimates at ${total}`);
      const text = serialize(s.done);
      assert.match(text, /\[tool_result:screenshot\] Screenshot of http:\/\/localhost:5173\/login\n\\\[image\]/); // escaped: content
      assert.ok(!text.includes(base64.slice(0, 32)), 'no base64 in the transcript');
    });

    test('an old screenshot result is cleared to its marker, counted as its transcript text', async () => {
      const s = await codingSession(v);
      const messages = structuredClone(s.done);
      microCompact(messages, { keepRecent: 1 });
      const shot = messages.find((m) => m.role === 'tool' && m.content[0].toolName === 'screenshot').content[0];
      const shown = 'Screenshot of http://localhost:5173/login'.length + '[image]'.length;
      assert.deepStrictEqual(shot.output, { type: 'text', value: `[truncated: screenshot result, ${shown} chars]` });
      assert.ok(s.ai.modelMessageSchema.array().safeParse(messages).success);
    });

    test('every content item type of v6 and v7 is priced by what the model reads', async () => {
      const { ai } = await load(v);
      const png = b64(pngBytes(40000));
      const pdf = pdfBytes(100000);
      const items = [
        [{ type: 'text', text: 'build log: 3 warnings' }, null],
        [{ type: 'image-data', data: png, mediaType: 'image/png' }, IMAGE],
        [{ type: 'image-url', url: 'https://ci.example.com/artifacts/diff.png' }, IMAGE],
        [{ type: 'image-file-id', fileId: { openai: 'file-abc123', anthropic: 'file_01XYZ' } }, IMAGE],
        [{ type: 'file-data', data: b64(pdf), mediaType: 'application/pdf', filename: 'coverage.pdf' }, docCost(pdf.length)],
        [{ type: 'file-url', url: 'https://ci.example.com/report.pdf', mediaType: 'application/pdf' }, DOCUMENT],
        [{ type: 'file-id', fileId: 'file-report-7' }, DOCUMENT],
        [{ type: 'file-data', data: png, mediaType: 'image/png' }, IMAGE],
        [{ type: 'custom', providerOptions: { anthropic: { type: 'tool-reference', toolName: 'x'.repeat(500) } } }, 0],
      ];
      if (v.ai === 'ai') items.push([{ type: 'media', data: png, mediaType: 'image/png' }, IMAGE]); // v6's deprecated item
      if (v.ai === 'ai-v7') {
        items.push(
          [{ type: 'file', data: { type: 'data', data: pdf }, mediaType: 'application/pdf', filename: 'spec.pdf' }, docCost(pdf.length)],
          [{ type: 'file-reference', providerReference: { anthropic: 'file_011CNha' } }, DOCUMENT],
          [{ type: 'image-file-reference', providerReference: { openai: 'file-img-9' } }, IMAGE],
        );
      }
      for (const [item, expected] of items) {
        const msgs = [
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'ci_artifacts', input: { run: 4411 } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'ci_artifacts', output: { type: 'content', value: [item] } }] },
        ];
        assert.ok(ai.modelMessageSchema.array().safeParse(msgs).success, `${item.type} is a valid ${v.name} item`);
        assert.equal(detectFormat(msgs), 'ai-sdk');
        assert.deepStrictEqual(validate(msgs).problems, []);
        if (expected === null) continue;
        const cost = costOf(msgs, (m) => { m[1].content[0].output.value = []; return m; });
        assert.equal(cost, expected, `${item.type}${item.mediaType ? ` (${item.mediaType})` : ''}`);
        const text = serialize(msgs);
        assert.ok(!text.includes('iVBOR') && !text.includes('JVBER'), `no base64 for ${item.type}`);
        if (expected === IMAGE) assert.match(text, /\] \[image\]$/);
        else if (expected > 0) assert.match(text, /\] \[file(: [^\]]+)?\]$/);
      }
    });
  });

  describe(`${v.name}: media in user and assistant parts`, { skip: skipReason(v) || false }, () => {
    test('a PDF costs the same whether it is base64, a Uint8Array, a Buffer or an ArrayBuffer', async () => {
      const { ai } = await load(v);
      const pdf = pdfBytes(200 * 1024);
      const forms = [b64(pdf), pdf, Buffer.from(pdf), pdf.buffer.slice(0)];
      const costs = forms.map((data) => {
        const msgs = user([{ type: 'text', text: '总结这份季度报告' }, { type: 'file', data, mediaType: 'application/pdf', filename: 'Q3-report.pdf' }]);
        assert.ok(ai.modelMessageSchema.array().safeParse(msgs).success);
        assert.equal(serialize(msgs), '[user]\n总结这份季度报告\n[file: Q3-report.pdf]');
        return costOf(msgs, (m) => { m[0].content.pop(); return m; });
      });
      assert.deepStrictEqual(costs, forms.map(() => docCost(pdf.length)));
      assert.equal(costs[0], 7 * DOCUMENT);
    });

    test('images as base64, bytes, URL objects, URL strings and data URLs cost one image each', async () => {
      const { ai } = await load(v);
      const png = pngBytes(150 * 1024);
      const images = [b64(png), png, new URL('https://example.com/mockup.png'), 'https://example.com/mockup.png',
        `data:image/png;base64,${b64(png)}`];
      for (const image of images) {
        const msgs = user([{ type: 'image', image, mediaType: 'image/png' }]);
        assert.ok(ai.modelMessageSchema.array().safeParse(msgs).success);
        assert.equal(estimateTokens(msgs) - estimateTokens(user([])), IMAGE);
        assert.equal(serialize(msgs), '[user]\n[image]');
      }
      // A file part whose media type is an image is an image.
      const file = user([{ type: 'file', data: png, mediaType: 'image/jpeg', filename: 'photo.jpg' }]);
      assert.equal(estimateTokens(file) - estimateTokens(user([])), IMAGE);
      assert.equal(serialize(file), '[user]\n[image]');
    });

    if (v.ai === 'ai-v7') {
      test('v7 file data: {type: data | url | reference | text}', async () => {
        const { ai } = await load(v);
        const pdf = pdfBytes(70000);
        const cases = [
          [{ type: 'data', data: pdf }, docCost(pdf.length)],
          [{ type: 'data', data: b64(pdf) }, docCost(pdf.length)],
          [{ type: 'url', url: new URL('https://docs.example.com/rfc.pdf') }, DOCUMENT],
          [{ type: 'reference', reference: { anthropic: 'file_011CPMxVD3fHLUhvTqtsQA5w' } }, DOCUMENT],
        ];
        for (const [data, expected] of cases) {
          const msgs = user([{ type: 'file', data, mediaType: 'application/pdf', filename: 'rfc.pdf' }]);
          assert.ok(ai.modelMessageSchema.array().safeParse(msgs).success, data.type);
          assert.equal(estimateTokens(msgs) - estimateTokens(user([])), expected, data.type);
          assert.equal(serialize(msgs), '[user]\n[file: rfc.pdf]');
        }
        // Inline text is read as its text.
        const notes = '会议纪要：周三前完成登录页重构。'.repeat(20);
        const text = user([{ type: 'file', data: { type: 'text', text: notes }, mediaType: 'text/plain', filename: 'notes.txt' }]);
        assert.equal(estimateTokens(text) - estimateTokens(user([])), estimateTokens(notes) );
      });
    }

    test('providerOptions, signatures and other opaque metadata are never priced as text', async () => {
      const signature = 'EqQBCgIYAhIM'.repeat(400);
      const plain = [
        { role: 'user', content: [{ type: 'text', text: 'Why does the form overflow on mobile?' }] },
        { role: 'assistant', content: [
          { type: 'reasoning', text: 'The container has a fixed width of 480px.' },
          { type: 'text', text: 'It has a fixed 480px width; use max-width instead.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'src/login.css' } },
        ] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: '.login { width: 480px; }' } }] },
      ];
      const dressed = structuredClone(plain);
      dressed[0].providerOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };
      dressed[0].content[0].providerOptions = { openai: { imageDetail: 'high' } };
      dressed[1].content[0].providerOptions = { anthropic: { signature } };
      dressed[1].content[1].providerOptions = { openai: { itemId: 'msg_'.padEnd(60, '7') } };
      dressed[1].content[2].providerOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };
      dressed[2].content[0].providerOptions = { openai: { itemId: 'fc_'.padEnd(60, '3') } };
      dressed[2].content[0].output.providerOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };
      assert.equal(estimateTokens(dressed), estimateTokens(plain));
      assert.equal(serialize(dressed), serialize(plain));
      assert.ok(!serialize(dressed).includes('EqQB'));
    });

    test('a file part without data or media type is a problem at its part, not a silent price', () => {
      const { problems } = validate(user([{ type: 'text', text: 'see attached' }, { type: 'file', filename: 'a.pdf', mediaType: 'application/pdf' },
        { type: 'file', data: 'JVBERi0xLjcK' }]), { format: 'ai-sdk' });
      assert.deepStrictEqual(problems.map((p) => [p.code, p.index, p.part]), [['bad-content', 0, 1], ['bad-content', 0, 2]]);
      assert.match(problems[0].message, /file part without its data/);
      assert.match(problems[1].message, /mediaType/);
    });

    test('bad input names the part: a throwing getter inside a file part', async () => {
      const part = { type: 'file', mediaType: 'application/pdf', get data() { throw new Error('stream already consumed'); } };
      assert.throws(() => estimateTokens(user([part])), (e) => e.code === 'invalid-input' && e.path === 'input[0].content[0]');
    });
  });
}

describe('ai 7: bytes beside a cleared result survive the session state', { skip: skipReason(VERSIONS[1]) || false }, () => {
  test('a screenshot kept by excludeTools, in the message of a cleared read, comes back as data the SDK accepts, call after call', async () => {
    const { ai } = await load(VERSIONS[1]);
    const { Compactor, digestSummarizer, compactHistory, SessionState } = await import('../../js/hosts/node.js');
    const png = pngBytes(30000);
    const config = 'server:\n  port: 8080\n  host: 0.0.0.0\n'.repeat(700);
    const history = [{ role: 'user', content: 'Check the login page and the config.' }];
    for (let i = 0; i < 4; i++) {
      history.push({ role: 'assistant', content: [
        { type: 'tool-call', toolCallId: `shot_${i}`, toolName: 'screenshot', input: { url: 'http://localhost:5173/login' } },
        { type: 'tool-call', toolCallId: `read_${i}`, toolName: 'read_file', input: { path: `deploy/config.${i}.yml` } }] },
      { role: 'tool', content: [
        { type: 'tool-result', toolCallId: `shot_${i}`, toolName: 'screenshot', output: { type: 'content', value: [
          { type: 'text', text: 'Screenshot of http://localhost:5173/login' },
          { type: 'file', data: { type: 'data', data: png }, mediaType: 'image/png' }] } },
        { type: 'tool-result', toolCallId: `read_${i}`, toolName: 'read_file', output: { type: 'text', value: config } }] });
    }
    history.push({ role: 'user', content: 'So, what is wrong?' });
    const compactor = new Compactor({ summarize: digestSummarizer(), format: 'ai-sdk', threshold: 100_000, microTrigger: 5_000,
      clearAtLeast: 5_000, keepRecent: 1, excludeTools: ['screenshot'] });
    const state = new SessionState();
    const first = await compactHistory(compactor, history, { state });
    assert.ok(first.report.micro.cleared >= 3, 'the old reads are cleared');
    const later = [...history, { role: 'assistant', content: 'The login form posts to the wrong port.' }, { role: 'user', content: 'Fix it.' }];
    const second = await compactHistory(compactor, later, { state });
    assert.ok(second.report.session.matched > 0, 'the second call continues the first');
    for (const { messages } of [first, second]) {
      assert.ok(ai.modelMessageSchema.array().safeParse(messages).success);
      const shot = messages[2].content[0].output.value[1].data.data;
      const bytes = typeof shot === 'string' ? Buffer.from(shot, 'base64') : shot;
      assert.ok(bytes instanceof Uint8Array && Buffer.compare(Buffer.from(bytes), Buffer.from(png)) === 0, 'the same bytes (as bytes or base64)');
      assert.match(messages[2].content[1].output.value, /^\[truncated: read_file result, \d+ chars\]$/);
    }
  });
});
