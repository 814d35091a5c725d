import { createInterface } from 'node:readline/promises';
import type { DownloadProgress, ModelsStatus } from '../../shared/domain/models';
import { QuireError } from '../../shared/errors';
import { createCore, type Core } from '../createCore';
import { noModelHelp as adviceWhenNoModel } from '../models/catalogue/advice';
import type { LibraryLocation } from '../location/libraryLocation';
import type { ModelLaunchOptions } from '../models/launchOptions';
import { closeBeforeExit } from './commandLifetime';
import { readOnlyIfLibrary } from './libraryAccess';
import { formatBytes, printJson, say, shown, tell } from './output';
import { printProposal } from './proposalText';
import { UsageError } from './usage';

/** Options of the commands that use models. */
export interface ModelCommandOptions extends ModelLaunchOptions {
  dataDir: string;
  json: boolean;
  /** `models setup --yes`: no question before downloading. */
  yes?: boolean;
  /** `--library` (ask): a shared library to read instead of the local one. */
  library?: LibraryLocation | undefined;
}

/** A core for one command that uses models but leaves the library as it is. */
export async function startModelCore(
  options: ModelCommandOptions,
  extra: { attachEmbeddings?: boolean } = {},
): Promise<Core> {
  const core = createCore({
    dataDir: options.dataDir,
    ...(options.library ? { library: options.library } : {}),
    // Models and answers leave the library as it is: it is read beside the app (ask's conversations are files of their own).
    ...(await readOnlyIfLibrary(options.dataDir)),
    ingest: false,
    modelPath: options.modelPath,
    embedderPath: options.embedderPath,
    visionModelPath: options.visionModelPath,
    visionProjectorPath: options.visionProjectorPath,
    servers: options.servers,
    ...(options.hubEndpoint ? { hubEndpoint: options.hubEndpoint } : {}),
    ...extra,
  });
  closeBeforeExit(() => core.dispose());
  await core.start();
  return core;
}

/** What to do when nothing can answer, for this machine. */
export function noModelHelp(core: Core): string {
  return adviceWhenNoModel(core.models.adviceMachine(), core.models.modelsDir);
}

const USAGE = 'Usage: quire models status|recommend|setup [--yes] [--model PATH.gguf] [--json]';

export async function modelsCommand(args: string[], options: ModelCommandOptions): Promise<void> {
  const verb = args[0];
  if (verb !== 'status' && verb !== 'recommend' && verb !== 'setup') throw new UsageError(USAGE);
  const core = await startModelCore(options);
  try {
    if (verb === 'status') return await statusCommand(core, options);
    if (verb === 'recommend') {
      const proposal = await core.setup.propose();
      if (options.json) printJson(proposal);
      else printProposal(proposal, (line) => say(line));
      return;
    }
    await setupCommand(core, options);
  } finally {
    await core.dispose();
  }
}

