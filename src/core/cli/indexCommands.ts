import { resolve } from 'node:path';
import type { DocumentInfo } from '../../shared/domain/library';
import type { DocumentsResult, Scope } from '../../shared/domain/scope';
import { SearchMode, type SearchResult } from '../../shared/domain/search';
import { QuireError } from '../../shared/errors';
import { createCore, type Core } from '../createCore';
import type { LibraryLocation } from '../location/libraryLocation';
import type { ModelLaunchOptions } from '../models/launchOptions';
import { expandHome } from '../library/folderCheck';
import { commandWriter, readOnlyIfLibrary } from './libraryAccess';
import { closeBeforeExit } from './commandLifetime';
import { printJson, say, tell } from './output';
import { ProgressPrinter } from './progressPrinter';

interface PageVectorSummary {
  embedder: string | null;
  pages: number;
  vectors: number;
  seconds: number;
  problems: string[];
}

interface TextEmbeddingSummary {
  /** The embed role's model; null when none is set up, and `reason` says why. */
  model: string | null;
  items: number;
  reason: string | null;
}

/**
 * Embedding comes after the text and the page images, in the background stage the app runs too
 * (text first, then pages); a one-shot command asks for one pass and waits for it to settle.
 */
async function embedLibrary(
  core: Core,
  live: boolean,
): Promise<{ embedded: TextEmbeddingSummary; pageVectors: PageVectorSummary | null }> {
  const started = Date.now();
  const role = core.models.status().roles.find((candidate) => candidate.role === 'embed')!;
  const problems: string[] = [];
  let textItems = 0;
  const offProblem = core.embedding.events.on('problem', (problem) => problems.push(problem.message));
  const offProgress = core.embedding.events.on('progress', (progress) => {
    if (progress.kind === 'text') textItems = progress.done;
    if (live)
      process.stderr.write(
        `\r${progress.kind === 'text' ? 'text vectors' : 'page vectors'}: ${progress.done}/${progress.total}\x1b[K`,
      );
  });
  core.embedding.request();
  await core.embedding.whenIdle();
  offProblem();
  offProgress();
  if (live) process.stderr.write('\n');
  const embedded: TextEmbeddingSummary =
    role.provider === null
      ? { model: null, items: 0, reason: `no embedding model: ${core.models.advice('embed')}.` }
      : { model: role.model, items: textItems, reason: null };
  const pageEmbedder = core.index.vectors.status().page.active;
  if (pageEmbedder === null && !core.config.pageEmbedderPath) return { embedded, pageVectors: null };
  let pages = 0;
  let vectors = 0;
  for (const count of core.index.vectors.pageVectorCounts().values()) {
    pages += count.pages;
    vectors += count.vectors;
  }
  const seconds = (Date.now() - started) / 1000;
  return {
    embedded,
    pageVectors: { embedder: pageEmbedder, pages, vectors, seconds, problems: [...new Set(problems)] },
  };
}

