/*
 * A stand-in for a SearXNG instance: `GET /search?q=...&format=json` answers in SearXNG's JSON format
 * (query, number_of_results, results with url/title/content/engine, answers, suggestions, infoboxes);
 * another format gets 403, as an instance without JSON enabled does. It also serves the PDFs its
 * results point to, so a download can be observed.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, startStandIn, type StandInServer } from './httpStandIn';

export interface SearxngStandInResult {
  /** A path on this stand-in (e.g. `/papers/a.pdf`) or a full URL elsewhere. */
  url: string;
  title: string;
  content: string;
}

export interface SearxngStandIn extends StandInServer {
  /** The queries asked, in order. */
  readonly queries: string[];
}

export async function startSearxngStandIn(
  results: SearxngStandInResult[],
  files: Record<string, Uint8Array> = {},
): Promise<SearxngStandIn> {
  const queries: string[] = [];
  let baseUrl = '';
  const absolute = (url: string) => (url.startsWith('/') ? `${baseUrl}${url}` : url);
  const server = await startStandIn((request, response: ServerResponse, raw) => {
    const url = new URL(raw.url ?? '/', 'http://127.0.0.1');
    if (request.path === '/search') {
      if (url.searchParams.get('format') !== 'json') {
        response.writeHead(403, { 'content-type': 'text/html' }).end('<h1>403 Forbidden</h1>');
        return;
      }
      const query = url.searchParams.get('q') ?? '';
      queries.push(query);
      sendJson(response, 200, {
        query,
        number_of_results: results.length,
        results: results.map((result, i) => ({
          url: absolute(result.url),
          title: result.title,
          content: result.content,
          engine: 'duckduckgo',
          engines: ['duckduckgo'],
          parsed_url: new URL(absolute(result.url)).href.split('/'),
          score: results.length - i,
          category: 'general',
        })),
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      });
      return;
    }
    const file = files[request.path];
    if (file) {
      response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': file.length }).end(file);
      return;
    }
    sendJson(response, 404, { error: 'not found' });
  });
  baseUrl = server.baseUrl;
  return Object.assign(server, { queries });
}
