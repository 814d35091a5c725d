/*
 * Web search behind one interface; the first provider is a SearXNG instance the user runs or trusts,
 * asked through its JSON format (`/search?q=...&format=json`).
 */
import type { WebResult, WebSearchSettings } from '../../shared/domain/web';
import { QuireError } from '../../shared/errors';
import { withDeadline } from './deadline';

export interface WebSearchProvider {
  /** The host every request goes to, for the trace. */
  readonly host: string;
  search(query: string, options?: { signal?: AbortSignal }): Promise<WebResult[]>;
}

const TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 2_000_000;

interface SearxngResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
}

export class SearxngProvider implements WebSearchProvider {
  readonly host: string;

  constructor(
    private readonly baseUrl: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.host = new URL(baseUrl).host;
  }

  async search(query: string, options: { signal?: AbortSignal } = {}): Promise<WebResult[]> {
    const url = new URL('search', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    const body = await withDeadline(TIMEOUT_MS, options.signal, async (signal, timedOut) => {
      let response: Response;
      try {
        response = await this.fetchImpl(url, { signal, headers: { accept: 'application/json' } });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        throw new QuireError(
          timedOut() ? 'timeout' : 'not_readable',
          `The web search at ${this.host} ${timedOut() ? 'did not answer in time' : 'could not be reached'}.`,
        );
      }
      if (!response.ok) {
        throw new QuireError(
          'not_readable',
          response.status === 403
            ? `The web search at ${this.host} refused the JSON format: enable "json" under search.formats in its settings.`
            : `The web search at ${this.host} answered ${response.status}.`,
        );
      }
      const text = await response.text();
      if (text.length > MAX_BODY_BYTES)
        throw new QuireError('not_readable', `The web search at ${this.host} sent too much.`);
      try {
        return JSON.parse(text) as { results?: unknown };
      } catch {
        throw new QuireError(
          'not_readable',
          `The web search at ${this.host} did not answer in SearXNG's JSON format.`,
        );
      }
    });
    const results = Array.isArray(body.results) ? (body.results as SearxngResult[]) : [];
    return results.flatMap((result) => {
      if (typeof result.url !== 'string' || !/^https?:\/\//i.test(result.url)) return [];
      return [
        {
          url: result.url,
          title: typeof result.title === 'string' ? result.title : result.url,
          snippet: typeof result.content === 'string' ? result.content.replace(/\s+/g, ' ').trim() : '',
          isPdf: isPdfUrl(result.url),
        },
      ];
    });
  }
}

export function isPdfUrl(url: string): boolean {
  try {
    return new URL(url).pathname.toLowerCase().endsWith('.pdf');
  } catch {
    return false;
  }
}

function blocked(url: string, domains: string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return true;
  }
  return domains.some((domain) => {
    const d = domain.toLowerCase().replace(/^\.+/, '');
    return host === d || host.endsWith(`.${d}`);
  });
}

/** Drops blocked domains and thin snippets, puts PDFs first (they can join the library), keeps the top N. */
export function filterResults(
  results: WebResult[],
  settings: Pick<WebSearchSettings, 'blockedDomains' | 'maxResults' | 'minSnippetChars'>,
): WebResult[] {
  const seen = new Set<string>();
  return results
    .filter((result) => !blocked(result.url, settings.blockedDomains))
    .filter((result) => result.snippet.length >= settings.minSnippetChars)
    .filter((result) => !seen.has(result.url) && Boolean(seen.add(result.url)))
    .map((result, order) => ({ result, order }))
    .sort((a, b) => Number(b.result.isPdf) - Number(a.result.isPdf) || a.order - b.order)
    .slice(0, settings.maxResults)
    .map(({ result }) => result);
}
