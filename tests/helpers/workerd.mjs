// Runs real workerd (the npm `workerd` package's binary) for tests, on 127.0.0.1 only.
//
//   const wd = await startWorkerd({ config: '/tmp/x/config.capnp', env: { UPSTREAM_URL } });
//   fetch(wd.url('http') + '/v1/chat/completions', ...)
//   await wd.stop();
//
// Sockets may ask for port 0: workerd reports the port it bound on its control descriptor
// (--control-fd), so no port is guessed and none can be taken by another process meanwhile.
//
// midfoldModules() writes the capnp module list of the package's `workerd` entry (every
// module it reaches by static imports, the .wasm included), named as they are in the
// package, so a worker's `import ... from 'midfold'` resolves as it would with a bundler.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

/** The workerd binary and the newest compatibility date it supports. */
export function workerdBinary() {
  const wd = require('workerd');
  return { bin: wd.default, compatibilityDate: wd.compatibilityDate, version: wd.version };
}

/** Relative import specifiers of a JS file (static `import`/`export ... from` only). */
function staticImports(source) {
  const found = [];
  const re = /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (let m; (m = re.exec(source));) found.push(m[1] ?? m[2]);
  return found;
}

/**
 * The files the `workerd` entry needs, as paths relative to the repository root, found
 * by following its relative static imports: [{file, kind: 'js' | 'wasm'}].
 */
export function workerdEntryFiles(entry = 'js/hosts/workerd.js') {
  const seen = new Map();
  const visit = (rel) => {
    if (seen.has(rel)) return;
    const kind = rel.endsWith('.wasm') ? 'wasm' : 'js';
    seen.set(rel, kind);
    if (kind === 'wasm') return;
    for (const spec of staticImports(readFileSync(path.join(ROOT, rel), 'utf8'))) {
      if (!spec.startsWith('.')) throw new Error(`${rel} imports ${spec}: the workerd entry must only import its own files`);
      visit(path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec)));
    }
  };
  visit(entry);
  return [...seen].map(([file, kind]) => ({ file, kind }));
}

/**
 * The capnp module entries for the modules a worker's main file reaches by relative
 * static imports (e.g. web-demo/edge/auth.js from worker.js), named by their path from
 * the main file's folder, as workerd resolves `./auth.js` from `worker.js`. Bare
 * specifiers (`midfold`, `cloudflare:workers`) are left to other entries.
 */
export function localModules(mainFile, configDir) {
  const base = path.dirname(mainFile);
  const seen = new Set();
  const visit = (file) => {
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      if (seen.has(target)) continue;
      seen.add(target);
      visit(target);
    }
  };
  visit(mainFile);
  return [...seen].map((file) => `(name = ${capnpString(path.relative(base, file).split(path.sep).join('/'))}, esModule = embed ${capnpString(path.relative(configDir, file))})`);
}

/** capnp text: a string literal. */
export function capnpString(s) {
  return JSON.stringify(String(s));
}

/**
 * The capnp module entries for midfold's workerd entry, for a config written in
 * `configDir`: `midfold` (a one-line module re-exporting the entry), `midfold/js/*.js`,
 * `midfold/wasm/midfold.wasm`, and `midfold/midfold.wasm` (the package's wasm export).
 */
export function midfoldModules(configDir) {
  const embed = (rel) => `embed ${capnpString(path.relative(configDir, path.join(ROOT, rel)))}`;
  const lines = [`(name = "midfold", esModule = ${capnpString("export * from 'midfold/js/hosts/workerd.js';")})`];
  for (const { file, kind } of workerdEntryFiles()) {
    lines.push(`(name = ${capnpString(`midfold/${file}`)}, ${kind === 'wasm' ? 'wasm' : 'esModule'} = ${embed(file)})`);
  }
  lines.push(`(name = "midfold/midfold.wasm", wasm = ${embed('wasm/midfold.wasm')})`);
  return lines;
}

/** The compatibility date the tests' workers run at. */
export const COMPAT_DATE = '2025-09-01';

/**
 * The capnp text of a worker named `id` whose main module is `mainFile` (with the local modules it
 * imports and midfold's workerd entry), for a config written in `configDir`: `bindings` are
 * [name, text] pairs, `extraModules` more module entries. `sessions` adds the SESSIONS binding of
 * web-demo/edge's SessionStore: a Durable Object namespace kept in memory for the life of workerd
 * (true), or on the "session-disk" service's disk (`'disk'`), where a test can read what was stored.
 * Every worker's outbound traffic goes through the "loopback" service, which the config defines.
 */
export function workerConfig(id, mainFile, configDir, bindings = [], extraModules = [], { sessions = false } = {}) {
  const lines = [
    `(name = "worker.js", esModule = embed ${capnpString(path.relative(configDir, mainFile))})`,
    ...localModules(mainFile, configDir),
    ...midfoldModules(configDir),
    ...extraModules,
  ];
  const bound = bindings.map(([name, value]) => `(name = ${capnpString(name)}, text = ${capnpString(value)})`);
  if (sessions) bound.push('(name = "SESSIONS", durableObjectNamespace = "SessionStore")');
  const objects = sessions ? `
  durableObjectNamespaces = [(className = "SessionStore", uniqueKey = ${capnpString(`midfold-test-${id}`)})],
  durableObjectStorage = ${sessions === 'disk' ? '(localDisk = "session-disk")' : '(inMemory = void)'},` : '';
  return `const ${id} :Workerd.Worker = (
  compatibilityDate = ${capnpString(COMPAT_DATE)},
  modules = [
    ${lines.join(',\n    ')}
  ],
  bindings = [${bound.join(', ')}],${objects}
  globalOutbound = "loopback",
);
`;
}

/**
 * Starts `workerd serve CONFIG` and resolves once every socket in `sockets` (default:
 * those named in the config's `sockets` list) is listening.
 * @param {{ config: string, env?: Record<string,string>, args?: string[], sockets?: string[], timeoutMs?: number }} options
 * @returns {Promise<{ ports: Record<string, number>, pid: number, url(socket: string): string, stderr(): string, stdout(): string, stop(): Promise<void> }>}
 */
export async function startWorkerd({ config, env = {}, args = [], sockets, timeoutMs = 30000 }) {
  const { bin } = workerdBinary();
  const expected = sockets ?? [...readFileSync(config, 'utf8').matchAll(/\(\s*name\s*=\s*"([^"]+)"\s*,\s*address\s*=/g)].map((m) => m[1]);
  if (expected.length === 0) throw new Error(`startWorkerd: no sockets found in ${config}`);
  const child = spawn(bin, ['serve', config, '--control-fd=3', ...args], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const ports = {};
  await new Promise((resolve, reject) => {
    let buffered = '';
    let settled = false;
    const timer = setTimeout(() => fail(new Error(`workerd did not report its sockets within ${timeoutMs} ms`)), timeoutMs);
    function fail(error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      error.message += `\nworkerd stderr:\n${stderr}`;
      reject(error);
    }
    child.stdio[3].setEncoding('utf8').on('data', (d) => {
      buffered += d;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (!line) continue;
        let event;
        try { event = JSON.parse(line); } catch { continue; }
        if (event.event === 'listen') ports[event.socket] = event.port;
      }
      if (!settled && expected.every((s) => ports[s])) { settled = true; clearTimeout(timer); resolve(); }
    });
    child.once('error', fail);
    exited.then(({ code, signal }) => fail(new Error(`workerd exited early (code ${code}, signal ${signal})`)));
  });

  return {
    ports,
    pid: child.pid,
    url: (socket) => `http://127.0.0.1:${ports[socket]}`,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
