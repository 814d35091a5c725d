import { readFile, stat } from 'node:fs/promises';
import { extname, relative, sep } from 'node:path';
import { z } from 'zod';
import { foldersFor, resolveInLibrary, walkFiles, type WalkedFile } from './libraryPaths';
import { choiceField, objectSchema, textField } from './schema';
import type { AgentPorts } from '../ports';
import type { Tool } from './types';

const KINDS = ['pdf', 'markdown', 'text', 'all'] as const;
type Kind = (typeof KINDS)[number];
const EXTENSIONS: Record<Exclude<Kind, 'all'>, string[]> = {
  pdf: ['.pdf'],
  markdown: ['.md', '.markdown'],
  text: ['.txt'],
};
const GREPPABLE = new Set(['.txt', '.md', '.markdown', '.csv', '.json', '.html', '.htm', '.xml', '.log']);
const MAX_WALK = 50_000;
const MAX_GREP_BYTES = 2 * 1024 * 1024;

function matchesKind(path: string, kind: Kind): boolean {
  return kind === 'all' || EXTENSIONS[kind].includes(extname(path).toLowerCase());
}

const kindLabel = (kind: Kind) => (kind === 'all' ? 'files' : kind === 'pdf' ? 'PDF files' : `${kind} files`);
const folderField = textField(300, 'a folder inside the library, or "" for the whole library');
const kindField = choiceField(KINDS, 'which files');
const folderInput = z.string().trim().max(300).default('');
const noRoots = (state: { capabilities: { libraryRoots: string[] } }) =>
  state.capabilities.libraryRoots.length > 0;

async function filesUnder(
  folder: string,
  roots: string[],
  signal: AbortSignal,
  ports: Pick<AgentPorts, 'scopePaths'>,
  maxDepth = 64,
) {
  const folders = await foldersFor(folder, roots);
  const walks = await Promise.all(
    folders.map((f) => walkFiles(f, { roots, maxDepth, maxFiles: MAX_WALK, signal })),
  );
  // A scoped question sees only the files of its scope.
  const inScope = ports.scopePaths ? await ports.scopePaths() : null;
  return {
    folders,
    files: walks.flatMap((w) => w.files).filter((f) => !inScope || inScope.has(f.path)),
    truncated: walks.some((w) => w.truncated),
  };
}

export const countFiles: Tool<{ kind: Kind; folder: string }> = {
  name: 'count_files',
  description: 'Count the files in the library folders (or one folder), by type. No search needed.',
  inputSchema: z.object({ kind: z.enum(KINDS).default('all'), folder: folderInput }),
  modelInputSchema: objectSchema({ kind: kindField, folder: folderField }),
  ends: false,
  isAvailable: noRoots,
  defaultInputs: (state) => ({ kind: /\bpdfs?\b/i.test(state.question) ? 'pdf' : 'all', folder: '' }),
  async *run(inputs, { state, ports, signal }) {
    const roots = state.capabilities.libraryRoots;
    const { folders, files, truncated } = await filesUnder(inputs.folder, roots, signal, ports);
    const matching = files.filter((f) => matchesKind(f.path, inputs.kind));
    const documents = await ports.libraryDocuments();
    const indexed = documents.filter(
      (d) =>
        d.state === 'indexed' &&
        matching.some((f) => f.path === d.path || f.path.endsWith(sep + d.relativePath)),
    ).length;
    const count = `${truncated ? 'at least ' : ''}${matching.length}`;
    const where = folders.length === 1 ? folders[0] : `${folders.length} library folders`;
    yield {
      type: 'result',
      name: `${inputs.kind} in ${inputs.folder || 'library'}`,
      text: `${count} ${kindLabel(inputs.kind)} in ${where} (${indexed} of them indexed).`,
      items: matching.length,
      summary: `${count} ${kindLabel(inputs.kind)}`,
    };
  },
};

export const listFiles: Tool<{ kind: Kind; folder: string; limit: number }> = {
  name: 'list_files',
  description: 'List the files in the library folders (or one folder) with their sizes.',
  inputSchema: z.object({
    kind: z.enum(KINDS).default('all'),
    folder: folderInput,
    limit: z.enum(['20', '50', '100']).default('50').transform(Number),
  }),
  modelInputSchema: objectSchema({
    kind: kindField,
    folder: folderField,
    limit: choiceField(['20', '50', '100'], 'most files to list'),
  }),
  ends: false,
  isAvailable: noRoots,
  defaultInputs: (state) => ({
    kind: /\bpdfs?\b/i.test(state.question) ? 'pdf' : 'all',
    folder: '',
    limit: 50,
  }),
  async *run(inputs, { state, signal, ports }) {
    const { folders, files } = await filesUnder(
      inputs.folder,
      state.capabilities.libraryRoots,
      signal,
      ports,
    );
    const matching = files.filter((f) => matchesKind(f.path, inputs.kind));
    const shown = matching.slice(0, inputs.limit);
    const lines = shown.map((f) => `${f.path} (${formatBytes(f.stats.size)})`);
    if (matching.length > shown.length) lines.push(`... and ${matching.length - shown.length} more`);
    yield {
      type: 'result',
      name: `${inputs.kind} in ${inputs.folder || 'library'}`,
      text: lines.length > 0 ? lines.join('\n') : `No ${kindLabel(inputs.kind)} in ${folders.join(', ')}.`,
      items: matching.length,
      summary: `${matching.length} ${kindLabel(inputs.kind)} listed`,
    };
  },
};

