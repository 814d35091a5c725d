import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, posix, sep } from 'node:path';
import { FIRST_ROWS_ELEMENT_ID } from '../../shared/ipc/firstRows';
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

/** A build is a few hundred kilobytes; a folder far larger was named by mistake. */
const MOST_BUILD_BYTES = 64 * 1024 * 1024;

interface BuildFile {
  body: Buffer;
  type: string;
}

/**
 * The renderer build, read into memory when the server starts. The window's first requests then
 * never wait behind the engine's own file work (a start-up scan of ten thousand files fills Node's
 * file threads), and the build cannot change under a running server. Only files whose real path lies
 * in the build's real folder are held; a link that leads out of it is refused.
 */
export class RendererBuild {
  private constructor(
    private readonly files: ReadonlyMap<string, BuildFile>,
    private readonly refused: ReadonlySet<string>,
    /** index.html, cut where the first rows go (before `</body>`). */
    private readonly page: { head: string; tail: string },
  ) {}

  static async load(folder: string): Promise<RendererBuild> {
    const root = await realpath(folder).catch(() => {
      throw new Error(`The UI is not built (${folder} is missing): run \`npm run build\` first.`);
    });
    const files = new Map<string, BuildFile>();
    const refused = new Set<string>();
    let bytes = 0;
    for (const name of await readdir(root, { recursive: true })) {
      const path = join(root, name);
      const real = await realpath(path).catch(() => null);
      const urlPath = `/${name.split(sep).join('/')}`;
      if (real === null || !isInside(real, root)) {
        refused.add(urlPath);
        continue;
      }
      if (!(await stat(real)).isFile()) continue;
      const body = await readFile(real);
      bytes += body.length;
      if (bytes > MOST_BUILD_BYTES) throw new Error(`${folder} is too large to be the UI build.`);
      files.set(urlPath, { body, type: contentTypes[extname(real)] ?? 'application/octet-stream' });
    }
    const html = files.get('/index.html')?.body.toString('utf8');
    if (html === undefined) throw new Error(`The UI build in ${folder} has no index.html.`);
    const cut = html.lastIndexOf('</body>');
    const page = cut < 0 ? { head: html, tail: '' } : { head: html.slice(0, cut), tail: html.slice(cut) };
    return new RendererBuild(files, refused, page);
  }

  /**
   * Answers a GET for a file of the build. The page itself (`/`, `/index.html`, and any path the
   * build does not hold, since the app routes itself) goes out in two parts: its head at once, so the
   * browser starts fetching the scripts, then the first rows once `firstRows` has them.
   */
  async serve(urlPath: string, response: ServerResponse, firstRows: () => Promise<unknown>): Promise<void> {
    const path = decodedPath(urlPath);
    if (path === null) {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad request');
      return;
    }
    if (this.refused.has(path)) {
      response.writeHead(403).end('Forbidden');
      return;
    }
    const file = path === '/index.html' ? undefined : this.files.get(path);
    if (file) {
      response.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'max-age=3600' }).end(file.body);
      return;
    }
    response.writeHead(200, { 'Content-Type': contentTypes['.html']!, 'Cache-Control': 'no-store' });
    response.write(this.page.head);
    // The head leaves before the rows are listed: listing takes the event loop for a few milliseconds.
    await new Promise((resolve) => setImmediate(resolve));
    const rows = await firstRows().catch(() => null);
    if (rows !== null && !response.destroyed) response.write(jsonBlock(rows));
    response.end(this.page.tail);
  }
}

/** The URL path as a path of the build, or null for a malformed %-escape or a NUL. */
function decodedPath(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  // Only looked up in the files held, never opened: climbing stops at the root (`/../x` is `/x`).
  const inside = posix.normalize(`/${decoded}`);
  return inside === '/' ? '/index.html' : inside;
}

/**
 * A JSON block the page's script reads; never run. `<` is escaped, so no file or folder name (a
 * folder named `x</script>` is allowed) can close the block and start markup of its own.
 */
function jsonBlock(value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${FIRST_ROWS_ELEMENT_ID}">${json}</script>`;
}