/** `quire index <folder>`: adds the folder if needed and indexes the library to completion. */
export async function indexCommand(
  folder: string | undefined,
  options: {
    dataDir: string;
    library?: LibraryLocation | undefined;
    json: boolean;
    images: boolean;
    ocr: boolean;
    /** `--max-pages`: the most pages of one PDF indexed. */
    maxPagesPerDocument?: number;
    /**
     * `--strict`: a file that could not be indexed fails the command. Off, the run exits 0 once every
     * file reached its final state (a damaged file's is "failed"), and names those files on stderr.
     */
    strict?: boolean;
  } & ModelLaunchOptions,
): Promise<void> {
  if (!folder) throw new QuireError('invalid_input', 'Usage: quire index <folder>');
  const started = Date.now();
  if (options.pageEmbedderPath !== null && !options.images)
    throw new QuireError('invalid_input', '--page-embedder reads page images: leave out --no-images.');
  const core = createCore({
    dataDir: options.dataDir,
    ...(options.library ? { library: options.library } : {}),
    ...commandWriter('index'),
    renderImages: options.images,
    ...(options.maxPagesPerDocument ? { maxPagesPerDocument: options.maxPagesPerDocument } : {}),
    modelPath: options.modelPath,
    embedderPath: options.embedderPath,
    servers: options.servers,
    pageEmbedderPath: options.pageEmbedderPath,
    ...(options.ocr ? {} : { ocr: false }),
  });
  closeBeforeExit(() => core.dispose());
  await core.start();
  try {
    const path = resolve(expandHome(folder));
    const root =
      core.library.snapshot().roots.find((candidate) => candidate.path === path) ??
      (await core.library.addFolder(path));
    const live = process.stderr.isTTY && !options.json;
    // On a terminal the line is redrawn in place; in a pipe or a log, a line every few seconds.
    const printer = new ProgressPrinter(
      live ? process.stderr : { write: (text) => process.stderr.write(text) },
    );
    const off = core.ingestion.events.on('progress', (progress) => printer.update(progress));
    // The scan feeds the queue; wait for both to settle.
    do {
      await core.library.whenIdle();
      await core.ingestion.whenIdle();
    } while (core.library.snapshot().scanning && !core.ingestion.stopped());
    // A full disk stops indexing: what is written stays, and the command fails saying how much is free.
    const stopped = core.ingestion.stopped();
    if (live) {
      off();
      printer.finish();
    }
    const { embedded, pageVectors } = stopped
      ? { embedded: { model: null, items: 0, reason: stopped.message }, pageVectors: null }
      : await embedLibrary(core, live);
    if (!live) {
      off();
      printer.finish();
    }
    // The report is on the folder asked for: the library may hold others, indexed on other days.
    const documents = core.library.snapshot().documents.filter((doc) => doc.rootId === root.id);
    const stats = await core.index.maintenance.stats();
    const states: Record<string, number> = {};
    for (const doc of documents) states[doc.state] = (states[doc.state] ?? 0) + 1;
    const indexed = documents.filter((d) => d.state === 'indexed');
    const ocrTotal = (count: (ocr: NonNullable<DocumentInfo['ocr']>) => number) =>
      indexed.reduce((sum, d) => sum + (d.ocr ? count(d.ocr) : 0), 0);
    const summary = {
      folder: root.path,
      files: documents.length,
      pages: indexed.reduce((sum, d) => sum + (d.pages ?? 0), 0),
      /** Over the whole library: the index does not count chunks by folder. */
      chunks: stats.chunks,
      // Scanned pages: read by OCR, unreadable, and still waiting (OCR off, or stopped midway).
      ocrPages: ocrTotal((ocr) => ocr.pagesRead),
      ocrUnreadablePages: ocrTotal((ocr) => ocr.pagesUnreadable),
      ocrWaitingPages: ocrTotal((ocr) => ocr.pagesWaiting),
      ocr: core.ocrSettings.current.enabled ? core.ocrSettings.current : 'off',
      ocrModel: core.ocrSettings.view().model.description,
      seconds: (Date.now() - started) / 1000,
      embedded,
      states,
      failures: documents
        .filter((d) => d.state !== 'indexed')
        .map((d) => ({ path: d.path, state: d.state, reason: d.error })),
      // Indexed, with something missing: page images that could not be drawn.
      warnings: documents
        .filter((d) => d.state === 'indexed' && d.error !== null)
        .map((d) => ({ path: d.path, reason: d.error })),
      ...(pageVectors ? { pageVectors } : {}),
      ...(stopped ? { stopped: stopped.toInfo() } : {}),
    };
    // The embedder given for this run could not load: say so, rather than report 0 chunks embedded.
    const embedderProblem = options.embedderPath ? core.models.problemWith(options.embedderPath) : null;
    const pageVectorFailure = embedderProblem
      ? new QuireError(
          'model_failed',
          `The text index is complete, but the text embedder ${options.embedderPath} cannot be used: ${embedderProblem}`,
        )
      : pageVectors?.problems.length
        ? new QuireError(
            'model_failed',
            `The text index is complete, but page vectors could not be made: ${pageVectors.problems.join(' ')}`,
          )
        : null;
    const failed = failedFiles(documents);
    if (options.json) {
      printJson(summary);
      if (stopped) throw stopped;
      if (failed && options.strict) throw failed;
      if (failed) tell(`quire: ${failed.message}`);
      if (pageVectorFailure) throw pageVectorFailure;
      return;
    }
    say(
      `Indexed ${states.indexed ?? 0} of ${summary.files} files in ${summary.folder}: ${summary.pages} pages in ${summary.seconds.toFixed(1)} s (${summary.chunks} chunks in the whole library).`,
    );
    if (embedded.model !== null && !embedderProblem)
      say(`Embedded ${embedded.items} new chunks and pages with ${embedded.model}.`);
    else if (!stopped) say(`Not embedded: ${embedded.reason}`);
    if (summary.ocrPages + summary.ocrUnreadablePages + summary.ocrWaitingPages > 0) {
      say(
        `  OCR: ${summary.ocrPages} scanned pages read, ${summary.ocrUnreadablePages} unreadable` +
          (summary.ocrWaitingPages > 0
            ? `, ${summary.ocrWaitingPages} not read (OCR is off or was stopped)`
            : ''),
      );
    }
    for (const failure of summary.failures)
      say(`  ${failure.state}: ${failure.path}: ${failure.reason ?? ''}`);
    for (const warning of summary.warnings) say(`  warning: ${warning.path}: ${warning.reason}`);
    if (pageVectors && !pageVectorFailure)
      say(
        `Page vectors: ${pageVectors.pages} pages, ${pageVectors.vectors} vectors in ${pageVectors.seconds.toFixed(1)} s (${pageVectors.embedder}).`,
      );
    if (stopped) throw stopped;
    if (failed && options.strict) throw failed;
    if (failed) tell(`quire: ${failed.message} (--strict makes this fail the command)`);
    if (pageVectorFailure) throw pageVectorFailure;
  } finally {
    await core.dispose();
  }
}

