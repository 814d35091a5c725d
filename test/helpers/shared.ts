import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** `../shared` beside the project (QUIRE_SHARED overrides): the corpus and QA sets live there. */
export const sharedDir = resolve(
  process.env.QUIRE_SHARED ?? join(import.meta.dirname, '..', '..', '..', 'shared'),
);
export const corpusDir = join(sharedDir, 'corpus');
export const hasCorpus = existsSync(join(corpusDir, 'MANIFEST.tsv'));

/**
 * Why the tests that read the corpus skip here, or null when they run: the corpus is there, or this is
 * CI, which checks out ../shared, so a missing corpus must fail there rather than pass as skipped.
 */
export function corpusSkipReason(
  env: NodeJS.ProcessEnv = process.env,
  present: boolean = hasCorpus,
): string | null {
  if (present || env.CI === 'true') return null;
  return `no test corpus at ${corpusDir}: set QUIRE_SHARED=DIR or put the shared folder at ../shared`;
}

/**
 * True where the tests of `what` skip for want of the corpus, after printing one line that says what is
 * skipped and how to run it (also appended to the file QUIRE_SKIP_LOG names, which `npm test` sums up
 * at its end):
 *
 *   describe.skipIf(withoutCorpus('PDFium on corpus PDFs'))('PdfiumDocument', () => { ... });
 */
export function withoutCorpus(what: string): boolean {
  const reason = corpusSkipReason();
  if (reason === null) return false;
  const line = `Skipped ${what}: ${reason}.`;
  console.log(line);
  const log = process.env.QUIRE_SKIP_LOG;
  if (log) appendFileSync(log, `${reason}\t${what}\n`);
  return true;
}

export interface ManifestRow {
  source: string;
  /** Relative to corpusDir, e.g. `pdfjs/tracemonkey.pdf`. */
  localPath: string;
  /** Null where the manifest says NA (files no reader can open). */
  pages: number | null;
  bytes: number;
  kind: string;
}

export function readManifest(): ManifestRow[] {
  const [header, ...lines] = readFileSync(join(corpusDir, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const columns = header!.split('\t');
  const col = (name: string) => columns.indexOf(name);
  return lines.map((line) => {
    const cells = line.split('\t');
    return {
      source: cells[col('source')]!,
      localPath: cells[col('local_path')]!.replace(/^corpus\//, ''),
      pages: /^\d+$/.test(cells[col('pages')] ?? '') ? Number(cells[col('pages')]) : null,
      bytes: Number(cells[col('bytes')]),
      kind: cells[col('kind')]!,
    };
  });
}

/** Removes the folders a test made, passing over those it never got to make (a setup that failed). */
export async function removeFolders(...paths: Array<string | undefined>): Promise<void> {
  await Promise.all(paths.map((path) => path && rm(path, { recursive: true, force: true })));
}

/** A fresh temp dir, removed by the returned cleanup. */
export async function tempDir(
  prefix = 'quire-test-',
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}
