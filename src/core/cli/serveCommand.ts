import { fileURLToPath } from 'node:url';
import { guardProcess } from '../common/processGuards';
import { createCore } from '../createCore';
import type { ModelLaunchOptions } from '../models/launchOptions';
import { startLoopbackServer } from '../server/loopbackServer';

/** The renderer build, relative to this file in the source tree. */
const rendererBuild = fileURLToPath(new URL('../../../out/renderer', import.meta.url));

export async function serveCommand(
  options: {
    dataDir: string;
    port: number;
    host: string;
  } & ModelLaunchOptions,
): Promise<void> {
  // One request's failure must never end the server the user's browser is talking to.
  guardProcess({
    label: 'quire serve',
    log: (message) => console.error(`${new Date().toISOString()} ${message}`),
  });
  const core = createCore({
    dataDir: options.dataDir,
    watch: true,
    servers: options.servers,
    modelPath: options.modelPath,
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
  });
  if (options.host !== '127.0.0.1' && options.host !== 'localhost') {
    console.warn(
      `quire: listening on ${options.host}: anyone who can reach it and has the token can read your library.`,
    );
  }
  console.log(`Quire is serving ${options.dataDir}`);
  console.log(`Open ${server.url}`);
  const stop = async () => {
    await server.close();
    await core.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
