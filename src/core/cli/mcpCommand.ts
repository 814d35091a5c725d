import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { guardProcess } from '../common/processGuards';
import { createCore } from '../createCore';
import type { LibraryLocation } from '../location/libraryLocation';
import { createQuireMcpServer } from '../mcp/quireMcpServer';
import { quireVersion } from '../mcp/serverVersion';
import type { ModelLaunchOptions } from '../models/launchOptions';
import { closeBeforeExit } from './commandLifetime';

/**
 * `quire mcp`: the library as an MCP server on stdin/stdout, for a client that starts it from its
 * config file, often beside the running app on the app's own data folder. It opens the library as a
 * reader: it writes nothing, and before each request it catches up with what the app (or any writer)
 * committed since. It ends when the client closes stdin.
 */
export async function mcpCommand(
  options: { dataDir: string; library?: LibraryLocation | undefined } & ModelLaunchOptions,
): Promise<void> {
  // stdout carries protocol frames only: a stray log line there would break the client's parser.
  const toStderr = (...parts: unknown[]) => console.error(...parts);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  guardProcess({ label: 'quire mcp', log: (message) => console.error(message) });
  const core = createCore({
    dataDir: options.dataDir,
    ...(options.library ? { library: options.library } : {}),
    ingest: false,
    readOnly: true,
    attachEmbeddings: true,
    modelPath: options.modelPath,
    embedderPath: options.embedderPath,
    pageEmbedderPath: options.pageEmbedderPath,
    visionModelPath: options.visionModelPath,
    visionProjectorPath: options.visionProjectorPath,
    servers: options.servers,
    ...(options.hubEndpoint ? { hubEndpoint: options.hubEndpoint } : {}),
  });
  await core.start();
  const mcp = createQuireMcpServer(core, quireVersion());
  const transport = new StdioServerTransport();
  let closing = false;
  const close = async (code: number) => {
    if (closing) return;
    closing = true;
    await mcp.dispose().catch(() => undefined);
    await core.dispose().catch((error: unknown) => console.error('quire mcp: closing failed', error));
    process.exit(code);
  };
  transport.onclose = () => void close(0);
  process.stdin.on('end', () => void close(0));
  // A signal or the client going away without closing stdin (see commandLifetime) closes the same way.
  closeBeforeExit(async () => {
    closing = true;
    await mcp.dispose().catch(() => undefined);
    await core.dispose();
  });
  await mcp.server.connect(transport);
  catchUpBeforeRequests(transport, () => core.catchUp());
  console.error(`quire mcp: serving ${options.dataDir} over stdio`);
}

/**
 * Every request waits until the reader has caught up with its writer, so it sees the folders and
 * documents the app added since the last one. Messages keep their order: each waits for the one before.
 */
function catchUpBeforeRequests(transport: Transport, catchUp: () => Promise<void>): void {
  const handle = transport.onmessage;
  if (!handle) return;
  let previous = Promise.resolve();
  transport.onmessage = (message, extra) => {
    previous = previous.then(async () => {
      if ('method' in message && 'id' in message) {
        // A failed catch-up leaves the last state: the request is still answered from it.
        await catchUp().catch((error: unknown) => console.error('quire mcp: could not catch up', error));
      }
      handle(message, extra);
    });
  };
}
