import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { isInside } from '../common/paths';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * Serves a file of the renderer build. A file counts only if its real path (links followed) lies in
 * the build folder's real path; paths that climb out or links that lead out are refused, and an
 * unknown path gets index.html (the app routes itself).
 */
export async function serveStatic(root: string, urlPath: string, response: ServerResponse): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad request: malformed %-escape');
    return;
  }
  if (decoded.includes('\0')) {
    response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad request');
    return;
  }
  const realRoot = await realpath(root);
  const relativePath = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^[/\\]+/, '');
  const file = join(realRoot, relativePath);
  if (!isInside(file, realRoot)) {
    response.writeHead(403).end('Forbidden');
    return;
  }
  const real = await realpath(file).catch(() => null);
  if (real !== null && !isInside(real, realRoot)) {
    response.writeHead(403).end('Forbidden');
    return;
  }
  const info = real === null ? null : await stat(real).catch(() => null);
  const target = real !== null && info?.isFile() ? real : join(realRoot, 'index.html');
  const type = contentTypes[extname(target)] ?? 'application/octet-stream';
  response.writeHead(200, {
    'Content-Type': type,
    'Cache-Control': target.endsWith('.html') ? 'no-store' : 'max-age=3600',
  });
  createReadStream(target)
    .on('error', () => response.destroy())
    .pipe(response);
}
