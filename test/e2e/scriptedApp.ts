import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { corpusDir, removeFolders } from '../helpers/shared';
import type { StreamBehaviour } from '../standins/httpStandIn';
import type { OpenAIStandIn } from '../standins/openaiStandIn';
import { startScriptedAgent, type ScriptedDecision } from '../standins/scriptedAgent';
import { startServe, type ServeProcess } from './serveProcess';

/** The real app (`quire serve`) on a fresh data folder, its library folder and the scripted model stand-in. */
export interface ScriptedApp {
  serve: ServeProcess;
  standIn: OpenAIStandIn;
  dataDir: string;
  folder: string;
  dispose(): Promise<void>;
}

export interface ScriptedAppOptions {
  /** Names the temporary folders, so a leftover one says which spec made it. */
  name: string;
  decisions: ScriptedDecision[];
  answer: string;
  /** Library files: path inside the library folder -> path inside the shared corpus. */
  files: Record<string, string>;
  behaviour?: StreamBehaviour;
}

/** Starts the scripted OpenAI-compatible stand-in, copies the corpus files in, and serves the app against it. */
export async function startScriptedApp(options: ScriptedAppOptions): Promise<ScriptedApp> {
  const standIn = await startScriptedAgent(options.decisions, options.answer, options.behaviour);
  let dataDir: string | undefined;
  let folder: string | undefined;
  let serve: ServeProcess | undefined;
  // Whatever was started before a step fails is stopped and removed: the spec never gets to dispose it.
  const stopAll = async () => {
    try {
      await serve?.stop();
      await standIn.close();
    } finally {
      await removeFolders(dataDir, folder);
    }
  };
  try {
    dataDir = await mkdtemp(join(tmpdir(), `quire-e2e-${options.name}-data-`));
    folder = await mkdtemp(join(tmpdir(), `quire-e2e-${options.name}-library-`));
    for (const [target, source] of Object.entries(options.files)) {
      await mkdir(dirname(join(folder, target)), { recursive: true });
      await copyFile(join(corpusDir, source), join(folder, target));
    }
    serve = await startServe(dataDir, ['--server', standIn.baseUrl]);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { serve, standIn, dataDir, folder, dispose: stopAll };
}
