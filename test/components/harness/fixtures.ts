/**
 * The stand-in engine's default answers: a small library, a model set-up and drawn pages, each typed
 * by the contract so a change to it shows up here at compile time.
 */
import type { CallArgs, CallName, CallOutput } from '../../../src/shared/ipc/contract';
import type { MemoryBudget, RoleResolution } from '../../../src/shared/domain/models';
import type { PageWord } from '../../../src/shared/domain/pages';
import { DOCUMENTS, REPORTS } from './sampleLibrary';

type Answerer<K extends CallName> = (input: CallArgs<K>) => CallOutput<K>;
export type DefaultAnswers = { [K in CallName]?: Answerer<K> };

const ROLES: RoleResolution[] = [
  {
    role: 'decide',
    provider: 'ollama',
    endpoint: 'http://127.0.0.1:11434',
    model: 'qwen3:8b',
    reason: 'Served by Ollama on this machine.',
  },
  {
    role: 'answer',
    provider: 'ollama',
    endpoint: 'http://127.0.0.1:11434',
    model: 'qwen3:8b',
    reason: 'Served by Ollama on this machine.',
  },
  { role: 'embed', provider: 'builtin', endpoint: null, model: 'bm25', reason: 'Keyword search only.' },
  {
    role: 'pageEmbed',
    provider: null,
    endpoint: null,
    model: null,
    reason: 'No page embedding model is set up: pages are found by their text only.',
  },
  {
    role: 'see',
    provider: null,
    endpoint: null,
    model: null,
    reason: 'No vision model: charts and scanned pages are read by OCR only.',
  },
];

const BUDGET: MemoryBudget = {
  totalBytes: 16e9,
  availableBytes: 9e9,
  unifiedMemory: false,
  appHeadroomBytes: 1e9,
  entries: [],
  freeForModelsBytes: 8e9,
  notes: [],
};

export const SERVER = 'http://127.0.0.1:11434';

/** The words drawn on every stand-in page, in points on a 600 x 800 page. */
export function pageWords(page: number): PageWord[] {
  return ['Revenue', 'grew', `${page}%`].map((text, index) => ({
    text,
    box: { x: 60 + index * 90, y: 100, width: 80, height: 20 },
    estimated: false,
    line: 0,
  }));
}

let runs = 0;

export const DEFAULT_ANSWERS: DefaultAnswers = {
  'chat.ask': () => {
    runs += 1;
    return { runId: `run-${runs}`, conversationId: 'conversation-1' };
  },
  'library.list': () => ({
    roots: [REPORTS],
    documents: DOCUMENTS,
    skipped: [],
    scanning: false,
    revision: 1,
  }),
  'library.progress': () => ({
    filesDone: 0,
    filesTotal: 0,
    pagesDone: 0,
    pagesTotal: 0,
    pagesPerSecond: 0,
    etaSeconds: null,
    pagesToDraw: 0,
    pagesToRecognize: 0,
    paused: false,
    stopped: null,
    currentPath: null,
    work: [],
  }),
  'library.retry': ({ documentId }) => {
    const found = DOCUMENTS.find((doc) => doc.id === documentId);
    if (!found) throw new Error(`No stand-in document ${documentId}.`);
    return { ...found, state: 'queued', error: null };
  },
  'library.removeFolder': ({ rootId }) => ({
    rootId,
    undoUntil: new Date(Date.now() + 10_000).toISOString(),
  }),
  'library.undoRemove': () => REPORTS,
  'collections.list': () => [],
  'chat.conversations': () => [],
  'chat.cancel': () => null,
  'chat.trace': () => [],
  'search.notice': () => ({ notice: null }),
  'models.status': () => ({
    roles: ROLES,
    servers: [
      { kind: 'ollama', endpoint: SERVER, reachable: true, models: ['qwen3:8b', 'llama3.2:3b'], error: null },
    ],
    downloads: [],
    memory: BUDGET,
    unusableFiles: [],
  }),
  'memory.budget': () => BUDGET,
  'models.settings': () => ({ roles: {}, servers: [], setupDismissed: true }),
  'models.chooseRole': ({ role, choice }) => ({
    roles: choice ? { [role]: choice } : {},
    servers: [],
    setupDismissed: true,
  }),
  // The picture itself comes over the app's page-image scheme, which the test serves (componentTest.ts).
  'pages.get': ({ documentId, page, size }) => ({
    documentId,
    page,
    pageWidth: 600,
    pageHeight: 800,
    size,
    version: (0x10000000 + page).toString(16),
    textSource: { method: 'layer' },
  }),
  'pages.words': ({ documentId, page }) => ({
    documentId,
    page,
    pageWidth: 600,
    pageHeight: 800,
    source: 'layer',
    words: pageWords(page),
  }),
  // The desktop app's switch that lets other apps use the library: off until turned on.
  'mcpSharing.status': () => sharing(false),
  'mcpSharing.setEnabled': ({ enabled }) => sharing(enabled),
};

function sharing(enabled: boolean) {
  return {
    enabled,
    unsupportedReason: null,
    address: enabled ? 'http://127.0.0.1:7421/mcp' : null,
    token: enabled ? 'Qx0-token-of-thirty-two-chars-_9' : null,
    dataDir: '/home/ada/.config/Quire',
    error: null,
  };
}