/** The most failed files named in the error; the summary above it lists every one. */
const NAMED_FAILURES = 10;

/** The folder's files that could not be read (failed, or given up after failing again and again), as the command's error. */
export function failedFiles(documents: readonly DocumentInfo[]): QuireError | null {
  const failed = documents.filter((doc) => doc.state === 'failed' || doc.state === 'quarantined');
  if (failed.length === 0) return null;
  const named = failed.slice(0, NAMED_FAILURES).map((doc) => doc.path);
  const more = failed.length - named.length;
  const count = failed.length === 1 ? '1 file' : `${failed.length} files`;
  return new QuireError(
    'not_readable',
    `${count} could not be indexed: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`,
  );
}

/** `quire search "<query>"`: hits as `{path, page, score, snippet}`, pages 1-based; a notice on stderr when the mode differs. */
export async function searchCommand(
  query: string | undefined,
  options: {
    dataDir: string;
    library?: LibraryLocation | undefined;
    json: boolean;
    k: number;
    mode: string | undefined;
    rewrite: boolean;
    rerank: boolean;
    rerankerPath: string | null;
    /** Only these files, folders or collections. */
    scope?: Scope | null;
    /** Every matching document (`{path, matches, page}`), not the top k passages. */
    documents?: boolean;
    /** With `documents`: also words of the term's stem, each document listing the forms it holds. */
    related?: boolean;
  } & ModelLaunchOptions,
): Promise<void> {
  if (!query)
    throw new QuireError(
      'invalid_input',
      'Usage: quire search "<query>" [--k 10] [--mode bm25|dense|hybrid|pages] [--rewrite] [--rerank]',
    );
  const mode = options.mode === undefined ? undefined : SearchMode.safeParse(options.mode);
  if (mode && !mode.success)
    throw new QuireError('invalid_input', `--mode must be bm25, dense, hybrid or pages.`);
  const core = createCore({
    dataDir: options.dataDir,
    ...(options.library ? { library: options.library } : {}),
    // Searching reads beside the app or `quire serve`: nothing of the library is written.
    ...(await readOnlyIfLibrary(options.dataDir)),
    ingest: false,
    // The embed role decides whether meaning can be searched: models are found as everywhere else.
    attachEmbeddings: true,
    modelPath: options.modelPath,
    rerankerPath: options.rerankerPath ? resolve(options.rerankerPath) : null,
    servers: options.servers,
    embedderPath: options.embedderPath,
    pageEmbedderPath: options.pageEmbedderPath,
  });
  closeBeforeExit(() => core.dispose());
  await core.start();
  try {
    const scope = options.scope ? { scope: options.scope } : {};
    if (options.documents)
      return await printDocuments(core, query, scope, options.json, options.related ?? false);
    if (mode?.data === 'pages') await attachPageEmbedder(core, options.pageEmbedderPath);
    const result = await core.dispatch('search.retrieve', {
      ...scope,
      query,
      k: options.k,
      rewrite: options.rewrite,
      rerank: options.rerank,
      ...(mode ? { mode: mode.data } : {}),
    });
    if (!result.ok) {
      // A search that failed for want of vectors says why the embedder given could not serve.
      const problem = options.embedderPath ? core.models.problemWith(options.embedderPath) : null;
      if (problem)
        throw new QuireError(
          'model_failed',
          `The text embedder ${options.embedderPath} cannot be used: ${problem}`,
        );
      throw new QuireError(result.error.code, result.error.message);
    }
    const found = result.value as SearchResult;
    const hits = found.hits.map((hit) => ({
      path: hit.path,
      page: hit.page,
      score: hit.score,
      snippet: hit.snippet,
    }));
    // What fell back (BM25 only, a reranker out of time) goes to stderr, so `--json` stays the list of hits.
    for (const note of found.notes) tell(`quire: ${note}`);
    const unembedded = await unembeddedNote(core, mode?.data);
    if (unembedded) tell(`quire: ${unembedded}`);
    if (options.json) {
      printJson(hits);
      return;
    }
    if (options.scope) say(`Searched ${found.searched ?? 'the scope'}.`);
    if (found.forms.length > 1) say(`Searched: ${found.forms.map((form) => `"${form.text}"`).join(', ')}`);
    if (found.rerankedBy)
      say(`Re-ranked by ${found.rerankedBy === 'reranker' ? 'the reranker model' : 'the chat model'}.`);
    if (hits.length === 0) say('No matches.');
    for (const hit of hits)
      say(`${hit.path} p.${hit.page}  (${hit.score.toFixed(3)})`, `    ${oneLine(hit.snippet)}`);
  } finally {
    await core.dispose();
  }
}

