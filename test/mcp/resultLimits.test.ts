import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { registerLibraryResources, RESOURCES_PER_PAGE } from '../../src/core/mcp/libraryResources';
import type { LibraryCore } from '../../src/core/mcp/libraryAccess';
import { fitLines } from '../../src/core/mcp/toolResults';
import type { DocumentInfo } from '../../src/shared/domain/library';

/* The size limits of MCP results: long lists are cut with a note, resource listings come in pages. */

describe('fitLines', () => {
  it('keeps what fits and says how many were cut', () => {
    const items = Array.from({ length: 100 }, (_, i) => `item ${i} ${'x'.repeat(90)}`);
    const { kept, text, cut } = fitLines(items, (item) => item, 1000);
    expect(kept.length).toBeLessThan(100);
    expect(cut).toBe(100 - kept.length);
    expect(text).toContain(`(cut: ${cut} more not shown`);
    expect(fitLines(items.slice(0, 3), (item) => item, 1000).cut).toBe(0);
  });

  it('keeps one item even when it alone is over the budget', () => {
    expect(fitLines(['y'.repeat(50)], (item) => item, 10).kept).toHaveLength(1);
  });
});

describe('resource listing', () => {
  it('lists every document and page across pages of a cursor', async () => {
    const documents = Array.from({ length: 150 }, (_, i): DocumentInfo => ({
      id: `doc_${i}`,
      rootId: 'root',
      path: `/library/file${i}.pdf`,
      relativePath: `file${i}.pdf`,
      kind: 'pdf',
      bytes: 1,
      modifiedMs: 0,
      pages: 2,
      state: 'indexed',
      error: null,
    }));
    // The listing reads only the library's snapshot.
    const core = {
      library: { snapshot: () => ({ roots: [], documents, skipped: [], scanning: false }) },
    } as unknown as LibraryCore;
    const server = new McpServer({ name: 'quire', version: 'test' });
    registerLibraryResources(server, core);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      expect(page.resources.length).toBeLessThanOrEqual(RESOURCES_PER_PAGE);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(uris).toHaveLength(450);
    expect(new Set(uris).size).toBe(450);
    expect(pages).toBe(Math.ceil(450 / RESOURCES_PER_PAGE));
    expect(uris[0]).toBe('quire://documents/doc_0');
    expect(uris[2]).toBe('quire://documents/doc_0/pages/2');
    await client.close();
  });
});
