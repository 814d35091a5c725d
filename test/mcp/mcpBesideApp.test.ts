import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ResourceListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { tempDir } from '../helpers/shared';
import { untilIndexed } from '../helpers/untilIndexed';

/*
 * `quire mcp --data-dir <the app's folder>` started beside the app, as Claude Desktop does: a real core
 * as the writer (watching, indexing, as the app runs it) and a real `quire mcp` process on the same
 * data folder, driven by the SDK's stdio client. The reader follows what the writer adds, and leaves
 * the writer's folders as they are when it ends.
 */

const cli = resolve('packages/cli/quire.mjs');
let dir: { path: string; cleanup: () => Promise<void> } | undefined;
let writer: Core | undefined;
afterEach(async () => {
  await writer?.dispose();
  writer = undefined;
  await dir?.cleanup();
  dir = undefined;
});

function textOf(result: unknown): string {
  return (result as CallToolResult).content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

async function folderWith(name: string, file: string, text: string): Promise<string> {
  const folder = join(dir!.path, name);
  await mkdir(folder);
  await writeFile(join(folder, file), text);
  return folder;
}

async function savedFolders(dataDir: string): Promise<string[]> {
  const saved = JSON.parse(await readFile(join(dataDir, 'library.json'), 'utf8')) as {
    roots: Array<{ path: string }>;
  };
  return saved.roots.map((root) => root.path).sort();
}

describe('quire mcp beside the app, on the app’s own data folder', () => {
  it('finds what the app indexed after it started, and leaves the app’s folders intact when it ends', async () => {
    dir = await tempDir('quire-mcp-beside-');
    const dataDir = join(dir.path, 'data');
    const pumps = await folderWith('pumps', 'pump.txt', "The Zephyr-9 pump's maximum pressure is 42 bar.\n");
    writer = createCore({
      dataDir,
      watch: true,
      findModels: false,
      detectServers: false,
      embedInBackground: false,
      ocr: false,
      renderImages: false,
      workers: 1,
    });
    await writer.start();
    await writer.library.addFolder(pumps);
    await untilIndexed(writer);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--data-dir', dataDir],
      stderr: 'pipe',
      env: { ...process.env, QUIRE_SERVERS: '' } as Record<string, string>,
    });
    const mcp = new Client({ name: 'quire-test-beside-app', version: '1.0.0' });
    let listChanges = 0;
    mcp.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanges += 1;
    });
    await mcp.connect(transport);
    const search = async (query: string) =>
      textOf(await mcp.callTool({ name: 'search', arguments: { query, mode: 'bm25' } }));
    let closed = false;
    try {
      expect(await search('Zephyr')).toContain(join(pumps, 'pump.txt'));

      // The app adds a folder and indexes it (and tidies its index, as it does once idle).
      const jams = await folderWith('jams', 'quince.txt', 'Quince marmalade sets at 104 degrees Celsius.\n');
      await writer.library.addFolder(jams);
      await untilIndexed(writer);
      // Told without asking: the reader follows the writer between requests too.
      const deadline = Date.now() + 60_000;
      while (listChanges === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(listChanges).toBeGreaterThan(0);

      const found = await search('marmalade');
      expect(found).toContain(join(jams, 'quince.txt'));
      expect(found).not.toMatch(/Cannot read properties/);
      const listed = textOf(await mcp.callTool({ name: 'library', arguments: {} }));
      expect(listed).toContain(jams);
      expect(await search('Zephyr')).toContain(join(pumps, 'pump.txt'));

      const before = await stat(join(dataDir, 'library.json'));
      await mcp.close();
      closed = true;
      // The process has exited once the transport closed; it wrote nothing on its way out.
      const after = await stat(join(dataDir, 'library.json'));
      expect(after.mtimeMs).toBe(before.mtimeMs);
      expect(await savedFolders(dataDir)).toEqual([jams, pumps].sort());
      expect(
        writer.library
          .snapshot()
          .roots.map((root) => root.path)
          .sort(),
      ).toEqual([jams, pumps].sort());
    } finally {
      if (!closed) await mcp.close();
    }
  }, 300_000);

  it('on a data folder with no library yet, says so and creates nothing', async () => {
    dir = await tempDir('quire-mcp-empty-');
    const dataDir = join(dir.path, 'data');
    await mkdir(dataDir);
    const child = spawn(process.execPath, [cli, 'mcp', '--data-dir', dataDir], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, QUIRE_SERVERS: '' },
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    // No client will speak: an MCP server that did start ends when its input closes.
    child.stdin.end();
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code).not.toBe(0);
    expect(stderr).toContain(`There is no Quire library in ${dataDir} yet`);
    expect(stdout).toBe('');
    expect(await readdir(dataDir)).toEqual([]);
  }, 120_000);
});
