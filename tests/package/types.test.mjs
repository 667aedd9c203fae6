// The published types, checked by the repository's pinned typescript:
// - tests/types/*.ts build arrays with the SDKs' own types (Anthropic, OpenAI Chat and Responses, the Agents
//   SDK, AI SDK 6 and 7 ModelMessage and UIMessage, LanguageModelV3/V4 prompts) and pass them without a cast,
//   under `--strict`, as a bundler user (moduleResolution bundler, DOM lib) and as a Node user (node16,
//   @types/node, no DOM lib) would; midfold is imported by its package name, so `exports` decides what loads;
// - refused.ts's `@ts-expect-error` lines each meet their own error;
// - every runtime export of every package.json `exports` entry is declared as a value by that entry's .d.ts,
//   and every value the .d.ts declares exists at run time.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TYPES = path.join(ROOT, 'tests/types');
const ts = createRequire(import.meta.url)('typescript');
const PKG = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** The tsconfig's files and options; skipLibCheck is turned off so midfold's own .d.ts files are checked too
 * (diagnostics are asked only for files outside node_modules, so the SDKs' .d.ts cost nothing extra). */
function config(name) {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } };
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(TYPES, name), {}, host);
  assert.deepEqual(parsed.errors, [], `${name} does not parse`);
  return { rootNames: parsed.fileNames, options: { ...parsed.options, skipLibCheck: false } };
}

function diagnostics(program) {
  const own = program.getSourceFiles().filter((f) => !f.fileName.includes(`${path.sep}node_modules${path.sep}`));
  return {
    files: own.map((f) => path.relative(ROOT, f.fileName)),
    list: [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(),
      ...own.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])],
  };
}

const format = (list) => ts.formatDiagnostics(list, {
  getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n',
});

for (const [name, who] of [['tsconfig.json', 'a bundler user'], ['tsconfig.node16.json', 'a Node user (node16, no DOM lib)']]) {
  test(`tsc --strict accepts the SDKs' own message arrays and refuses wrong ones, as ${who} has it`, () => {
    const { rootNames, options } = config(name);
    assert.equal(options.strict, true);
    const { files, list } = diagnostics(ts.createProgram({ rootNames, options }));
    // The package resolved through its own exports to the hand-written types.
    for (const f of ['js/index.d.ts', 'js/compaction/summarizers.d.ts', 'tests/types/anthropic.ts', 'tests/types/openai.ts',
      'tests/types/ai-sdk.ts', 'tests/types/mastra.ts', 'tests/types/refused.ts', 'tests/types/readme.ts', 'tests/types/langchain.ts', 'js/integrations/langchain.d.ts']) assert.ok(files.includes(f), `${f} is not in the program: ${files}`);
    assert.equal(list.length, 0, `tsc reports:\n${format(list)}`);
  });
}

test("each @ts-expect-error in refused.ts meets an error on its own line, and nothing else errs", () => {
  const file = path.join(TYPES, 'refused.ts');
  const source = readFileSync(file, 'utf8');
  const lines = source.split('\n');
  // Each directive line becomes a blank comment: the line after it must then be the only place errors appear.
  const expected = [];
  const stripped = lines.map((line, i) => {
    if (!/^\s*\/\/ @ts-expect-error/.test(line)) return line;
    expected.push(i + 1); // 0-based line of the statement the directive covers
    return line.replace('@ts-expect-error', 'expect-error');
  }).join('\n');
  assert.ok(expected.length >= 15, `only ${expected.length} refusals`);

  const { rootNames, options } = config('tsconfig.json');
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) => path.resolve(name) === file
    ? ts.createSourceFile(name, stripped, lang) : getSourceFile(name, lang, ...rest);
  const { list } = diagnostics(ts.createProgram({ rootNames, options, host }));
  const where = (d) => `${path.relative(ROOT, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line}`;
  assert.ok(list.every((d) => d.file), format(list));
  const elsewhere = list.filter((d) => path.resolve(d.file.fileName) !== file);
  assert.equal(elsewhere.length, 0, format(elsewhere));
  const hit = new Set(list.map((d) => d.file.getLineAndCharacterOfPosition(d.start).line));
  // A multi-line statement errs on one of its lines: accept an error up to the next directive.
  for (const [k, line] of expected.entries()) {
    const end = k + 1 < expected.length ? expected[k + 1] - 1 : lines.length;
    assert.ok([...hit].some((h) => h >= line && h < end), `refused.ts line ${line + 1} (${lines[line].trim()}) meets no error`);
  }
  assert.ok(list.every((d) => expected.some((line, k) => {
    const l = d.file.getLineAndCharacterOfPosition(d.start).line;
    return l >= line && l < (k + 1 < expected.length ? expected[k + 1] - 1 : lines.length);
  })), `errors outside the refused statements:\n${list.map(where).join('\n')}`);
});

