import { statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { appMcpSharing } from '../../src/core/mcp/appMcpSharing';
import { APP_MCP_TOKEN_FILE } from '../../src/core/mcp/mcpSharing';
import { withoutMcpSharing } from '../../src/core/mcpSharingPort';
import type { McpSharingStatus } from '../../src/shared/domain/mcpSharing';
import { quireRejection } from '../helpers/rejection';
import { tempDir } from '../helpers/shared';
import { untilIndexed } from '../helpers/untilIndexed';

/*
 * The desktop app's switch that lets other apps use the library: the real core with a text file
 * indexed, its setting turned on and off through the contract, and the SDK's own client over
 * Streamable HTTP against the listener it starts.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let folder: string;
let dataDir: string;
const cores: Core[] = [];

function appCore(port: number): Core {
  const core = createCore({
    dataDir,
    mcpSharing: appMcpSharing(port),
    findModels: false,
    detectServers: false,
    embedInBackground: false,
    ocr: false,
    workers: 1,
  });
  cores.push(core);
  return core;
}

async function setEnabled(core: Core, enabled: boolean): Promise<McpSharingStatus> {
  const result = await core.dispatch('mcpSharing.setEnabled', { enabled });
  if (!result.ok) throw new Error(result.error.message);
  return result.value as McpSharingStatus;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
});
const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: initialize,
  });

/** What a new connection to the address meets: 'ECONNREFUSED' once nothing listens, else 'connected'. */
function refusal(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

async function sdkClient(status: McpSharingStatus): Promise<Client> {
  const client = new Client({ name: 'quire-sharing-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(status.address!), {
      requestInit: { headers: { Authorization: `Bearer ${status.token}` } },
    }),
  );
  return client;
}

describe('letting other apps on this computer use the library (MCP over HTTP)', () => {
  beforeAll(async () => {
    dir = await tempDir('quire-mcp-sharing-');
    folder = join(dir.path, 'library');
    dataDir = join(dir.path, 'data');
    await mkdir(folder);
    await writeFile(
      join(folder, 'pump.txt'),
      "Maintenance record. The Zephyr-9 pump's maximum operating pressure is 42 bar.\n",
    );
  });
  afterAll(async () => {
    for (const core of cores) await core.dispose().catch(() => undefined);
    await dir?.cleanup();
  });

  it('is off by default, serves the SDK client with the token once on, and refuses connections once off', async () => {
    const core = appCore(0);
    await core.start();
    await core.library.addFolder(folder);
    await untilIndexed(core);
    expect(core.mcpSharing.status()).toMatchObject({
      enabled: false,
      address: null,
      token: null,
      error: null,
    });

    const on = await setEnabled(core, true);
    expect(on.error).toBeNull();
    expect(on.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(on.dataDir).toBe(dataDir);
    const tokenFile = join(dataDir, APP_MCP_TOKEN_FILE);
    expect((await readFile(tokenFile, 'utf8')).trim()).toBe(on.token);
    if (process.platform !== 'win32') expect(statSync(tokenFile).mode & 0o777).toBe(0o600);

    expect((await post(on.address!)).status).toBe(401);
    expect((await post(on.address!, { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(`${on.address}?token=${on.token}`, { Origin: 'http://evil.example' })).status).toBe(
      403,
    );
    expect((await fetch(on.address!.replace('/mcp', '/'))).status).toBe(404);

    const client = await sdkClient(on);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('search');
    const result = (await client.callTool({
      name: 'search',
      arguments: { query: 'Zephyr pressure' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('pump.txt');

    const off = await setEnabled(core, false);
    expect(off).toMatchObject({ enabled: false, address: null, token: null });
    expect(await refusal(on.address!)).toBe('ECONNREFUSED');
    await expect(client.listTools()).rejects.toThrow();
    await client.close();
    expect(JSON.parse(await readFile(join(dataDir, 'settings', 'mcp.json'), 'utf8'))).toEqual({
      enabled: false,
    });
  }, 120_000);

  it('keeps the setting and the token across a restart, and quitting closes the listener', async () => {
    const first = cores[0]!;
    const before = await setEnabled(first, true);
    await first.dispose();
    expect(await refusal(before.address!)).toBe('ECONNREFUSED');

    const again = appCore(0);
    await again.start();
    const status = again.mcpSharing.status();
    expect(status).toMatchObject({ enabled: true, token: before.token, error: null });
    const client = await sdkClient(status);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    await again.dispose();
    expect(await refusal(status.address!)).toBe('ECONNREFUSED');
  }, 120_000);

  it('says in one line that the port is in use, and the app answers calls as before', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const core = appCore(port);
      await core.start();
      const status = core.mcpSharing.status();
      expect(status).toMatchObject({ enabled: true, address: null, token: null });
      expect(status.error).toBe(
        `Port ${port} is already in use by another program: other apps cannot reach the library until it is free.`,
      );
      expect((await core.dispatch('library.list', {})).ok).toBe(true);
      const off = await setEnabled(core, false);
      expect(off.error).toBeNull();
      await core.dispose();
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  }, 120_000);

  it('refuses a malformed setting, and has no switch where there is no desktop app', async () => {
    const core = cores.at(-1)!;
    const bad = await core.dispatch('mcpSharing.setEnabled', { enabled: 'yes' } as never);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const headless = withoutMcpSharing();
    expect(headless.status()).toMatchObject({ enabled: false, dataDir: null });
    expect(headless.status().unsupportedReason).toMatch(/desktop app/);
    expect((await quireRejection(headless.setEnabled(true))).code).toBe('unsupported');
  });
});
