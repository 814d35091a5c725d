import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { PageImageRef } from '../../src/core/documents/types';
import type { PageInput } from '../../src/core/models/types';
import { Index } from '../../src/core/index/openIndex';
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

describe('Index page images drawn after the text', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: Index;
  const hash = sha256('drawn later');

  beforeEach(async () => {
    dir = await tempDir('quire-index-');
    store = await Index.open({ uri: dir.path, loadPageImage: async () => new Uint8Array([1]) });
    await store.content.put(hash, parsedFromPages(['first page about owls', 'second page about granite']));
    await store.documents.upsert(documentRow('doc', hash, { pages: 2 }));
  });

  afterEach(async () => {
    await store.dispose();
    await dir.cleanup();
  });

  it('attaches images page by page and reports what is still missing', async () => {
    expect(await store.content.contentMissingImages()).toEqual([hash]);
    await store.content.setPageImages(hash, [image(1)]);
    expect(await store.content.pagesWithoutImages(hash)).toBe(1);
    expect((await store.content.page('doc', 1)).image).toMatchObject({ full: 'ab/p1.webp', width: 800 });
    expect((await store.content.page('doc', 2)).image).toBeNull();
    await store.content.setPageImages(hash, [image(2)]);
    expect(await store.content.contentMissingImages()).toEqual([]);
    // Text search is untouched by the rewrite of the pages rows.
    expect((await store.search.chunks('granite', { k: 1 }))[0]).toMatchObject({ page: 2 });
  });

  it('embeds a page once, with its image, and again only when that image changes', async () => {
    const embedder = new ImageAwarePageEmbedder();
    await store.vectors.setEmbedders({ text: null, page: embedder });
    store.content.expectPageImages(hash);
    await store.vectors.embedPending();
    expect(embedder.seen).toEqual([]);

    await store.content.setPageImages(hash, [image(1), image(2)]);
    store.content.pageImagesSettled(hash);
    await store.vectors.embedPending();
    expect(embedder.seen.map((page) => page.withImage)).toEqual([true, true]);

    await store.content.setPageImages(hash, [image(1), image(2, 'p2-redrawn')]);
    await store.vectors.embedPending();
    expect(embedder.seen).toHaveLength(3);
    expect(embedder.seen[2]).toEqual({ text: 'second page about granite', withImage: true });
  });
});
