import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { createQuireMcpServer, type QuireMcpServer } from '../../src/core/mcp/quireMcpServer';
import { tempDir } from '../helpers/shared';
import { startOllamaStandIn, type OllamaStandIn } from '../standins/ollamaStandIn';
import { scriptedReplies } from '../standins/scriptedAgent';
import { untilIndexed } from '../helpers/untilIndexed';

/*
 * The ask tool with the real agent on a real core and index, its model a stand-in server speaking
 * Ollama's wire format that plays a script: the steps arrive as progress notifications, the result
 * carries the status, the answer and the cited pages, and the client's cancel stops the run.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let ollama: OllamaStandIn;
let core: Core;
let mcp: QuireMcpServer;
let client: Client;

beforeAll(async () => {
  dir = await tempDir('quire-mcp-ask-');
  ollama = await startOllamaStandIn([{ name: 'qwen3:8b', capabilities: ['completion'] }]);
  const folder = join(dir.path, 'library');
  await mkdir(folder);
  await writeFile(
    join(folder, 'pump.txt'),
    "Maintenance record. The Zephyr-9 pump's maximum operating pressure is 42 bar.\n",
  );
  core = createCore({
    dataDir: join(dir.path, 'data'),
    detectServers: false,
    servers: [ollama.baseUrl],
    renderImages: false,
    ocr: false,
    workers: 1,
  });
  await core.start();
  await core.library.addFolder(folder);
  await untilIndexed(core);
  mcp = createQuireMcpServer(core, 'test');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(serverSide);
  client = new Client({ name: 'quire-test', version: '1.0.0' });
  await client.connect(clientSide);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await mcp?.dispose();
  await core?.dispose();
  await ollama?.close();
  await dir?.cleanup();
});

function textOfResult(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

describe('ask over MCP', () => {
  it('reports steps as progress and returns the status, the answer and its citations', async () => {
    const reply = scriptedReplies(
      [
        {
          tool: 'text_search',
          inputs: { query: 'Zephyr-9 maximum operating pressure', k: '5', mode: 'bm25' },
        },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: {}, end: true },
      ],
      "The Zephyr-9 pump's maximum operating pressure is 42 bar [1].",
    );
    ollama.behaviour = { reply: (body) => reply(body.format) };
    const progress: Progress[] = [];
    const result = (await client.callTool(
      {
        name: 'ask',
        arguments: { question: 'What is the maximum operating pressure of the Zephyr-9 pump?' },
      },
      undefined,
      { onprogress: (step) => progress.push(step), timeout: 120_000 },
    )) as CallToolResult;
    const outcome = result.structuredContent as {
      status: string;
      answer: string;
      citations: { path: string; page: number; passage: string }[];
    };
    expect(result.isError).toBeFalsy();
    expect(outcome.status).toBe('answered');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((p) => p.message).join('\n')).toMatch(/text_search/);
    expect(outcome.answer).toMatch(/42 bar/);
    expect(outcome.citations[0]).toMatchObject({ page: 1 });
    expect(outcome.citations[0]!.path).toMatch(/pump\.txt$/);
    expect(outcome.citations[0]!.passage).toMatch(/42 bar/);
    expect(textOfResult(result)).toMatch(/^Status: answered/);
    console.log(`ask over MCP with a scripted model: ${outcome.status}, ${progress.length} progress steps`);
  }, 120_000);

  it('stops the run when the client cancels the call', async () => {
    // The model's first words come, then it stalls far longer than the test.
    ollama.behaviour = {
      reply: () => ['{"tool": "text_search", ', '"inputs": {}}'],
      delayBetweenPiecesMs: 60_000,
    };
    const hangUpsBefore = ollama.clientHangUps;
    const chatsBefore = ollama.chatBodies().length;
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'ask', arguments: { question: 'What is the maximum operating pressure?' } },
      undefined,
      { signal: controller.signal, timeout: 120_000 },
    );
    while (ollama.chatBodies().length === chatsBefore) await new Promise((r) => setTimeout(r, 20));
    controller.abort('the user stopped it');
    await expect(call).rejects.toThrow();
    // The server side hears the cancel and the agent hangs up on the model.
    const started = Date.now();
    while (ollama.clientHangUps === hangUpsBefore && Date.now() - started < 10_000)
      await new Promise((r) => setTimeout(r, 20));
    expect(ollama.clientHangUps).toBeGreaterThan(hangUpsBefore);
  }, 120_000);
});
