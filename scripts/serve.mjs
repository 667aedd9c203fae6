#!/usr/bin/env node
// Serves the demo page on 127.0.0.1 — only web-demo/, js/, wasm/ and docs/ (which the page
// links to) of this repository, read-only, with exact MIME types (application/wasm for
// streaming compilation) and a strict Content-Security-Policy (no 'unsafe-eval', no inline
// scripts or styles).
//
//   node scripts/serve.mjs [--port N]     N = 0 picks a free port (default 8765)
//
// Prints one line, "midfold demo: http://127.0.0.1:PORT/web-demo/", once it listens.
// Also usable from code: `const { url, close } = await startServer({ port: 0 })`.

import http from 'node:http';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVED = ['web-demo', 'js', 'wasm', 'docs'];
const HOST = '127.0.0.1';

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
  + "connect-src 'self' http://127.0.0.1:* http://localhost:* https:; style-src 'self'; img-src 'self' data:";

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-store',
};

function send(res, status, body, headers = {}) {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

/** The file a URL path names, or null when it is outside the served folders. */
async function resolveFile(urlPath) {
  let rel;
  try { rel = decodeURIComponent(urlPath); } catch { return null; }
  if (rel.includes('\0')) return null;
  const parts = rel.split('/').filter(Boolean);
  if (parts.length === 0 || !SERVED.includes(parts[0]) || parts.some((p) => p === '..' || p === '.')) return null;
  let file = path.join(ROOT, ...parts);
  let info;
  try { info = await stat(file); } catch { return null; }
  if (info.isDirectory()) {
    file = path.join(file, 'index.html');
    try { info = await stat(file); } catch { return null; }
  }
  if (!info.isFile()) return null;
  // No escaping through symbolic links either.
  const real = await realpath(file);
  const top = await realpath(path.join(ROOT, parts[0]));
  if (real !== top && !real.startsWith(top + path.sep)) return null;
  return { file, size: info.size };
}

async function handle(req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'method not allowed\n', { allow: 'GET, HEAD' });
    return;
  }
  const { pathname } = new URL(req.url, `http://${HOST}`);
  if (pathname === '/' || pathname === '/web-demo') {
    send(res, 302, '', { location: '/web-demo/' });
    return;
  }
  const found = await resolveFile(pathname);
  if (!found) {
    send(res, 404, 'not found\n');
    return;
  }
  // A directory without a trailing slash would break the page's relative URLs.
  if (found.file.endsWith(`${path.sep}index.html`) && !pathname.endsWith('/') && !pathname.endsWith('.html')) {
    send(res, 302, '', { location: `${pathname}/` });
    return;
  }
  const type = MIME[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': found.size });
  if (req.method === 'HEAD') { res.end(); return; }
  createReadStream(found.file).on('error', () => res.destroy()).pipe(res);
}

/**
 * Starts the server on 127.0.0.1.
 * @param {{ port?: number }} [options] port 0 picks a free one
 * @returns {Promise<{ url: string, port: number, server: http.Server, close: () => Promise<void> }>}
 */
export function startServer({ port = 8765 } = {}) {
  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => { if (!res.headersSent) send(res, 500, 'internal error\n'); else res.destroy(); });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      const actual = server.address().port;
      resolve({
        url: `http://${HOST}:${actual}/web-demo/`,
        port: actual,
        server,
        close: () => new Promise((done) => { server.closeAllConnections?.(); server.close(() => done()); }),
      });
    });
  });
}

function parsePort(argv) {
  const i = argv.findIndex((a) => a === '--port' || a.startsWith('--port='));
  if (i < 0 && !process.env.PORT) return 8765;
  const value = i < 0 ? process.env.PORT : argv[i].includes('=') ? argv[i].slice(7) : argv[i + 1];
  const port = /^\d{1,5}$/.test(value ?? '') ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    console.error(`serve: the port must be a number from 0 to 65535, got ${JSON.stringify(value ?? '')}`);
    process.exit(2);
  }
  return port;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log('usage: node scripts/serve.mjs [--port N]   (serves the demo on 127.0.0.1; N=0 picks a free port)');
    process.exit(0);
  }
  startServer({ port: parsePort(argv) }).then(({ url, close }) => {
    console.log(`midfold demo: ${url}`);
    console.log('(open it in a browser; Ctrl-C stops the server)');
    const stop = () => close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }, (error) => {
    console.error(`serve: cannot listen on ${HOST}: ${error.message}`);
    process.exit(1);
  });
}
