import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ResourceListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { createMcpHttpHandler } from '../../src/core/mcp/httpSessions';
import { createQuireMcpServer, type QuireMcpServer } from '../../src/core/mcp/quireMcpServer';
import { startLoopbackServer, type LoopbackServer } from '../../src/core/server/loopbackServer';
import { corpusDir, hasCorpus, tempDir } from '../helpers/shared';
import { untilIndexed } from '../helpers/untilIndexed';

/*
 * Quire as an MCP server, driven by the SDK's own Client (no client written here) against the real
 * core with two corpus PDFs and a text file indexed: in memory for every tool, over stdio through the
 * real `quire mcp` command, and over Streamable HTTP behind `quire serve`'s token and checks.
 */

const skipReason = hasCorpus ? '' : ` (skipped: no corpus at ${corpusDir})`;
if (!hasCorpus) console.log(`MCP server tests skipped: the corpus is not at ${corpusDir}`);

let dir: { path: string; cleanup: () => Promise<void> };
let folder: string;
let dataDir: string;
let core: Core;
let mcp: QuireMcpServer;
let client: Client;

function textOf(result: unknown): string {
  const { content } = result as CallToolResult;
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

describe.skipIf(!hasCorpus)(`quire as an MCP server${skipReason}`, () => {
  beforeAll(async () => {
    dir = await tempDir('quire-mcp-');
    folder = join(dir.path, 'library');
    dataDir = join(dir.path, 'data');
    await mkdir(folder);
    await copyFile(join(corpusDir, 'pdfjs', 'tracemonkey.pdf'), join(folder, 'tracemonkey.pdf'));
    await copyFile(join(corpusDir, 'unstructured', 'fake-memo.pdf'), join(folder, 'fake-memo.pdf'));
    await writeFile(
      join(folder, 'pump.txt'),
      "Maintenance record. The Zephyr-9 pump's maximum operating pressure is 42 bar.\n",
    );
    await writeFile(join(dir.path, 'secret.txt'), 'not for the library');
    core = createCore({
      dataDir,
      findModels: false,
      detectServers: false,
      embedInBackground: false,
      ocr: false,
      workers: 1,
      imageLongEdge: 800,
    });
    await core.start();
    await core.library.addFolder(folder);
    await untilIndexed(core);
    const states = core.library.snapshot().documents.map((d) => d.state);
    expect(states).toEqual(['indexed', 'indexed', 'indexed']);
    mcp = createQuireMcpServer(core, 'test');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    client = new Client({ name: 'quire-test', version: '1.0.0' });
    await client.connect(clientSide);
  }, 300_000);

  afterAll(async () => {
    await client?.close();
    await mcp?.dispose();
    await core?.dispose();
    await dir?.cleanup();
  });

  it('lists the five tools, all but ask read-only, each with a description and an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ask',
      'find_documents',
      'library',
      'read_page',
      'search',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'ask');
    }
  });

  it('search finds the text file, as text and as structured content', async () => {
    const result = await call('search', { query: 'Zephyr pump pressure', k: 5 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('pump.txt p.1');
    const hits = (result.structuredContent as { hits: { path: string; page: number; score: number }[] }).hits;
    expect(hits[0]).toMatchObject({ path: join(folder, 'pump.txt'), page: 1 });
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it('search within a folder outside the library is refused with a tool error', async () => {
    const result = await call('search', { query: 'trace', in: [dir.path] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/outside the library/);
  });

  it('find_documents lists every document with the term, its match count and first page', async () => {
    const result = await call('find_documents', { term: 'trace' });
    expect(result.isError).toBeFalsy();
    const docs = (
      result.structuredContent as { documents: { path: string; matches: number; firstPage: number }[] }
    ).documents;
    const trace = docs.find((d) => d.path.endsWith('tracemonkey.pdf'));
    expect(trace?.matches).toBeGreaterThan(10);
    expect(trace?.firstPage).toBeGreaterThanOrEqual(1);
    expect(docs.some((d) => d.path.endsWith('pump.txt'))).toBe(false);
  });

  it('read_page gives the page text and its image, and a PNG of a region', async () => {
    const path = join(folder, 'tracemonkey.pdf');
    const result = await call('read_page', { path, page: 1 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/Trace-based Just-in-Time/);
    const image = result.content.find((part) => part.type === 'image');
    expect(image?.mimeType).toMatch(/^image\//);
    expect(image?.data.length).toBeGreaterThan(1000);
    const region = await call('read_page', {
      path,
      page: 1,
      region: { x: 0, y: 0, width: 300, height: 120 },
    });
    const crop = region.content.find((part) => part.type === 'image');
    expect(crop?.mimeType).toBe('image/png');
    expect(Buffer.from(crop!.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('read_page refuses paths outside the library, by name, by .. and by a page that is not there', async () => {
    for (const path of ['/etc/passwd', join(dir.path, 'secret.txt'), join(folder, '..', 'secret.txt')]) {
      const result = await call('read_page', { path, page: 1 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/outside the library/);
      expect(textOf(result)).not.toContain('not for the library');
    }
    const beyond = await call('read_page', { path: join(folder, 'tracemonkey.pdf'), page: 99 });
    expect(beyond.isError).toBe(true);
    expect(textOf(beyond)).toMatch(/14 pages/);
  });

  it('library lists folders, documents with type, pages, state and OCR, and collections', async () => {
    await core.dispatch('collections.create', { name: 'Papers' });
    const result = await call('library', {});
    expect(result.isError).toBeFalsy();
    const listing = result.structuredContent as {
      folders: { path: string }[];
      documents: { path: string; type: string; pages: number; state: string; modified: string }[];
      collections: { name: string }[];
    };
    expect(listing.folders.map((f) => f.path)).toEqual([folder]);
    expect(listing.documents.find((d) => d.path.endsWith('tracemonkey.pdf'))).toMatchObject({
      type: 'pdf',
      pages: 14,
      state: 'indexed',
    });
    expect(listing.collections.map((c) => c.name)).toEqual(['Papers']);
  });

  it('ask with no model configured is a tool error that says so, not a crash', async () => {
    const result = await call('ask', {
      question: 'What is the maximum operating pressure of the Zephyr-9 pump?',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no language model/);
    // The server still answers afterwards.
    expect((await call('search', { query: 'Zephyr' })).isError).toBeFalsy();
  });

  it('lists each document and page as a quire:// resource and reads a page as text and image', async () => {
    const { resources, nextCursor } = await client.listResources();
    expect(nextCursor).toBeUndefined();
    // 3 documents and 16 pages.
    expect(resources).toHaveLength(19);
    const page = resources.find((r) => r.name === 'tracemonkey.pdf p.1');
    expect(page?.uri).toMatch(/^quire:\/\/documents\/.+\/pages\/1$/);
    const read = await client.readResource({ uri: page!.uri });
    expect(read.contents.some((c) => 'text' in c && /Trace-based/.test(c.text))).toBe(true);
    expect(read.contents.some((c) => 'blob' in c && c.mimeType?.startsWith('image/'))).toBe(true);
    await expect(client.listResources({ cursor: 'not-a-cursor' })).rejects.toThrow();
  });

  it('over stdio, `quire mcp` keeps stdout to protocol frames and serves a search', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [resolve('packages/cli/quire.mjs'), 'mcp', '--data-dir', dataDir],
      stderr: 'pipe',
      env: { ...process.env, QUIRE_SERVERS: '' } as Record<string, string>,
    });
    const stdio = new Client({ name: 'quire-test-stdio', version: '1.0.0' });
    await stdio.connect(transport);
    try {
      const result = (await stdio.callTool({
        name: 'search',
        arguments: { query: 'Zephyr' },
      })) as CallToolResult;
      expect(textOf(result)).toContain('pump.txt');
    } finally {
      await stdio.close();
    }
  }, 120_000);

  describe('over Streamable HTTP behind quire serve', () => {
    let server: LoopbackServer;
    let mcpUrl: URL;
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const post = (url: string | URL, body: string, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });

    beforeAll(async () => {
      const staticDir = join(dir.path, 'renderer');
      await mkdir(staticDir, { recursive: true });
      await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Quire</title>');
      server = await startLoopbackServer({
        core,
        staticDir,
        port: 0,
        mcp: createMcpHttpHandler(core, 'test'),
        log: () => undefined,
      });
      mcpUrl = new URL(server.mcpUrl!);
    });
    afterAll(async () => {
      await server?.dispose();
    });

    async function httpClient(url: URL, headers?: Record<string, string>): Promise<Client> {
      const http = new Client({ name: 'quire-test-http', version: '1.0.0' });
      await http.connect(new StreamableHTTPClientTransport(url, headers ? { requestInit: { headers } } : {}));
      return http;
    }

    it('answers 401 without the token and 403 to a foreign Origin or Host', async () => {
      const bare = new URL(mcpUrl);
      bare.search = '';
      expect((await post(bare, initialize)).status).toBe(401);
      expect((await post(bare, initialize, { Authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await post(mcpUrl, initialize, { Origin: 'http://evil.example' })).status).toBe(403);
      const rebound = new URL(mcpUrl);
      rebound.hostname = 'localhost.evil.example';
      const viaHost = await new Promise<number>((done, fail) => {
        import('node:http')
          .then(({ request }) => {
            const req = request(
              {
                host: '127.0.0.1',
                port: server.port,
                path: `${mcpUrl.pathname}${mcpUrl.search}`,
                method: 'POST',
                headers: { Host: rebound.host, 'Content-Type': 'application/json' },
              },
              (res) => done(res.statusCode ?? 0),
            );
            req.on('error', fail);
            req.end(initialize);
          })
          .catch(fail);
      });
      expect(viaHost).toBe(403);
    });

    it('serves the SDK client with the token in the address or as a bearer header', async () => {
      const viaQuery = await httpClient(mcpUrl);
      const bare = new URL(mcpUrl);
      bare.search = '';
      const viaBearer = await httpClient(bare, { Authorization: `Bearer ${server.token}` });
      try {
        for (const http of [viaQuery, viaBearer]) {
          const result = (await http.callTool({
            name: 'search',
            arguments: { query: 'Zephyr' },
          })) as CallToolResult;
          expect(textOf(result)).toContain('pump.txt');
        }
      } finally {
        await viaQuery.close();
        await viaBearer.close();
      }
    });

    it('answers malformed, oversized and prototype-key frames with errors and keeps serving', async () => {
      const http = await httpClient(mcpUrl);
      try {
        expect((await post(mcpUrl, '{"jsonrpc": "2.0", "id": 1, "meth')).status).toBe(400);
        expect((await post(mcpUrl, JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }))).status).toBe(413);
        expect((await post(mcpUrl, '{"jsonrpc":"2.0","id":2,"method":"tools/list"}')).status).toBe(400);
        const hostile = await http.callTool({
          name: 'search',
          arguments: JSON.parse(
            '{"query": "Zephyr", "__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
          ) as Record<string, unknown>,
        });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(textOf(hostile)).toBeTruthy();
        const result = (await http.callTool({
          name: 'find_documents',
          arguments: { term: 'trace' },
        })) as CallToolResult;
        expect(textOf(result)).toContain('tracemonkey.pdf');
      } finally {
        await http.close();
      }
    });

    it('closes the least recently used session when too many are open', async () => {
      const small = await startLoopbackServer({
        core,
        staticDir: join(dir.path, 'renderer'),
        port: 0,
        mcp: createMcpHttpHandler(core, 'test', { maxSessions: 2 }),
        log: () => undefined,
      });
      const url = new URL(small.mcpUrl!);
      const [first, second] = [await httpClient(url), await httpClient(url)];
      await second!.ping();
      const third = await httpClient(url);
      try {
        await expect(first!.ping()).rejects.toThrow();
        await second!.ping();
        await third.ping();
      } finally {
        await Promise.all([first, second, third].map((c) => c!.close()));
        await small.dispose();
      }
    });

    it('serves 50 sessions at once', async () => {
      const clients = await Promise.all(Array.from({ length: 50 }, () => httpClient(mcpUrl)));
      try {
        const results = await Promise.all(
          clients.map(
            (c) => c.callTool({ name: 'search', arguments: { query: 'pump' } }) as Promise<CallToolResult>,
          ),
        );
        for (const result of results) expect(textOf(result)).toContain('pump.txt');
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
    }, 120_000);
  });

  it('tells the client the resource list changed when a document is added', async () => {
    let told = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      told += 1;
    });
    const more = join(dir.path, 'more');
    await mkdir(more);
    await writeFile(join(more, 'valve.txt'), 'The Zephyr-9 relief valve opens at 45 bar.\n');
    await core.library.addFolder(more);
    await untilIndexed(core);
    await vi.waitFor(() => expect(told).toBeGreaterThan(0), { timeout: 10_000 });
    const { resources } = await client.listResources();
    expect(resources.some((r) => r.name === 'valve.txt')).toBe(true);
  });
});
