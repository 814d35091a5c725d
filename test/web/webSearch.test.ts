import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/core/agent/runAgent';
import { filterResults, SearxngProvider } from '../../src/core/web/searxng';
import { WebService } from '../../src/core/web/webService';
import { AgentEvent } from '../../src/shared/domain/agent';
import type { WebResult } from '../../src/shared/domain/web';
import { fakePorts } from '../agent/fakePorts';
import { ScriptedModel, scriptedRoles } from '../agent/scriptedModel';
import { quireRejection } from '../helpers/rejection';
import { samplePdfBytes, samplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';
import { startSearxngStandIn, type SearxngStandIn } from '../standins/searxngStandIn';

const SNIPPET = 'Trace-based just-in-time compilation records hot loops and compiles them to machine code.';

let dir: { path: string; cleanup: () => Promise<void> };
let searx: SearxngStandIn;
let pdf: Uint8Array;
let added: string[];

beforeEach(async () => {
  dir = await tempDir('quire-web-');
  pdf = new Uint8Array(samplePdfBytes(samplePdfs[0]!.pages));
  searx = await startSearxngStandIn(
    [
      { url: 'https://blog.example.com/tracing', title: 'A blog post', content: SNIPPET },
      { url: '/papers/tracemonkey.pdf', title: 'TraceMonkey paper', content: SNIPPET },
      { url: 'https://spam.example.net/x', title: 'Spam', content: SNIPPET },
      { url: 'https://short.example.org/', title: 'Thin', content: 'too short' },
    ],
    {
      '/papers/tracemonkey.pdf': pdf,
      '/papers/fake.pdf': new TextEncoder().encode('<html>not a pdf</html>'),
    },
  );
  added = [];
});
afterEach(async () => {
  try {
    await searx?.close();
  } finally {
    await dir?.cleanup();
  }
});

function webService(): WebService {
  return new WebService({
    dataDir: dir.path,
    addLibraryFolder: async (path) => added.push(path),
    isLibraryFolder: (path) => added.includes(path),
  });
}

/** An agent run whose model insists on searching the web first. */
async function runWantingTheWeb(web: WebService) {
  const answerStep = { tool: 'answer', inputs: { style: 'short' }, end: true };
  const models = scriptedRoles({
    decide: new ScriptedModel(
      'decide',
      [{ tool: 'web_search', inputs: { query: 'trace compilation' } }],
      answerStep,
    ),
    answer: new ScriptedModel('answer', [], { answer: 'The documents do not say.' }),
  });
  const outcome = await runAgent({
    runId: 'web-run',
    question: 'How are hot loops compiled?',
    ports: { ...fakePorts({ models }), webSearch: () => web.provider() },
    limits: { maxIterations: 3, coverageRounds: 0 },
  });
  for (const event of outcome.events) AgentEvent.parse(event);
  return outcome;
}

describe('web search', () => {
  it('keeps nothing from blocked domains or with thin snippets, puts PDFs first and keeps the top N', () => {
    const result = (url: string, snippet = SNIPPET): WebResult => ({
      url,
      title: url,
      snippet,
      isPdf: url.endsWith('.pdf'),
    });
    const kept = filterResults(
      [
        result('https://a.example.com/1'),
        result('https://ads.spam.net/2'),
        result('https://b.example.com/doc.pdf'),
        result('https://c.example.com/3', 'short'),
        result('https://d.example.com/4'),
        result('https://a.example.com/1'),
      ],
      { blockedDomains: ['spam.net'], minSnippetChars: 20, maxResults: 2 },
    );
    expect(kept.map((r) => r.url)).toEqual(['https://b.example.com/doc.pdf', 'https://a.example.com/1']);
  });

  it("reads SearXNG's JSON format and says what to do when an instance has it disabled", async () => {
    const provider = new SearxngProvider(searx.baseUrl);
    const results = await provider.search('trace compilation');
    expect(searx.queries).toEqual(['trace compilation']);
    expect(results).toHaveLength(4);
    expect(results[1]).toMatchObject({ url: `${searx.baseUrl}/papers/tracemonkey.pdf`, isPdf: true });
    const refused = new SearxngProvider(`${searx.baseUrl}/not-there/`);
    const error = await quireRejection(refused.search('x'));
    expect(error.message).toMatch(/answered 404/);
  });

  it('is off by default, and while off nothing leaves the machine', async () => {
    const web = webService();
    await web.load();
    expect(web.settings.current.enabled).toBe(false);
    // An address alone does not turn it on.
    await web.settings.update({ searxngUrl: searx.baseUrl });
    expect(web.provider()).toBeNull();

    const outcome = await runWantingTheWeb(web);
    // The documents do not say, and without the web nothing else is asked: the answer declines.
    expect(outcome.status).toBe('declined');
    const errors = outcome.events
      .filter((e) => e.type === 'error')
      .map((e) => (e as { message: string }).message);
    expect(errors.join(' ')).toContain('"web_search" is not an available tool');
    expect(outcome.events.some((e) => e.type === 'network')).toBe(false);

    const refused = await quireRejection(web.addPdf(`${searx.baseUrl}/papers/tracemonkey.pdf`));
    expect(refused.code).toBe('forbidden');
    expect(searx.requests).toEqual([]);
  });

  it('when on, marks each use of the network, proposes PDFs and downloads one only when approved', async () => {
    const web = webService();
    await web.settings.update({
      enabled: true,
      searxngUrl: searx.baseUrl,
      blockedDomains: ['spam.example.net'],
    });
    const outcome = await runWantingTheWeb(web);
    const network = outcome.events.filter((e) => e.type === 'network');
    expect(network).toEqual([
      expect.objectContaining({
        host: new URL(searx.baseUrl).host,
        purpose: 'web search for "trace compilation"',
      }),
    ]);
    const proposals = outcome.events.filter((e) => e.type === 'proposal');
    expect(proposals).toEqual([
      expect.objectContaining({ url: `${searx.baseUrl}/papers/tracemonkey.pdf`, title: 'TraceMonkey paper' }),
    ]);
    const result = outcome.events.find((e) => e.type === 'tool_result' && e.tool === 'web_search');
    expect(result).toMatchObject({ items: 2 });
    // The run searched; it downloaded nothing.
    expect(searx.requests.map((r) => r.path)).toEqual(['/search']);

    const { path } = await web.addPdf(`${searx.baseUrl}/papers/tracemonkey.pdf`);
    expect(path).toBe(join(web.downloadsFolder, 'tracemonkey.pdf'));
    // Byte for byte (Buffer.equals: a deep toEqual over a megabyte is slow).
    expect(Buffer.from(await readFile(path)).equals(Buffer.from(pdf))).toBe(true);
    expect(added).toEqual([web.downloadsFolder]);
    const notPdf = await quireRejection(web.addPdf(`${searx.baseUrl}/papers/fake.pdf`));
    expect(notPdf.message).toMatch(/is not a PDF/);
  });
});