async function statusCommand(core: Core, options: ModelCommandOptions): Promise<void> {
  if (options.modelPath) {
    // Reads the GGUF's header now, so a broken file is reported here rather than at the first question.
    await core.models.chatModel('decide');
  }
  // Loads the ONNX embedder now, so a wrong folder is reported here and its memory shows below.
  const embedderProblem = options.embedderPath
    ? await core.models.textEmbedder().then(
        () => null,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      )
    : null;
  const status = core.models.status();
  if (options.json) printJson(status);
  else {
    printStatus(status);
    // Which model reads scanned pages: the fast one once set up, else the packaged one, and why.
    say('OCR', `  ${core.ocrSettings.view().model.description}`);
  }
  // modelPath is absolute already (launch options resolve it).
  const problem = options.modelPath ? core.models.problemWith(options.modelPath) : null;
  if (problem) {
    tell(`quire: the model ${options.modelPath} cannot be used: ${problem}`);
    process.exitCode = 1;
  }
  if (embedderProblem) {
    tell(`quire: the text embedder ${options.embedderPath} cannot be used: ${embedderProblem}`);
    process.exitCode = 1;
  }
  // The vision files were read at start (headers, tensor tables); a refusal names the file at fault.
  const visionProblem = options.visionModelPath ? core.models.problemWith(options.visionModelPath) : null;
  if (visionProblem) {
    tell(`quire: ${visionProblem}`);
    process.exitCode = 1;
  }
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

/** `quire models setup`: shows the proposal, asks (unless --yes), then fetches it and saves the choices. */
async function setupCommand(core: Core, options: ModelCommandOptions): Promise<void> {
  const proposal = await core.setup.propose();
  // With --json, stdout is for the result alone.
  const line = options.json ? tell : say;
  printProposal(proposal, line);
  const needed = proposal.roles.filter((role) => role.source === 'download' || role.source === 'ollama');
  if (needed.length > 0) {
    await core.setup.checkHosts(proposal);
    if (
      !options.yes &&
      !(await confirm(`Download ${formatBytes(proposal.totals.downloadBytes)} now? [y/N] `))
    ) {
      throw new QuireError(
        'invalid_input',
        'Setup not started. Run `quire models setup --yes` to download without asking.',
      );
    }
  }
  const run = core.setup.start(proposal);
  const live = process.stderr.isTTY && !options.json;
  const off = core.events.on('models.onDownload', (progress) => {
    if (live) process.stderr.write(`\r${shown(progressLine(progress))}\x1b[K`);
    else if (progress.state !== 'downloading') tell(progressLine(progress));
  });
  const outcome = await run.done;
  off();
  if (live) process.stderr.write('\n');
  if (options.json) printJson({ ok: outcome.ok, choices: outcome.choices, failed: outcome.failed, proposal });
  if (!outcome.ok) {
    const reasons = outcome.failed
      .map((failed) => `${failed.model}: ${failed.error ?? failed.state}`)
      .join('\n  ');
    throw new QuireError('model_unavailable', `Setup did not finish; nothing was changed.\n  ${reasons}`);
  }
  line(
    needed.length === 0
      ? 'Everything the proposal needs is already here; the choices are saved.'
      : 'Setup finished; the choices are saved. `quire models status` shows the roles.',
  );
}

function progressLine(progress: DownloadProgress): string {
  const of = progress.bytesTotal ? ` of ${formatBytes(progress.bytesTotal)}` : '';
  const rate = progress.bytesPerSecond > 0 ? `, ${formatBytes(progress.bytesPerSecond)}/s` : '';
  const error = progress.error ? `: ${progress.error}` : '';
  return `${progress.model}: ${progress.state} ${formatBytes(progress.bytesDone)}${of}${rate}${error}`;
}

function printStatus(status: ModelsStatus): void {
  say('Roles');
  for (const role of status.roles) {
    const serving = role.provider ? `${role.provider} ${role.model ?? ''}`.trim() : 'none';
    say(`  ${role.role.padEnd(10)} ${serving}`, `             ${role.reason}`);
  }
  say('Servers');
  const reachable = status.servers.filter((server) => server.reachable);
  if (reachable.length === 0) say('  No Ollama or LM Studio running: optional.');
  for (const server of reachable) say(`  ${server.kind} ${server.endpoint} ${server.models.length} models`);
  const memory = status.memory;
  say('Memory');
  say(
    `  ${formatBytes(memory.availableBytes)} available of ${formatBytes(memory.totalBytes)}; ` +
      `${formatBytes(Math.max(0, memory.freeForModelsBytes))} free for models after ${formatBytes(memory.appHeadroomBytes)} headroom`,
  );
  for (const entry of memory.entries) {
    const size =
      entry.sizeKnown === false
        ? 'size unknown (the server does not say)'
        : `weights ${formatBytes(entry.weightsBytes)}, working memory ${formatBytes(entry.kvCacheBytes)}`;
    say(`  ${entry.label}: ${size}${entry.loaded ? ' (loaded)' : ''}`);
  }
  for (const note of memory.notes) say(`  ${note}`);
  if (status.unusableFiles.length > 0) {
    say('Model files Quire will not load');
    for (const file of status.unusableFiles) say(`  ${file.path}`, `    unusable: ${file.reason}`);
  }
}
