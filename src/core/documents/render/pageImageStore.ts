import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebpOptions } from 'sharp';
import { writeFileAtomic } from '../../common/atomicFile';
import { configureSharp, loadSharp } from '../../common/sharp';
import { QuireError } from '../../../shared/errors';
import type { StoredFiles } from '../../common/storedFiles';
import type { PageImageRef } from '../types';
import type { PageRasters, RasterPage } from './raster';
import { isDiskFull } from '../../common/diskSpace';

configureSharp((sharp) => {
  // Each page is encoded once: libvips's operation cache would only hold on to memory (pages are large).
  sharp.cache(false);
  // The document pool already runs one encode per core; libvips threads on top of that only contend.
  sharp.concurrency(1);
});

const FULL_QUALITY = 80;
const THUMBNAIL_QUALITY = 70;
// libwebp's default effort (4) took longer than drawing the page; effort 0 is 3x faster for about 17% more bytes.
const FULL_EFFORT = 0;

/**
 * Page images addressed by content: `<root>/<hash[0:2]>/<hash>/p<page>-<longEdge>.webp` (and
 * `-thumb.webp`). A renamed or copied file has the same hash, so it reuses its images.
 */
export class PageImageStore {
  /**
   * @param root the local folder of page images (in a shared library: the writer's copy, a reader's cache)
   * @param shared a shared library's copy, which every write goes to and a missing local file comes from
   */
  constructor(
    readonly root: string,
    private shared: StoredFiles | null = null,
  ) {}

  /** Keeps page images in a shared library from now on (set when the library opens). */
  shareThrough(files: StoredFiles | null): void {
    this.shared = files;
  }

  /** Copies images drawn by the document workers (written to the local root) to the shared library. */
  async publish(refs: readonly PageImageRef[]): Promise<void> {
    const shared = this.shared;
    if (!shared) return;
    // One batch's pages go up together: each upload is a round trip to the store.
    await Promise.all(
      refs
        .flatMap((ref) => [ref.full, ref.thumbnail])
        .map(async (path) => shared.upload(path, new Uint8Array(await readFile(this.absolutePath(path))))),
    );
  }

  /** A stored image's bytes: the local file, or the shared library's copy (then cached locally). */
  async read(relativePath: string): Promise<Uint8Array> {
    await this.fetchMissing(relativePath);
    return new Uint8Array(await readFile(this.absolutePath(relativePath)));
  }

  private async fetchMissing(relativePath: string): Promise<void> {
    if (!this.shared) return;
    const exists = await stat(this.absolutePath(relativePath)).then(
      () => true,
      () => false,
    );
    if (exists) return;
    const bytes = await this.shared.download(relativePath);
    if (bytes) await writeFileAtomic(this.absolutePath(relativePath), bytes);
  }

  /** Paths of a page's images, relative to the root. */
  relativePaths(contentHash: string, page: number, longEdge: number): { full: string; thumbnail: string } {
    if (!/^[0-9a-f]{16,}$/i.test(contentHash))
      throw new QuireError('invalid_input', `Not a content hash: ${contentHash}`);
    const dir = join(contentHash.slice(0, 2).toLowerCase(), contentHash.toLowerCase());
    return {
      full: join(dir, `p${page}-${longEdge}.webp`),
      thumbnail: join(dir, `p${page}-${longEdge}-thumb.webp`),
    };
  }

  absolutePath(relativePath: string): string {
    return join(this.root, relativePath);
  }

  /** The stored images of a page, or null when either is missing. */
  async get(contentHash: string, page: number, longEdge: number): Promise<PageImageRef | null> {
    const paths = this.relativePaths(contentHash, page, longEdge);
    try {
      await this.fetchMissing(paths.thumbnail);
      await this.fetchMissing(paths.full);
      await stat(this.absolutePath(paths.thumbnail));
      const { width, height } = await loadSharp()(this.absolutePath(paths.full)).metadata();
      if (!width || !height) return null;
      return { page, ...paths, width, height };
    } catch {
      return null;
    }
  }

  /** Encodes a drawn page and its thumbnail as WebP and writes both atomically. */
  async put(
    contentHash: string,
    page: number,
    longEdge: number,
    rasters: PageRasters,
  ): Promise<PageImageRef> {
    const paths = this.relativePaths(contentHash, page, longEdge);
    const [full, thumbnail] = await Promise.all([
      encodeWebp(rasters.full, { quality: FULL_QUALITY, effort: FULL_EFFORT }),
      encodeWebp(rasters.thumbnail, { quality: THUMBNAIL_QUALITY }),
    ]);
    try {
      await writeFileAtomic(this.absolutePath(paths.full), full);
      await writeFileAtomic(this.absolutePath(paths.thumbnail), thumbnail);
      await this.shared?.upload(paths.full, full);
      await this.shared?.upload(paths.thumbnail, thumbnail);
    } catch (error) {
      throw storeWriteError(error);
    }
    return { page, ...paths, width: rasters.full.width, height: rasters.full.height };
  }

  /** Deletes every image of one document. */
  async remove(contentHash: string): Promise<void> {
    const dir = join(this.root, contentHash.slice(0, 2).toLowerCase(), contentHash.toLowerCase());
    if (!/^[0-9a-f]{16,}$/i.test(contentHash))
      throw new QuireError('invalid_input', `Not a content hash: ${contentHash}`);
    await rm(dir, { recursive: true, force: true });
    await this.shared?.removeFolder(join(contentHash.slice(0, 2).toLowerCase(), contentHash.toLowerCase()));
  }
}

function encodeWebp(raster: RasterPage, options: WebpOptions): Promise<Buffer> {
  const { pixels, channels, width, height } = raster;
  const image = loadSharp()(pixels, { raw: { width, height, channels } });
  // A fourth channel is white's opacity: dropping it shrinks the encode.
  return (channels === 4 ? image.removeAlpha() : image).webp(options).toBuffer();
}

function storeWriteError(error: unknown): QuireError {
  if (error instanceof QuireError) return error;
  if (isDiskFull(error)) return new QuireError('disk_full', 'The disk is full: page images cannot be saved.');
  return new QuireError(
    'not_readable',
    `Page images cannot be saved: ${error instanceof Error ? error.message : String(error)}`,
  );
}
