import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { PageImageRef } from '../../src/core/documents/types';
import type { PageInput } from '../../src/core/models/types';
import { openIndexStore, type IndexStore } from '../../src/core/index/indexStore';
import { tempDir } from '../helpers/shared';
import { documentRow, HashPageEmbedder, parsedFromPages, sha256 } from './helpers';

/** Records, per page text, whether the embedder was given the page image. */
class ImageAwarePageEmbedder extends HashPageEmbedder {
  readonly seen: Array<{ text: string; withImage: boolean }> = [];
  override async embedPage(page: PageInput): Promise<Float32Array[] | null> {
    this.seen.push({ text: page.segments.join(' '), withImage: page.loadImage !== undefined });
    return super.embedPage(page);
  }
}

const image = (page: number, name = `p${page}`): PageImageRef => ({
  page,
  full: `ab/${name}.webp`,
  thumbnail: `ab/${name}-thumb.webp`,
  width: 800,
  height: 1000,
});

describe('IndexStore page images drawn after the text', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: IndexStore;
  const hash = sha256('drawn later');

  beforeEach(async () => {
    dir = await tempDir('quire-index-');
    store = await openIndexStore({ uri: dir.path, loadPageImage: async () => new Uint8Array([1]) });
    await store.putContent(hash, parsedFromPages(['first page about owls', 'second page about granite']));
    await store.upsertDocument(documentRow('doc', hash, { pages: 2 }));
  });

  afterEach(async () => {
    await store.close();
    await dir.cleanup();
  });

  it('attaches images page by page and reports what is still missing', async () => {
    expect(await store.contentMissingImages()).toEqual([hash]);
    await store.setPageImages(hash, [image(1)]);
    expect(await store.pagesWithoutImages(hash)).toBe(1);
    expect((await store.getPage('doc', 1)).image).toMatchObject({ full: 'ab/p1.webp', width: 800 });
    expect((await store.getPage('doc', 2)).image).toBeNull();
    await store.setPageImages(hash, [image(2)]);
    expect(await store.contentMissingImages()).toEqual([]);
    // Text search is untouched by the rewrite of the pages rows.
    expect((await store.searchChunks('granite', { k: 1 }))[0]).toMatchObject({ page: 2 });
  });

  it('embeds a page once, with its image, and again only when that image changes', async () => {
    const embedder = new ImageAwarePageEmbedder();
    await store.setEmbedders({ text: null, page: embedder });
    store.expectPageImages(hash);
    await store.embedPending();
    expect(embedder.seen).toEqual([]);

    await store.setPageImages(hash, [image(1), image(2)]);
    store.pageImagesSettled(hash);
    await store.embedPending();
    expect(embedder.seen.map((page) => page.withImage)).toEqual([true, true]);

    await store.setPageImages(hash, [image(1), image(2, 'p2-redrawn')]);
    await store.embedPending();
    expect(embedder.seen).toHaveLength(3);
    expect(embedder.seen[2]).toEqual({ text: 'second page about granite', withImage: true });
  });
});
