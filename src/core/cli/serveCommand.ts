import { fileURLToPath } from 'node:url';
import { killLiveChildren } from '../common/entryPoints';
import { guardProcess } from '../common/processGuards';
import { lowerThisProcess } from '../common/processPriority';
import { createCore } from '../createCore';
import type { ModelLaunchOptions } from '../models/launchOptions';
import { createMcpHttpHandler } from '../mcp/httpSessions';
import { quireVersion } from '../mcp/serverVersion';
import { startLoopbackServer } from '../server/loopbackServer';

/** The renderer build, relative to this file in the source tree. */
const rendererBuild = fileURLToPath(new URL('../../../out/renderer', import.meta.url));

export async function serveCommand(
  options: {
    dataDir: string;
    port: number;
    host: string;
    /** Draw page images (false: `--no-images`, text only, as `quire index --no-images`). */
    images?: boolean;
  } & ModelLaunchOptions,
): Promise<void> {
  // One request's failure must never end the server the user's browser is talking to.
  guardProcess({
    label: 'quire serve',
    log: (message) => console.error(`${new Date().toISOString()} ${message}`),
  });
  // All of this process is engine: it indexes and answers below the browser window's priority. It
  // is lowered before the index starts its threads, since a thread takes its starter's priority.
  const priority = lowerThisProcess();
  if (priority.failed) console.warn(`quire: could not lower the server's CPU priority: ${priority.failed}`);
  const core = createCore({
    dataDir: options.dataDir,
    watch: true,
    renderImages: options.images ?? true,
    servers: options.servers,
    modelPath: options.modelPath,
    embedderPath: options.embedderPath,
    visionModelPath: options.visionModelPath,
    visionProjectorPath: options.visionProjectorPath,
    ...(options.hubEndpoint ? { hubEndpoint: options.hubEndpoint } : {}),
  });
  await core.start();
  const server = await startLoopbackServer({
    core,
    staticDir: process.env.QUIRE_RENDERER_DIR ?? rendererBuild,
    host: options.host,
    port: options.port,
    mcp: createMcpHttpHandler(core, quireVersion()),
  });
  if (options.host !== '127.0.0.1' && options.host !== 'localhost') {
    console.warn(
      `quire: listening on ${options.host}: anyone who can reach it and has the token can read your library.`,
    );
  }
  console.log(`Quire is serving ${options.dataDir}`);
  console.log(`Open ${server.url}`);
  if (server.mcpUrl) console.log(`MCP (Streamable HTTP) for other agents: ${server.mcpUrl}`);
  let stopping = false;
  const stop = async () => {
    // A second signal means now: whatever is still closing is cut short.
    if (stopping) exitNow(1);
    stopping = true;
    const orderly = (async () => {
      await server.dispose();
      await core.dispose();
    })().catch((error: unknown) => console.error('quire serve: stopping failed', error));
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, STOP_DEADLINE_MS).unref());
    await Promise.race([orderly, deadline]);
    exitNow(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/**
 * How long `quire serve` waits for its services to close after SIGTERM or SIGINT before it exits
 * anyway: whoever sent the signal (a terminal, a test runner, a service manager) expects it gone soon.
 */
const STOP_DEADLINE_MS = 1000;

function exitNow(code: number): never {
  killLiveChildren();
  process.exit(code);
}
