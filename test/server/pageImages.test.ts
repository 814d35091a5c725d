import { request as httpRequest } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startLoopbackServer, type LoopbackServer } from '../../src/core/server/loopbackServer';
import type { PageImage } from '../../src/shared/domain/search';
import { indexedLibrary, type IndexedLibrary } from '../helpers/indexedLibrary';

/*
 * `quire serve`'s page-image route against the real core with a real corpus PDF indexed: the token
 * (as the cookie the page load sets), the address checks, and the image itself.
 */

let library: IndexedLibrary;
let server: LoopbackServer;

beforeAll(async () => {
  library = await indexedLibrary();
  const staticDir = join(library.outside, 'renderer');
  await mkdir(staticDir);
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Quire</title>');
  server = await startLoopbackServer({ core: library.core, staticDir, port: 0 });
}, 300_000);

afterAll(async () => {
  await server?.dispose();
  await library?.dispose();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with the path sent exactly as given (fetch would normalise it). */
function send(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: server.port, path, method, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** The cookie a browser keeps after opening the URL quire serve printed. */
async function pageCookie(): Promise<string> {
  const page = await send(`/?token=${server.token}`);
  expect(page.status).toBe(200);
  return String(page.headers['set-cookie']).split(';')[0]!;
}

/** pages.get over the WebSocket, as the browser UI asks. */
async function pagesGet(input: unknown): Promise<{ ok: boolean; value?: PageImage }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, {
    origin: `http://127.0.0.1:${server.port}`,
  });
  try {
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return await new Promise((resolve) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as {
          type: string;
          result: { ok: boolean; value?: PageImage };
        };
        if (frame.type === 'result') resolve(frame.result);
      });
      ws.send(JSON.stringify({ type: 'call', id: 1, name: 'pages.get', input }));
    });
  } finally {
    ws.terminate();
  }
}

describe('the page-image route of quire serve', () => {
  it('answers pages.get with an address, not the image', async () => {
    const result = await pagesGet({ documentId: library.document.id, page: 2, size: 'full' });
    expect(result.ok).toBe(true);
    expect(result.value).toMatchObject({ documentId: library.document.id, page: 2, size: 'full' });
    expect(result.value!.version).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(result.value)).not.toContain('base64');
  });

  it('serves a real page image to the page that holds the token cookie', async () => {
    const { value } = await pagesGet({ documentId: library.document.id, page: 3, size: 'full' });
    const cookie = await pageCookie();
    const path = `/page-images/${library.document.id}/3/full?v=${value!.version}`;
    const reply = await send(path, { Cookie: cookie });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('image/webp');
    expect(reply.headers['content-length']).toBe(String(reply.body.length));
    expect(reply.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    const { width, height, format } = await sharp(reply.body).metadata();
    expect(format).toBe('webp');
    expect(Math.max(width!, height!)).toBe(800);
    // The page is a portrait Letter page: the image keeps its proportions.
    expect(height! / width!).toBeCloseTo(value!.pageHeight / value!.pageWidth, 1);

    const thumbnail = await send(`/page-images/${library.document.id}/3/thumbnail`, { Cookie: cookie });
    expect(thumbnail.status).toBe(200);
    expect((await sharp(thumbnail.body).metadata()).width).toBeLessThan(width!);
    // Without the current version the address may change meaning: the browser must ask again.
    expect(thumbnail.headers['cache-control']).toBe('private, no-cache');

    const head = await send(path, { Cookie: cookie }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('refuses a missing or wrong token with 401', async () => {
    const path = `/page-images/${library.document.id}/1/full`;
    expect((await send(path)).status).toBe(401);
    const wrong = `quire_token_${server.port}=${'x'.repeat(server.token.length)}`;
    expect((await send(path, { Cookie: wrong })).status).toBe(401);
    expect((await send(`${path}?token=nope`)).status).toBe(401);
    const otherPort = `quire_token_${server.port + 1}=${server.token}`;
    expect((await send(path, { Cookie: otherPort })).status).toBe(401);
  });

  it('refuses addresses that are not exactly a page image with 400', async () => {
    const cookie = await pageCookie();
    const id = library.document.id;
    for (const path of [
      `/page-images/..%2F..%2F..%2Fetc%2Fpasswd/1/full`,
      `/page-images/${id}%2F..%2F..%2Fdata/1/full`,
      `/page-images/${id}/1/..%2Ffull`,
      `/page-images/${id}/1/full/extra`,
      `/page-images/${id}/0/full`,
      `/page-images/${id}/01/full`,
      `/page-images/${id}/1000000000/full`,
      `/page-images/${id}/1/huge`,
      `/page-images/${id}/1/full?v=../../x`,
      `/page-images/${id}/1/full?path=/etc/passwd`,
      `/page-images/${id}`,
    ]) {
      const reply = await send(path, { Cookie: cookie });
      expect(reply.status, path).toBe(400);
      expect(reply.headers['content-type'], path).not.toBe('image/webp');
    }
  });

  it('refuses documents and pages the library does not hold with 404', async () => {
    const cookie = await pageCookie();
    for (const path of [
      '/page-images/doc_00000000000000000000/1/full',
      `/page-images/${library.document.rootId}/1/full`,
      `/page-images/${library.document.id}/15/full`,
      // Past its 14 pages, however far: the document's own page count bounds the page.
      `/page-images/${library.document.id}/100001/full`,
    ]) {
      const reply = await send(path, { Cookie: cookie });
      expect(reply.status, path).toBe(404);
      expect(reply.body.toString()).not.toMatch(/data\/pages|\.webp/);
    }
    // A dot-dot segment, plain or escaped, is resolved by the URL before routing: the request leaves
    // the route and gets the UI's page, never a file from the image store or beyond.
    for (const path of ['/page-images/../../../etc/passwd', '/page-images/%2e%2e/%2e%2e/etc/passwd']) {
      const climbed = await send(path, { Cookie: cookie });
      expect(climbed.headers['content-type'], path).not.toBe('image/webp');
      expect(climbed.body.toString(), path).not.toContain('root:');
    }
  });

  it('only reads and serves: other methods are refused', async () => {
    const cookie = await pageCookie();
    const reply = await send(`/page-images/${library.document.id}/1/full`, { Cookie: cookie }, 'DELETE');
    expect(reply.status).toBe(405);
  });

  it('allows images only from its own origin in its CSP', async () => {
    const page = await send(`/?token=${server.token}`);
    const csp = String(page.headers['content-security-policy']);
    expect(/img-src ([^;]*)/.exec(csp)?.[1]).toBe("'self'");
  });
});
