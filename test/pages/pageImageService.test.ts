import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentPorts } from '../../src/core/agentPorts';
import { openPageImage } from '../../src/core/pages/readPageImage';
import { indexedLibrary, type IndexedLibrary } from '../helpers/indexedLibrary';

/* The viewer and the agent's vision tool get a page image the same way, from one service. */

let library: IndexedLibrary;
beforeAll(async () => {
  library = await indexedLibrary();
}, 300_000);
afterAll(() => library?.dispose());

describe('the one page-image service', () => {
  it('gives the agent the same page image the viewer is served', async () => {
    const ports = createAgentPorts(library.core, { chatModel: async () => null });
    const forAgent = await ports.pageImage(library.document.id, 3);
    const forViewer = await openPageImage(library.core, library.document.id, 3, 'full');
    expect(forAgent).not.toBeNull();
    expect(Buffer.from(forAgent!.image).equals(Buffer.from(forViewer.bytes))).toBe(true);
    expect(new TextDecoder().decode(forAgent!.image.slice(8, 12))).toBe('WEBP');
    expect(forAgent!.pageWidth).toBe(forViewer.image.pageWidth);
    expect(forAgent!.pageHeight).toBe(forViewer.image.pageHeight);
  });

  it('gives the agent nothing for a document or page the library does not hold', async () => {
    const ports = createAgentPorts(library.core, { chatModel: async () => null });
    expect(await ports.pageImage('doc_00000000000000000000', 1)).toBeNull();
    expect(await ports.pageImage(library.document.id, 99)).toBeNull();
  });
});
