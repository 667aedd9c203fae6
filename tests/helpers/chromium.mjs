// Test helpers for the browser suite: Debian's Chromium driven by playwright-core, and the
// demo server (scripts/serve.mjs) started as a child process on an ephemeral 127.0.0.1 port.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM_PATH = process.env.MIDFOLD_CHROMIUM || '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Throws a clear error (never skips) when the browser or the driver is missing. */
export async function launchChromium({ viewport = { width: 1360, height: 900 }, hasTouch = false } = {}) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: the browser tests need Debian's chromium package. `
      + 'Run scripts/install-deps.sh as root (it runs apt-get install --no-install-recommends chromium).');
  }
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (error) {
    throw new Error(`playwright-core is not installed (${error.message}); run scripts/install-deps.sh (npm ci).`);
  }
  const profile = await mkdtemp(path.join(tmpdir(), 'midfold-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH, headless: true, args: ARGS, viewport, deviceScaleFactor: 1, hasTouch,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Starts scripts/serve.mjs on a free 127.0.0.1 port; resolves once it prints its URL. */
export function startDemoServer() {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), '--port', '0'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill(); reject(new Error(`serve.mjs did not start: ${output}`)); }, 10000);
    const onData = (chunk) => {
      output += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+\/web-demo\/)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        url: match[1],
        origin: new URL(match[1]).origin,
        close: () => new Promise((done) => {
          if (child.exitCode !== null) { done(); return; }
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk) => { output += chunk; });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`serve.mjs exited with ${code}: ${output}`)); });
  });
}
