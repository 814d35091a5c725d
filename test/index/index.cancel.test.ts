import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import type { TextEmbedder } from '../../src/core/index/vectors/embedders';
import { tempDir } from '../helpers/shared';
import { documentRow, HashTextEmbedder, parsedFromPages, sha256 } from './helpers';

/** An embedder that embeds content normally but, once `stall` is set, never answers a query and ignores the signal. */
class StallingEmbedder extends HashTextEmbedder implements TextEmbedder {
  stall = false;
  override async embed(texts: string[]): Promise<Float32Array[]> {
    if (this.stall) return new Promise<Float32Array[]>(() => undefined);
    return super.embed(texts);
  }
}

describe('cancelling a search', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let index: Index;
  beforeEach(async () => {
    dir = await tempDir('quire-index-');
    index = await Index.open({ uri: dir.path });
  });
  afterEach(async () => {
    await index.dispose();
    await dir.cleanup();
  });

  it('rejects within 200 ms of the abort, even when the embedder ignores the signal', async () => {
    const hash = sha256('tides');
    await index.content.put(hash, parsedFromPages(['Tidal energy from ocean currents.']));
    await index.documents.upsert(documentRow('tides', hash));
    const embedder = new StallingEmbedder();
    await index.vectors.setEmbedders({ text: embedder, page: null });
    await index.vectors.embedPending();
    embedder.stall = true;

    const controller = new AbortController();
    const search = index.search.chunks('ocean currents', { mode: 'hybrid', signal: controller.signal });
    const outcome = search.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const result = await Promise.race([
      outcome,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 200)),
    ]);
    expect(result).toMatchObject({ name: 'AbortError' });
  });

  it('refuses to start once the signal has aborted', async () => {
    await expect(index.search.chunks('anything', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
