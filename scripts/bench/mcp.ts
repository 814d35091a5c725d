/**
 * `npm run bench -- mcp [--searches N]`: what MCP adds to a search. The same searches run directly on
 * the core (`search.retrieve`, as the CLI calls it), over stdio through a `quire mcp` process reading
 * the same index, and over Streamable HTTP behind the loopback server, with the SDK's own Client;
 * then 20 HTTP sessions search at once. Issue 42's targets: p95 overhead under 5 ms on stdio and
 * under 10 ms over HTTP, and no errors with 20 concurrent sessions.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createCore } from '../../src/core/createCore';
import { createMcpHttpHandler } from '../../src/core/mcp/httpSessions';
import { startLoopbackServer } from '../../src/core/server/loopbackServer';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { numberOption, percentile, type BenchReport } from './report';
import { untilIndexed } from '../../test/helpers/untilIndexed';

const QUERIES = ['trace tree', 'type specialization', 'loop', 'Zephyr pump', 'compiler', 'guard', 'memo'];
const SESSIONS = 20;

async function timed(n: number, search: (query: string) => Promise<void>): Promise<number[]> {
  // A few warm-up searches: the first ones open the index's tables.
  for (const query of QUERIES) await search(query);
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    await search(QUERIES[i % QUERIES.length]!);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

async function searchWith(client: Client, query: string): Promise<void> {
  const result = (await client.callTool({
    name: 'search',
    arguments: { query, k: 10, mode: 'bm25' },
  })) as CallToolResult;
  if (result.isError) throw new Error(`search failed: ${JSON.stringify(result.content)}`);
}

export async function run(args: string[]): Promise<BenchReport> {
  const searches = numberOption(args, '--searches', 200);
  const dir = await tempDir('quire-bench-mcp-');
  const folder = join(dir.path, 'library');
  const dataDir = join(dir.path, 'data');
  await mkdir(folder);
  await copyFile(join(corpusDir, 'pdfjs', 'tracemonkey.pdf'), join(folder, 'tracemonkey.pdf'));
  await copyFile(join(corpusDir, 'unstructured', 'fake-memo.pdf'), join(folder, 'fake-memo.pdf'));
  await writeFile(join(folder, 'pump.txt'), "The Zephyr-9 pump's maximum operating pressure is 42 bar.\n");
  const core = createCore({
    dataDir,
    findModels: false,
    detectServers: false,
    renderImages: false,
    ocr: false,
  });
  await core.start();
  await core.library.addFolder(folder);
  await untilIndexed(core);

  const direct = await timed(searches, async (query) => {
    const result = await core.dispatch('search.retrieve', { query, k: 10, mode: 'bm25' });
    if (!result.ok) throw new Error(result.error.message);
  });

  const stdio = new Client({ name: 'quire-bench', version: '1' });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [resolve('packages/cli/quire.mjs'), 'mcp', '--data-dir', dataDir],
      stderr: 'ignore',
    }),
  );
  const overStdio = await timed(searches, (query) => searchWith(stdio, query));
  await stdio.close();

  // The loopback server wants a UI build to serve; MCP needs none.
  const staticDir = join(dir.path, 'renderer');
  await mkdir(staticDir);
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Quire</title>');
  const server = await startLoopbackServer({
    core,
    staticDir,
    port: 0,
    mcp: createMcpHttpHandler(core, 'bench'),
    log: () => undefined,
  });
  const url = new URL(server.mcpUrl!);
  const connect = async () => {
    const client = new Client({ name: 'quire-bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  };
  const http = await connect();
  const overHttp = await timed(searches, (query) => searchWith(http, query));
  await http.close();

  const clients = await Promise.all(Array.from({ length: SESSIONS }, connect));
  let errors = 0;
  let done = 0;
  const concurrentStarted = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = 0; i < 10; i += 1) {
        await searchWith(client, QUERIES[(c + i) % QUERIES.length]!).then(
          () => (done += 1),
          () => (errors += 1),
        );
      }
    }),
  );
  const concurrentMs = performance.now() - concurrentStarted;
  await Promise.all(clients.map((client) => client.close()));
  await server.dispose();
  await core.dispose();
  await dir.cleanup();

  const row = (path: string, times: number[]) => ({
    path,
    searches: times.length,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    p95OverheadMs: percentile(times, 95) - percentile(direct, 95),
  });
  const rows = [
    row('direct (core)', direct),
    row('MCP over stdio', overStdio),
    row('MCP over HTTP', overHttp),
  ];
  const stdioOverhead = rows[1]!.p95OverheadMs;
  const httpOverhead = rows[2]!.p95OverheadMs;
  return {
    name: 'mcp',
    rows: [
      ...rows,
      {
        path: `${SESSIONS} HTTP sessions at once`,
        searches: done,
        p50Ms: null,
        p95Ms: null,
        p95OverheadMs: null,
      },
    ],
    targets: [
      {
        what: 'p95 overhead of search over stdio',
        target: '< 5 ms',
        measured: `${stdioOverhead.toFixed(2)} ms`,
        met: stdioOverhead < 5,
      },
      {
        what: 'p95 overhead of search over HTTP',
        target: '< 10 ms',
        measured: `${httpOverhead.toFixed(2)} ms`,
        met: httpOverhead < 10,
      },
      {
        what: `${SESSIONS} concurrent sessions searching`,
        target: 'no errors',
        measured: `${errors} errors in ${done + errors} searches (${concurrentMs.toFixed(0)} ms)`,
        met: errors === 0,
      },
    ],
  };
}