export const fileMetadata: Tool<{ path: string }> = {
  name: 'file_metadata',
  description: 'Size, modification date, page count and indexing state of one file in the library.',
  inputSchema: z.object({ path: z.string().trim().min(1).max(1000) }),
  modelInputSchema: objectSchema({
    path: textField(1000, 'the file path, absolute or relative to a library folder'),
  }),
  ends: false,
  isAvailable: noRoots,
  defaultInputs: () => ({ path: '' }),
  async *run(inputs, { state, ports }) {
    const real = await resolveInLibrary(inputs.path, state.capabilities.libraryRoots);
    if (ports.scopePaths && !(await ports.scopePaths()).has(real)) {
      yield {
        type: 'error',
        message: `${real} is outside this question's scope.`,
        suggestion: 'Answer from the documents in scope, and say what was left out.',
      };
      return;
    }
    const stats = await stat(real);
    const document = (await ports.libraryDocuments()).find((d) => d.path === real);
    const facts = [
      `path: ${real}`,
      `type: ${stats.isDirectory() ? 'folder' : extname(real).slice(1) || 'file'}`,
      `size: ${formatBytes(stats.size)}`,
      `modified: ${stats.mtime.toISOString()}`,
    ];
    if (document) facts.push(`pages: ${document.pages ?? 'unknown'}`, `state: ${document.state}`);
    yield { type: 'result', name: real, text: facts.join('\n'), items: 1, summary: `metadata of ${real}` };
  },
};

export const grepFiles: Tool<{ pattern: string; folder: string }> = {
  name: 'grep_files',
  description:
    'Find a literal text (case-insensitive) in file names, and inside plain-text files (txt, md, csv, json, html). ' +
    'For the content of PDFs use text_search.',
  inputSchema: z.object({ pattern: z.string().trim().min(1).max(200), folder: folderInput }),
  modelInputSchema: objectSchema({ pattern: textField(200, 'the text to find'), folder: folderField }),
  ends: false,
  isAvailable: noRoots,
  defaultInputs: (state) => ({ pattern: state.question.slice(0, 200), folder: '' }),
  async *run(inputs, { state, signal, ports }) {
    const needle = inputs.pattern.toLowerCase();
    const { files } = await filesUnder(inputs.folder, state.capabilities.libraryRoots, signal, ports);
    const hits: string[] = [];
    for (const file of files) {
      if (hits.length >= 50) break;
      if (file.relativePath.toLowerCase().includes(needle)) hits.push(`${file.path}: (file name)`);
      hits.push(...(await grepInside(file, needle, 50 - hits.length)));
    }
    if (hits.length === 0) {
      yield {
        type: 'error',
        message: `"${inputs.pattern}" is in no file name or text file.`,
        suggestion: 'Use text_search to search the content of PDFs.',
      };
      return;
    }
    yield {
      type: 'result',
      name: inputs.pattern,
      text: hits.join('\n'),
      items: hits.length,
      summary: `${hits.length} match(es) for "${inputs.pattern}"`,
    };
  },
};

async function grepInside(file: WalkedFile, needle: string, max: number): Promise<string[]> {
  if (max <= 0 || !GREPPABLE.has(extname(file.path).toLowerCase()) || file.stats.size > MAX_GREP_BYTES)
    return [];
  const lines = (await readFile(file.path, 'utf8')).split('\n');
  const hits: string[] = [];
  for (let i = 0; i < lines.length && hits.length < max; i++) {
    const line = lines[i] ?? '';
    if (line.toLowerCase().includes(needle)) hits.push(`${file.path}:${i + 1}: ${line.trim().slice(0, 200)}`);
  }
  return hits;
}

export const directoryTree: Tool<{ folder: string; depth: number }> = {
  name: 'directory_tree',
  description: 'Show the folder structure of the library (or one folder) with file counts per folder.',
  inputSchema: z.object({
    folder: folderInput,
    depth: z.enum(['1', '2', '3']).default('2').transform(Number),
  }),
  modelInputSchema: objectSchema({
    folder: folderField,
    depth: choiceField(['1', '2', '3'], 'levels to show'),
  }),
  ends: false,
  isAvailable: noRoots,
  defaultInputs: () => ({ folder: '', depth: 2 }),
  async *run(inputs, { state, signal, ports }) {
    const { folders, files } = await filesUnder(
      inputs.folder,
      state.capabilities.libraryRoots,
      signal,
      ports,
    );
    const lines: string[] = [];
    for (const folder of folders) {
      const counts = new Map<string, number>();
      for (const file of files.filter((f) => f.path.startsWith(folder))) {
        const parts = relative(folder, file.path).split(/[\\/]/).slice(0, -1).slice(0, inputs.depth);
        for (let i = 0; i <= parts.length; i++) {
          const key = parts.slice(0, i).join('/');
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
      for (const [key, count] of [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).slice(0, 200)) {
        const depth = key === '' ? 0 : key.split('/').length;
        lines.push(`${'  '.repeat(depth)}${key === '' ? folder : key.split('/').at(-1)}/ (${count} files)`);
      }
    }
    yield {
      type: 'result',
      name: inputs.folder || 'library',
      text: lines.join('\n'),
      items: files.length,
      summary: `tree of ${folders.length} folder(s), ${files.length} files`,
    };
  },
};

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
