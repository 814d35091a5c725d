import { fileURLToPath } from 'node:url';
import { guardProcess } from '../common/processGuards';
import { lowerThisProcess } from '../common/processPriority';
import { createCore } from '../createCore';
import type { ModelLaunchOptions } from '../models/launchOptions';
import { storedToken } from '../server/auth';
import { createMcpHttpHandler } from '../mcp/httpSessions';
import { quireVersion } from '../common/quireVersion';
import { startLoopbackServer } from '../server/loopbackServer';
import { commandWriter } from './libraryAccess';
import { closeBeforeExit } from './commandLifetime';
import { say } from './output';

/** The renderer build, relative to this file in the source tree. */
const rendererBuild = fileURLToPath(new URL('../../../out/renderer', import.meta.url));

export async function serveCommand(
  options: {
    dataDir: string;
    port: number;
    host: string;
    /** Draw page images (false: `--no-images`, text only, as `quire index --no-images`). */
    images?: boolean;
    /** `--max-pages`: the most pages of one PDF indexed. */
    maxPagesPerDocument?: number;
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
    ...commandWriter('serve'),
    watch: true,
    renderImages: options.images ?? true,
    ...(options.maxPagesPerDocument ? { maxPagesPerDocument: options.maxPagesPerDocument } : {}),
    servers: options.servers,
    modelPath: options.modelPath,
    embedderPath: options.embedderPath,
    visionModelPath: options.visionModelPath,
    visionProjectorPath: options.visionProjectorPath,
    ...(options.hubEndpoint ? { hubEndpoint: options.hubEndpoint } : {}),
  });
  // SIGTERM, SIGINT, SIGHUP or the parent going away (see commandLifetime) close the server, then the core.
  let server: { dispose(): Promise<void> } | null = null;
  closeBeforeExit(async () => {
    await server?.dispose();
    await core.dispose();
  });
  await core.start();
  const started = await startLoopbackServer({
    core,
    staticDir: process.env.QUIRE_RENDERER_DIR ?? rendererBuild,
    host: options.host,
    port: options.port,
    token: storedToken(options.dataDir),
    mcp: createMcpHttpHandler(core, quireVersion()),
  });
  server = started;
  if (options.host !== '127.0.0.1' && options.host !== 'localhost') {
    console.warn(
      `quire: listening on ${options.host}: anyone who can reach it and has the token can read your library.`,
    );
  }
  say(`Quire is serving ${options.dataDir}`);
  say(`Open ${started.url}`);
  if (started.mcpUrl) say(`MCP (Streamable HTTP) for other agents: ${started.mcpUrl}`);
}
