// Runs `wrangler dev --local` (the installed devDependency) for tests, on 127.0.0.1 only, with no account and
// nothing sent anywhere: metrics and the banner's update check are off, request.cf is not fetched, Wrangler's
// config folder (where a login would live) is a fresh temp dir, and no Cloudflare credential is passed on.
//
//   const dev = await startWranglerDev({ config: 'web-demo/edge/wrangler.jsonc', envFile, vars: { UPSTREAM_URL } });
//   fetch(`${dev.url}/v1/chat/completions`, ...)
//   await dev.stop();
//
// The port is chosen by wrangler (--port 0) and read from its "Ready on" line; the server is then polled until
// it answers a request, since "Ready" is printed before the first request can be served on a loaded machine.
// wrangler runs in its own process group (it starts workerd and esbuild), and stop() ends the whole group.

import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { ROOT } from './workerd.mjs';

export const WRANGLER = path.join(ROOT, 'node_modules/.bin/wrangler');

/** The environment wrangler runs with: the host's PATH, a temp home, and every network-bound feature off. */
function quietEnv(home) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_HIDE_BANNER: 'true', // the banner asks the npm registry for a newer version
    CLOUDFLARE_CF_FETCH_ENABLED: 'false', // request.cf would be fetched from Cloudflare
    NO_COLOR: '1',
    CI: '1',
  };
}

/**
 * Runs `wrangler ARGS` to the end (e.g. `deploy --dry-run`) with the same environment as startWranglerDev.
 * @returns {Promise<{ code: number | null, output: string }>}
 */
export async function runWrangler(args, { cwd = ROOT, timeoutMs = 120000 } = {}) {
  const home = await mkdtemp(path.join(os.tmpdir(), 'midfold-wrangler-home-'));
  const child = spawn(process.execPath, [WRANGLER, ...args], { cwd, env: quietEnv(home), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d) => { output += d; });
  child.stderr.setEncoding('utf8').on('data', (d) => { output += d; });
  const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, timeoutMs);
  const code = await new Promise((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}

/**
 * Starts `wrangler dev --local` for `config` and resolves once it answers HTTP.
 * @param {{ config: string, envFile?: string, vars?: Record<string, string>, persistTo?: string, timeoutMs?: number }} options
 *   `envFile` holds the secrets (the .dev.vars format: NAME=value lines); `vars` are passed as --var; state is kept
 *   in `persistTo` (a temp dir by default), so a second server given the same folder reads what the first stored.
 * @returns {Promise<{ url: string, output(): string, stop(): Promise<void> }>}
 */
export async function startWranglerDev({ config, envFile, vars = {}, persistTo, timeoutMs = 180000 }) {
  const home = await mkdtemp(path.join(os.tmpdir(), 'midfold-wrangler-home-'));
  const args = [WRANGLER, 'dev', '--config', config, '--local', '--ip', '127.0.0.1', '--port', '0',
    '--inspector-ip', '127.0.0.1', '--inspector-port', '0', '--show-interactive-dev-session=false',
    '--persist-to', persistTo ?? path.join(home, 'state')];
  if (envFile) args.push('--env-file', envFile);
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  const child = spawn(process.execPath, args, { cwd: ROOT, env: quietEnv(home), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d) => { output += d; });
  child.stderr.setEncoding('utf8').on('data', (d) => { output += d; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let done = false;
  exited.then(() => { done = true; });

  const killGroup = (signal) => { try { process.kill(-child.pid, signal); } catch { /* already gone */ } };
  const stop = async () => {
    if (!done) {
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    killGroup('SIGKILL'); // workerd, should it outlive wrangler
  };

  const deadline = Date.now() + timeoutMs;
  let url = null;
  while (Date.now() < deadline && !done) {
    url ??= output.match(/Ready on (http:\/\/127\.0\.0\.1:\d+)/)?.[1] ?? null;
    if (url) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        return { url, output: () => output, stop };
      } catch { /* not serving yet */ }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`wrangler dev ${done ? 'exited' : `did not answer within ${timeoutMs} ms`}:\n${output}`);
}
