import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPageImage } from '../../src/core/pages/readPageImage';
import type { PageImage } from '../../src/shared/domain/search';
import { ownPageOrigins, pageImageResponder, type PageImageRequest } from '../../src/main/pageImageRequests';
import { indexedLibrary, type IndexedLibrary } from '../helpers/indexedLibrary';

/*
 * The checks behind the desktop app's quire-page: scheme, run on the handler Electron calls (its
 * request, with the origin of the page that asked) over the real page-image service and a real
 * indexed corpus PDF. Electron itself cannot start here (its binary cannot be fetched).
 */

let library: IndexedLibrary;
let respond: (request: PageImageRequest) => Promise<Response>;

beforeAll(async () => {
  library = await indexedLibrary();
  respond = pageImageResponder(async ({ documentId, page, size, version }) => {
    const opened = await openPageImage(library.core, documentId, page, size, version);
    return { bytes: opened.bytes, contentType: opened.contentType, version: opened.image.version };
  }, ownPageOrigins());
}, 300_000);

afterAll(() => library?.dispose());

const fromOurPage = (url: string, method = 'GET'): PageImageRequest => ({
  url,
  method,
  initiatorOrigin: 'file://',
});

describe('the quire-page: scheme', () => {
  it('serves a real page image to our own page', async () => {
    const page = await library.core.dispatch('pages.get', {
      documentId: library.document.id,
      page: 1,
      size: 'full',
    });
    if (!page.ok) throw new Error(page.error.message);
    const url = `quire-page://image/${library.document.id}/1/full?v=${(page.value as PageImage).version}`;
    const response = await respond(fromOurPage(url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    const { format, width, height } = await sharp(bytes).metadata();
    expect(format).toBe('webp');
    expect(Math.max(width!, height!)).toBe(800);
    // An opaque file: origin (how Chromium may report a file page) is our page too.
    const opaque = await respond({ ...fromOurPage(url), initiatorOrigin: 'null' });
    expect(opaque.status).toBe(200);
  });

  it('answers no other page, and no request the browser started itself', async () => {
    const url = `quire-page://image/${library.document.id}/1/full`;
    for (const initiatorOrigin of [
      undefined,
      'https://evil.example',
      'http://localhost:5173',
      'quire-page://image',
    ]) {
      const response = await respond({ url, method: 'GET', initiatorOrigin });
      expect(response.status, String(initiatorOrigin)).toBe(403);
      expect(response.headers.get('content-type'), String(initiatorOrigin)).not.toBe('image/webp');
    }
    // In development only the dev server's exact origin is ours.
    const dev = pageImageResponder(async () => {
      throw new Error('must not be reached');
    }, ownPageOrigins('http://localhost:5173'));
    for (const initiatorOrigin of ['file://', 'null', 'http://localhost:51730', 'http://127.0.0.1:5173']) {
      expect((await dev({ url, method: 'GET', initiatorOrigin })).status, initiatorOrigin).toBe(403);
    }
  });

  it('refuses addresses that are not exactly a page image', async () => {
    const id = library.document.id;
    for (const url of [
      'quire-page://image/../../../etc/passwd',
      `quire-page://image/..%2F..%2Fetc%2Fpasswd/1/full`,
      `quire-page://image/${id}%2F..%2F..%2Fdata/1/full`,
      `quire-page://image/${id}/1/..%2Ffull`,
      `quire-page://image/${id}/1/full/extra`,
      `quire-page://image/${id}/0/full`,
      `quire-page://image/${id}/1.5/full`,
      `quire-page://image/${id}/1000000000/full`,
      `quire-page://image/${id}/1/original`,
      `quire-page://image/${id}/1/full?v=../x`,
      `quire-page://image/${id}/1/full?file=/etc/passwd`,
      `quire-page://other/${id}/1/full`,
      `quire-page://image/${id}/1/full?v=aaaaaaaa?v=bbbbbbbb`,
    ]) {
      const response = await respond(fromOurPage(url));
      expect(response.status, url).toBe(400);
    }
  });

  it('refuses documents and pages the library does not hold', async () => {
    for (const url of [
      'quire-page://image/doc_00000000000000000000/1/full',
      `quire-page://image/${library.document.rootId}/1/full`,
      `quire-page://image/${library.document.id}/15/full`,
      // Past its 14 pages, however far: the document's own page count bounds the page.
      `quire-page://image/${library.document.id}/100001/full`,
    ]) {
      const response = await respond(fromOurPage(url));
      expect(response.status, url).toBe(404);
    }
  });

  it('only reads', async () => {
    const url = `quire-page://image/${library.document.id}/1/full`;
    expect((await respond(fromOurPage(url, 'POST'))).status).toBe(405);
    const head = await respond(fromOurPage(url, 'HEAD'));
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('a document that leaves the library', () => {
  it('is not served any more, even at an address handed out before', { timeout: 90_000 }, async () => {
    const page = await library.core.dispatch('pages.get', {
      documentId: library.document.id,
      page: 2,
      size: 'thumbnail',
    });
    if (!page.ok) throw new Error(page.error.message);
    const url = `quire-page://image/${library.document.id}/2/thumbnail?v=${(page.value as PageImage).version}`;
    expect((await respond(fromOurPage(url))).status).toBe(200);
    await library.core.library.removeFolder(library.document.rootId);
    // The index lets go of the document's record once ingestion has removed it.
    const deadline = Date.now() + 60_000;
    while (library.core.index.documents.get(library.document.id) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(library.core.index.documents.get(library.document.id)).toBeFalsy();
    expect((await respond(fromOurPage(url))).status).toBe(404);
    const unversioned = `quire-page://image/${library.document.id}/2/thumbnail`;
    expect((await respond(fromOurPage(unversioned))).status).toBe(404);
  });
});

describe('the desktop CSP', () => {
  it('lets images come from the page itself and the quire-page: scheme, nothing else', () => {
    const src = join(import.meta.dirname, '..', '..', 'src');
    const html = readFileSync(join(src, 'renderer', 'index.html'), 'utf8');
    const session = readFileSync(join(src, 'main', 'security.ts'), 'utf8');
    for (const [where, text] of [
      ['index.html', html],
      ['security.ts', session],
    ] as const) {
      const images = /img-src ([^;]*);/.exec(text)?.[1]?.trim();
      expect(images, where).toBe("'self' quire-page:");
    }
  });
});
