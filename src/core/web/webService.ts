/*
 * Web access, off by default: the search provider exists only while the user has it on, and a PDF a
 * search found is downloaded only when the user asks for it (the approval), into a library folder.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebSearchSettings } from '../../shared/domain/web';
import { QuireError } from '../../shared/errors';
import { writeFileAtomic } from '../common/atomicFile';
import { withDeadline } from './deadline';
import { filterResults, SearxngProvider, type WebSearchProvider } from './searxng';
import { WebSearchSettingsStore } from './webSearchSettingsStore';

export interface WebServiceDeps {
  dataDir: string;
  /** Adds the downloads folder to the library (once). */
  addLibraryFolder: (path: string) => Promise<unknown>;
  isLibraryFolder: (path: string) => boolean;
  fetch?: typeof fetch;
}

const MAX_PDF_BYTES = 200 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 120_000;

export class WebService {
  readonly settings: WebSearchSettingsStore;

  constructor(private readonly deps: WebServiceDeps) {
    this.settings = new WebSearchSettingsStore(deps.dataDir);
  }

  load(): Promise<WebSearchSettings> {
    return this.settings.load();
  }

  /** The provider to search with, or null while web search is off: then nothing can leave the machine. */
  provider(): WebSearchProvider | null {
    const { searxngUrl } = this.settings.current;
    if (!this.settings.active || !searxngUrl) return null;
    const inner = new SearxngProvider(searxngUrl, this.deps.fetch ?? fetch);
    const settings = this.settings.current;
    return {
      host: inner.host,
      search: async (query, options) => filterResults(await inner.search(query, options), settings),
    };
  }

  /** Where approved downloads go; a library folder of its own. */
  get downloadsFolder(): string {
    return webDownloadsFolder(this.deps.dataDir);
  }

  /** Downloads a PDF the user approved and adds it to the library. Refused while web search is off. */
  async addPdf(url: string, signal?: AbortSignal): Promise<{ path: string }> {
    if (!this.settings.active)
      throw new QuireError(
        'forbidden',
        'Web search is off: turn it on in Settings to download from the web.',
      );
    const bytes = await withDeadline(DOWNLOAD_TIMEOUT_MS, signal, async (bounded) => {
      const response = await (this.deps.fetch ?? fetch)(url, { signal: bounded }).catch((error: unknown) => {
        const cause = (error as { cause?: { message?: string } }).cause?.message;
        throw new QuireError(
          'not_readable',
          `Could not download ${url}: ${cause ?? (error as Error).message}`,
        );
      });
      if (!response.ok)
        throw new QuireError(
          'not_readable',
          `Could not download ${url}: the server answered ${response.status}.`,
        );
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_PDF_BYTES) throw new QuireError('invalid_input', `${url} is larger than 200 MB.`);
      const body = new Uint8Array(await response.arrayBuffer());
      if (body.length > MAX_PDF_BYTES) throw new QuireError('invalid_input', `${url} is larger than 200 MB.`);
      return body;
    });
    if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-')
      throw new QuireError('invalid_input', `${url} is not a PDF.`);
    await mkdir(this.downloadsFolder, { recursive: true });
    const path = join(this.downloadsFolder, fileNameFor(url));
    await writeFileAtomic(path, bytes);
    if (!this.deps.isLibraryFolder(this.downloadsFolder))
      await this.deps.addLibraryFolder(this.downloadsFolder);
    return { path };
  }
}

/**
 * The folder of PDFs the user approved from the web: inside the data folder, and the one folder there
 * the library may hold (it holds nothing but those downloads).
 */
export function webDownloadsFolder(dataDir: string): string {
  return join(dataDir, 'web-downloads');
}

/** A safe file name from the URL's last path segment. */
export function fileNameFor(url: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? 'download');
  const safe =
    last
      .replace(/[^\w.() -]+/g, '_')
      .replace(/^\.+/, '')
      .slice(0, 120) || 'download';
  return safe.toLowerCase().endsWith('.pdf') ? safe : `${safe}.pdf`;
}
