/*
 * A question in one language about documents in another, over the real OpenAI-compatible client and a
 * stand-in server that streams its replies as SSE: the first search also runs on the model's
 * translation, and the steps say so; a question in the documents' language, or one too short to
 * judge, translates nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { runAgent } from '../../src/core/agent/runAgent';
import { libraryTool } from '../../src/core/agent/tools/libraryTool';
import type { ToolContext } from '../../src/core/agent/tools/types';
import { detectDocumentLanguage } from '../../src/core/language/detectLanguage';
import { OpenAIClient } from '../../src/core/models/openai/openaiClient';
import { OpenAIChatModel } from '../../src/core/models/openai/openaiModels';
import { AgentEvent } from '../../src/shared/domain/agent';
import { scriptedReplies, type ScriptedDecision } from '../standins/scriptedAgent';
import { startOpenAIStandIn, type OpenAIStandIn } from '../standins/openaiStandIn';
import { fakePorts, type FakePage } from './fakePorts';

/** A German maintenance manual and an English safety sheet (their text written for this test). */
const PAGES: FakePage[] = [
  {
    documentId: 'doc-wartung',
    path: '/library/wartung.pdf',
    page: 1,
    paragraphs: [
      'Die Wartung der Anlage erfolgt zweimal im Jahr durch einen zugelassenen Fachbetrieb.',
      'Vor jeder Prüfung muss die Stromversorgung getrennt und gegen Wiedereinschalten gesichert werden.',
    ],
  },
  {
    documentId: 'doc-wartung',
    path: '/library/wartung.pdf',
    page: 2,
    paragraphs: [
      'Die Ergebnisse werden im Prüfbuch eingetragen und vom Betreiber drei Jahre lang aufbewahrt.',
    ],
  },
];

const TRANSLATION = 'Wie oft muss die Anlage gewartet werden und wer darf die Prüfung durchführen?';

const decisions: ScriptedDecision[] = [
  { tool: 'text_search', inputs: { query: 'how often installation serviced', k: '5', mode: 'hybrid' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];

const isTranslationRequest = (body: Record<string, unknown>) =>
  JSON.stringify(body.response_format ?? null).includes('"translation"');

let standIn: OpenAIStandIn | null = null;
afterEach(async () => {
  await standIn?.close();
  standIn = null;
});

async function ask(question: string, translationReply = JSON.stringify({ translation: TRANSLATION })) {
  const script = scriptedReplies(decisions, 'Die Wartung der Anlage erfolgt zweimal im Jahr [1].');
  standIn = await startOpenAIStandIn([{ id: 'scripted-chat', kind: 'chat' }], {
    // The translation arrives in small pieces, as a server streams it.
    reply: (body) =>
      isTranslationRequest(body) ? (translationReply.match(/.{1,7}/gsu) ?? []) : script(body.response_format),
  });
  const model = new OpenAIChatModel(new OpenAIClient({ baseUrl: standIn.baseUrl }), 'scripted-chat', false);
  const base = fakePorts({ models: { chatModel: async () => model }, pages: PAGES });
  // Each document's language as ingestion detects it, from its own text.
  const documents = (await base.libraryDocuments()).map((document) => ({
    ...document,
    language: detectDocumentLanguage(
      PAGES.filter((page) => page.documentId === document.id).map((page) => page.paragraphs.join('\n')),
    ),
  }));
  const ports = { ...base, libraryDocuments: async () => documents };
  const outcome = await runAgent({ runId: 'run-1', question, ports });
  for (const event of outcome.events) expect(() => AgentEvent.parse(event)).not.toThrow();
  const chats = standIn.bodiesAt('/v1/chat/completions');
  return { outcome, ports: base, documents, chats };
}

const statuses = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'status' ? [event.message] : []));

describe('A question in another language than the documents', () => {
  it('also searches the translation, shows it in the steps, and finds the passage only it matches', async () => {
    const { outcome, ports, documents, chats } = await ask(
      'How often must the installation be serviced, and who may carry out the test?',
    );
    expect(documents.map((document) => document.language)).toEqual(['deu']);
    // The model was asked for a German translation, over the streamed wire format.
    const translations = chats.filter(isTranslationRequest);
    expect(translations).toHaveLength(1);
    expect(translations[0]!.stream).toBe(true);
    expect(JSON.stringify(translations[0]!.messages)).toContain('into German');
    // The translation was searched, and the steps say so.
    expect(ports.calls.searchChunks).toEqual(['how often installation serviced', TRANSLATION]);
    expect(statuses(outcome.events)).toContain(`Searched also in German: "${TRANSLATION}" (3 passage(s)).`);
    const search = outcome.events.find(
      (event) => event.type === 'tool_result' && event.tool === 'text_search',
    );
    expect(search).toMatchObject({ summary: expect.stringContaining('also searched in German') });
    // The English words alone match nothing here: what was found came from the translation.
    expect(outcome.citations.map((citation) => citation.documentId)).toContain('doc-wartung');
  }, 60_000);

  it('translates nothing for a question in the documents’ language', async () => {
    const { outcome, ports, chats } = await ask(
      'Wie oft muss die Anlage gewartet werden und wer darf die Prüfung durchführen?',
    );
    expect(chats.filter(isTranslationRequest)).toHaveLength(0);
    expect(ports.calls.searchChunks).toEqual(['how often installation serviced']);
    expect(statuses(outcome.events).some((message) => message.includes('Searched also'))).toBe(false);
  }, 60_000);

  it('translates nothing for a question too short to tell its language', async () => {
    const { outcome, chats } = await ask('Service interval?');
    expect(chats.filter(isTranslationRequest)).toHaveLength(0);
    expect(statuses(outcome.events).some((message) => message.includes('Searched also'))).toBe(false);
  }, 60_000);

  it('says so in the steps when the model gives no usable translation, and answers from the rest', async () => {
    const { outcome, ports } = await ask(
      'How often must the installation be serviced, and who may carry out the test?',
      'Sorry, I cannot help with that.',
    );
    expect(ports.calls.searchChunks).toEqual(['how often installation serviced']);
    const said = statuses(outcome.events).filter((message) => message.includes('German'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Could not search in German, the language of some documents: .*JSON/);
    expect(outcome.events.at(-1)).toMatchObject({ type: 'complete' });
  }, 60_000);
});

describe('The library tool and languages', () => {
  it('counts documents by language and names each one’s language in a list', async () => {
    const base = fakePorts({ models: { chatModel: async () => null } });
    const [first, second] = await base.libraryDocuments();
    const documents = [
      { ...first!, language: detectDocumentLanguage(PAGES.map((page) => page.paragraphs.join('\n'))) },
      { ...second!, language: 'und' },
    ];
    const context = { ports: { ...base, libraryDocuments: async () => documents } } as unknown as ToolContext;
    const run = async (count_by: 'language' | 'none') => {
      const inputs = {
        name: '',
        folder: '',
        kind: 'all',
        ocr: 'any',
        sort: 'name',
        count_by,
        limit: 50,
      } as const;
      for await (const result of libraryTool.run(inputs, context))
        if (result.type === 'result') return result.text;
      return '';
    };
    expect((await run('language')).split('\n')).toEqual([
      '2 document(s) match.',
      'German: 1',
      'language unknown: 1',
    ]);
    expect(await run('none')).toContain(`${first!.path} (pdf, 2 p., 1000 B, modified 1970-01-01, German)`);
  });
});