test("the Compactor's policy is 'batched' or 'every-turn'; 'seed' still type-checks, through a type marked @deprecated", () => {
  const dts = path.join(ROOT, 'js/index.d.ts');
  const program = ts.createProgram({ rootNames: [dts], options: { strict: true, noEmit: true, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], types: [] } });
  const source = program.getSourceFile(dts);
  const checker = program.getTypeChecker();
  const declaration = (name) => source.statements.find((s) => s.name && s.name.text === name);
  const seed = declaration('SeedPolicyName');
  assert.ok(seed, 'index.d.ts declares SeedPolicyName');
  assert.deepEqual(ts.getJSDocTags(seed).map((t) => t.tagName.text), ['deprecated']);
  assert.match(ts.getTextOfJSDocComment(ts.getJSDocTags(seed)[0].comment) ?? '', /'every-turn'/);
  const options = checker.getTypeAtLocation(declaration('CompactorOptions').name);
  const policy = checker.getTypeOfSymbol(options.getProperty('policy'));
  const names = checker.getNonNullableType(policy).types.map((t) => t.value).sort();
  assert.deepEqual(names, ['batched', 'every-turn', 'seed']);
});

test("tests/types/readme.ts is docs/types.md's snippet as written, plus the two names it assumes", () => {
  const page = readFileSync(path.join(ROOT, 'docs/types.md'), 'utf8');
  const snippet = /```ts\n([\s\S]*?)\n```/.exec(page)[1];
  const assumed = /^(\/\/ |declare function loadConversation\(|const archive: )/;
  const file = readFileSync(path.join(TYPES, 'readme.ts'), 'utf8').split('\n').filter((l) => !assumed.test(l)).join('\n');
  const squeeze = (text) => text.replace(/\n{2,}/g, '\n\n').trim();
  assert.equal(squeeze(file), squeeze(snippet));
});

// ---- runtime exports against declared values ----------------------------------------------------------

/** Value names a .d.ts exports (functions, classes, consts; re-exports followed), sorted. */
function declaredValues(dts) {
  const program = ts.createProgram({ rootNames: [dts], options: { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], types: [] } });
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(dts));
  assert.ok(symbol, `${dts} is not a module`);
  return checker.getExportsOfModule(symbol)
    .filter((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      // `export type { SomeClass }` names a value that the module does not export at run time.
      const typeOnly = (s.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d));
      return (target.flags & ts.SymbolFlags.Value) !== 0 && !typeOnly;
    })
    .map((s) => s.name).sort();
}

// workerd.js imports the .wasm as workerd does (a compiled WebAssembly.Module as the default export): this
// hook gives Node the same module, so the entry loads here and its real namespace can be read.
const WASM_HOOKS = `
export function load(url, context, nextLoad) {
  if (!url.endsWith('.wasm')) return nextLoad(url, context);
  return { format: 'module', shortCircuit: true, source:
    "import { readFileSync } from 'node:fs'; export default new WebAssembly.Module(readFileSync(new URL(" + JSON.stringify(url) + ')));' };
}`;
let hooked = false;
async function wasmAsModule() {
  if (hooked) return;
  hooked = true;
  const hooksURL = `data:text/javascript,${encodeURIComponent(WASM_HOOKS)}`;
  if (module.registerHooks) module.registerHooks(await import(hooksURL));
  else module.register(hooksURL);
}

/** Every JS file an `exports` entry can load, by condition, with the entry's .d.ts. */
function entries() {
  const out = [];
  for (const [key, target] of Object.entries(PKG.exports)) {
    if (typeof target === 'string') {
      if (target.endsWith('.js') || target.endsWith('.mjs')) out.push({ key, condition: 'default', file: target, types: null });
      continue; // the .wasm itself and package.json carry no JS API
    }
    for (const [condition, file] of Object.entries(target)) {
      if (condition !== 'types') out.push({ key, condition, file, types: target.types ?? null });
    }
  }
  return out;
}

test('package.json exports: every JS entry has a .d.ts declaring exactly its runtime exports', async () => {
  const all = entries();
  assert.ok(all.some((e) => e.key === '.' && e.condition === 'workerd'), 'the workerd entry is checked too');
  await wasmAsModule();
  for (const { key, condition, file, types } of all) {
    assert.ok(types, `exports["${key}"] (${condition}: ${file}) has no "types"`);
    const runtime = Object.keys(await import(pathToFileURL(path.join(ROOT, file)).href)).filter((n) => n !== 'default').sort();
    const declared = declaredValues(path.join(ROOT, types));
    assert.deepEqual(
      { untyped: runtime.filter((n) => !declared.includes(n)), missing: declared.filter((n) => !runtime.includes(n)) },
      { untyped: [], missing: [] },
      `exports["${key}"] ${condition} (${file}) against ${types}`);
    assert.ok(runtime.length > 0, file);
  }
});
