import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { guardProcess } from '../common/processGuards';
import { createCore } from '../createCore';
import type { LibraryLocation } from '../location/libraryLocation';
import { createQuireMcpServer } from '../mcp/quireMcpServer';
import { quireVersion } from '../common/quireVersion';
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
  let stopFollowing: () => void = () => undefined;
  // One way down, however it is reached: stdin ends, the client closes, a signal, the parent leaving.
  let released: Promise<void> | null = null;
  const release = () =>
    (released ??= (async () => {
      stopFollowing();
      await mcp.dispose().catch(() => undefined);
      await core.dispose();
    })());
  const releaseAndExit = () =>
    void release()
      .catch((error: unknown) => console.error('quire mcp: closing failed', error))
      .finally(() => process.exit(0));
  process.stdin.on('end', releaseAndExit);
  closeBeforeExit(release);
  await mcp.server.connect(transport);
  stopFollowing = followWriter(transport, () => core.catchUp());
  transport.onclose = releaseAndExit;
  console.error(`quire mcp: serving ${options.dataDir} over stdio`);
}

/** How often the reader looks for the writer's changes between requests (a check costs under 1 ms). */
const FOLLOW_INTERVAL_MS = 2000;

/**
 * Every request waits until the reader has caught up with its writer, so it sees the folders and
 * documents the app added since the last one; between requests it catches up every few seconds, so a
 * client hears `list_changed` when the app adds documents. Messages keep their order: each waits for
 * the one before. Returns the stop.
 */
function followWriter(transport: Transport, catchUp: () => Promise<void>): () => void {
  const handle = transport.onmessage;
  if (!handle) return () => undefined;
  let previous = Promise.resolve();
  // A failed catch-up leaves the last state: a request is still answered from it.
  const caughtUp = () =>
    catchUp().catch((error: unknown) => console.error('quire mcp: could not catch up', error));
  transport.onmessage = (message, extra) => {
    previous = previous.then(async () => {
      if ('method' in message && 'id' in message) await caughtUp();
      handle(message, extra);
    });
  };
  const timer = setInterval(() => {
    previous = previous.then(caughtUp);
  }, FOLLOW_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