/**
 * A reader embeds nothing (the library's writer does): when meaning was searched and some chunks have
 * no vector yet, say how many were searched by keywords alone, or not at all in a dense search.
 */
async function unembeddedNote(core: Core, mode: string | undefined): Promise<string | null> {
  if (mode === 'bm25' || mode === 'pages' || !core.config.readOnly) return null;
  if (!core.index.vectors.status().text.searchable) return null;
  const count = await core.index.vectors.unembedded('text');
  if (!count || count.missing === 0) return null;
  const searched = mode === 'dense' ? 'were not searched' : 'were searched by keywords only';
  return `${count.missing} of ${count.total} chunks are not embedded yet (the library's writer embeds them): they ${searched}.`;
}

/** `quire search TERM --documents`: every document that holds the term, as `{path, matches, page, forms}`. */
async function printDocuments(
  core: Core,
  query: string,
  scope: { scope?: Scope },
  json: boolean,
  related: boolean,
): Promise<void> {
  const result = await core.dispatch('search.documents', { query, ...scope, related });
  if (!result.ok) throw new QuireError(result.error.code, result.error.message);
  const found = result.value as DocumentsResult;
  const rows = found.documents.map((d) => ({
    path: d.path,
    matches: d.matches,
    page: d.page,
    snippet: d.snippet,
    forms: d.forms,
  }));
  if (json) return printJson(rows);
  say(`${rows.length} ${rows.length === 1 ? 'document matches' : 'documents match'} in ${found.searched}.`);
  const typed = query.trim().toLowerCase();
  for (const row of rows) {
    // Forms other than the term as typed are named, so a reader sees what else was counted.
    const other = row.forms.filter((form) => form !== typed);
    const as = other.length > 0 ? `  as: ${row.forms.join(', ')}` : '';
    say(`${row.path}  ${row.matches} passage(s), best p.${row.page}${as}`, `    ${oneLine(row.snippet)}`);
  }
}

/** Loads the given page embedder for this search, when it is the one the library's page vectors came from. */
async function attachPageEmbedder(core: Core, path: string | null): Promise<void> {
  const active = core.index.vectors.status().page.active;
  if (path === null) {
    if (active === null) return;
    throw new QuireError(
      'model_unavailable',
      `Page search needs the page embedder its vectors came from (${active}): pass it with --page-embedder or QUIRE_PAGE_EMBEDDER.`,
    );
  }
  const embedder = await core.models.pageEmbedder();
  if (!embedder) throw new QuireError('model_unavailable', `The page embedder ${path} could not be loaded.`);
  if (core.index.vectors.attach({ page: embedder }).length === 0) {
    throw new QuireError(
      'model_unavailable',
      active === null
        ? `This library has no page vectors yet: run \`quire index <folder> --page-embedder ${path}\` first.`
        : `This library's page vectors came from ${active}, not ${embedder.id}: index again with this page embedder to switch.`,
    );
  }
}

/** A snippet on one line: its own line breaks and tabs become spaces. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
