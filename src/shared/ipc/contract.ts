/**
 * The one contract between the UI and the engine. Every call has an input and an output schema; every
 * event a payload schema. Electron IPC, the WebSocket bridge and the preload are all generated from
 * these keys, so a call that is not here does not exist.
 */
import { z } from 'zod';
import { LARGEST_PAGE_NUMBER } from '../domain/pageImageAddress';
import { AgentEvent, Conversation, ConversationSummary } from '../domain/agent';
import {
  DocumentInfo,
  IndexProgress,
  LibraryRoot,
  LibraryChange,
  LibraryListing,
  OcrSettings,
  OcrSettingsView,
} from '../domain/library';
import {
  DownloadProgress,
  MemoryBudget,
  ModelRole,
  ModelSettings,
  ModelsStatus,
  RoleChoice,
  SetupProposal,
  SetupRole,
} from '../domain/models';
import { LibraryLocationSetting, LibraryLocationView } from '../domain/location';
import { PageText, PageWords } from '../domain/pages';
import { Collection, CollectionName, DocumentsResult, Scope } from '../domain/scope';
import { ChunkSearchResult, PageImage, SearchMode, SearchResult } from '../domain/search';
import { WebSearchSettings, WebUrl } from '../domain/web';
import { UpdateStatus } from '../domain/updates';
import { McpSharingStatus } from '../domain/mcpSharing';
import type { ErrorInfo } from '../errors';

const id = z.string().min(1).max(200);
const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'Path contains a NUL character.');
const empty = z.object({}).strict();

export const calls = {
  /**
   * `limit`: only that many documents (in library order), those after the path `after` when given;
   * `omitted` in the answer counts the documents after them.
   */
  'library.list': {
    input: z
      .object({
        limit: z.number().int().positive().max(100_000).optional(),
        after: z.string().min(1).max(4096).optional(),
      })
      .strict(),
    output: LibraryListing,
  },
  'library.addFolder': { input: z.object({ path: absolutePath }).strict(), output: LibraryRoot },
  /** `undoable`: the folder can be put back with `library.undoRemove` for a few seconds. */
  'library.removeFolder': {
    input: z.object({ rootId: id, undoable: z.boolean().default(false) }).strict(),
    output: z.object({ rootId: id, undoUntil: z.string().nullable() }),
  },
  'library.undoRemove': { input: z.object({ rootId: id }).strict(), output: LibraryRoot },
  /** Reads a failed or quarantined file again, from its first attempt. */
  'library.retry': { input: z.object({ documentId: id }).strict(), output: DocumentInfo },
  'library.unlock': {
    input: z
      .object({ documentId: id, password: z.string().max(1024), remember: z.boolean().default(false) })
      .strict(),
    output: DocumentInfo,
  },
  'library.pause': { input: empty, output: IndexProgress },
  'library.resume': { input: empty, output: IndexProgress },
  'library.cancel': { input: empty, output: IndexProgress },
  'library.progress': { input: empty, output: IndexProgress },
  'ocr.settings': { input: empty, output: OcrSettingsView },
  'ocr.configure': { input: OcrSettings.partial().strict(), output: OcrSettingsView },
  'search.query': {
    input: z
      .object({
        query: z.string().min(1).max(2000),
        k: z.number().int().min(1).max(100).default(10),
        mode: SearchMode.optional(),
        /** Only these documents, folders or collections, applied before ranking. */
        scope: Scope.optional(),
      })
      .strict(),
    output: ChunkSearchResult,
  },
  /**
   * Every document in scope that holds the words (not the top k), with its count of matching passages
   * and the forms found; `related` also admits words of the same stem ("transformation" for "transformer").
   */
  'search.documents': {
    input: z
      .object({
        query: z.string().min(1).max(2000),
        scope: Scope.optional(),
        related: z.boolean().default(false),
      })
      .strict(),
    output: DocumentsResult,
  },
  /** Set while text searches run on BM25 alone, saying why (no embedding model, vectors not ready). */
  'search.notice': { input: empty, output: z.object({ notice: z.string().nullable() }) },
  /** Search with the query's other wordings fused in and the results re-ranked, with what fell back. */
  'search.retrieve': {
    input: z
      .object({
        query: z.string().min(1).max(2000),
        k: z.number().int().min(1).max(100).default(10),
        mode: SearchMode.optional(),
        /** Also search the query's keywords and sub-questions (and a model's rewrite), fused. */
        rewrite: z.boolean().default(false),
        /** Re-rank the results with the reranker model, else the chat model. */
        rerank: z.boolean().default(false),
        scope: Scope.optional(),
      })
      .strict(),
    output: SearchResult,
  },
  'webSearch.settings': { input: empty, output: WebSearchSettings },
  /** Turns web search on or off and sets its SearXNG instance; off by default. */
  'webSearch.configure': {
    input: z
      .object({
        enabled: z.boolean().optional(),
        searxngUrl: WebUrl.nullable().optional(),
        blockedDomains: z.array(z.string().min(1).max(253)).max(200).optional(),
      })
      .strict(),
    output: WebSearchSettings,
  },
  /** The user's approval of a PDF the agent proposed: downloads it into the library. */
  'library.addFromWeb': { input: z.object({ url: WebUrl }).strict(), output: z.object({ path: z.string() }) },
  'pages.get': {
    input: z
      .object({
        documentId: id,
        page: z.number().int().min(1).max(LARGEST_PAGE_NUMBER),
        size: z.enum(['full', 'thumbnail']).default('full'),
      })
      .strict(),
    output: PageImage,
  },
  /** A page Quire laid out (Word, slides, sheets, web pages, books, text), as formatted text. */
  'pages.text': {
    input: z
      .object({
        documentId: id,
        page: z.number().int().min(1).max(LARGEST_PAGE_NUMBER),
      })
      .strict(),
    output: PageText,
  },
  /** The words of a page with their boxes, for the viewer's text layer and its highlights. */
  'pages.words': {
    input: z
      .object({
        documentId: id,
        page: z.number().int().min(1).max(LARGEST_PAGE_NUMBER),
      })
      .strict(),
    output: PageWords,
  },
  /** Opens a document in the system's own viewer (the desktop app only). */
  'pages.openExternal': {
    input: z.object({ documentId: id }).strict(),
    output: z.object({ opened: z.literal(true) }),
  },
  'models.status': { input: empty, output: ModelsStatus },
  'models.refresh': { input: empty, output: ModelsStatus },
  /** Every file of a catalogue model, one download each. */
  'models.download': { input: z.object({ model: id }).strict(), output: z.array(DownloadProgress) },
  /** The model set the setup proposes for this machine. */
  'models.recommend': { input: empty, output: SetupProposal },
  /** Starts the setup for these roles (all by default); finishing saves the choices. */
  'models.setup': {
    input: z.object({ roles: z.array(SetupRole).min(1).max(7).optional() }).strict(),
    output: z.object({ downloads: z.array(DownloadProgress) }),
  },
  'models.dismissSetup': { input: empty, output: ModelSettings },
  'models.pauseDownload': { input: z.object({ downloadId: id }).strict(), output: DownloadProgress },
  'models.resumeDownload': { input: z.object({ downloadId: id }).strict(), output: DownloadProgress },
  'models.cancelDownload': { input: z.object({ downloadId: id }).strict(), output: DownloadProgress },
  'models.settings': { input: empty, output: ModelSettings },
  'models.chooseRole': {
    input: z.object({ role: ModelRole, choice: RoleChoice.nullable() }).strict(),
    output: ModelSettings,
  },
  'models.setServers': {
    input: z.object({ servers: ModelSettings.shape.servers }).strict(),
    output: ModelSettings,
  },
  'memory.budget': { input: empty, output: MemoryBudget },
  'chat.ask': {
    input: z
      .object({
        question: z.string().min(1).max(4000),
        conversationId: id.optional(),
        /** Pause and ask when the question is ambiguous (a `clarify` event); else assume and say so. */
        clarify: z.boolean().default(true),
        /** Show the sub-questions of a compound question for approval first (a `plan_review` event). */
        reviewPlan: z.boolean().default(false),
        /**
         * What to search: kept by the conversation for later turns and restarts. Absent keeps the
         * conversation's scope; null (or an empty scope) asks the whole library again.
         */
        scope: Scope.nullable().optional(),
      })
      .strict(),
    output: z.object({ runId: z.string(), conversationId: z.string() }),
  },
  /** Answers a paused run's `clarify` question: a choice's index, or null to let the agent assume. */
  'chat.clarify': {
    input: z
      .object({ conversationId: id, runId: id, choice: z.number().int().min(0).max(20).nullable() })
      .strict(),
    output: z.object({ runId: z.string(), conversationId: z.string() }),
  },
  /** Approves a paused run's plan, as shown or edited: the sub-questions to research. */
  'chat.approvePlan': {
    input: z
      .object({
        conversationId: id,
        runId: id,
        subQuestions: z.array(z.string().trim().min(1).max(500)).min(1).max(8),
      })
      .strict(),
    output: z.object({ runId: z.string(), conversationId: z.string() }),
  },
  'chat.cancel': { input: z.object({ runId: id }).strict(), output: z.null() },
  'chat.conversations': { input: empty, output: z.array(ConversationSummary) },
  'chat.conversation': { input: z.object({ conversationId: id }).strict(), output: Conversation },
  'chat.trace': { input: z.object({ runId: id }).strict(), output: z.array(AgentEvent) },
  'collections.list': { input: empty, output: z.array(Collection) },
  'collections.create': { input: z.object({ name: CollectionName }).strict(), output: Collection },
  'collections.rename': {
    input: z.object({ name: CollectionName, to: CollectionName }).strict(),
    output: Collection,
  },
  /** Deletes the collection only: its documents stay in the library. */
  'collections.delete': { input: z.object({ name: CollectionName }).strict(), output: z.null() },
  /** Adds documents or folders (absolute paths inside the library). */
  'collections.add': {
    input: z.object({ name: CollectionName, paths: z.array(absolutePath).min(1).max(1000) }).strict(),
    output: Collection,
  },
  'collections.remove': {
    input: z.object({ name: CollectionName, paths: z.array(absolutePath).min(1).max(1000) }).strict(),
    output: Collection,
  },
  'location.current': { input: empty, output: LibraryLocationView },
  /** Saves where the library lives from the next start; null is the local data folder. */
  'location.save': {
    input: z.object({ setting: LibraryLocationSetting.nullable() }).strict(),
    output: LibraryLocationView,
  },
  'updates.status': { input: empty, output: UpdateStatus },
  /** Turning checks on checks at once; nothing is downloaded without `updates.download`. */
  'updates.setEnabled': { input: z.object({ enabled: z.boolean() }).strict(), output: UpdateStatus },
  'updates.check': { input: empty, output: UpdateStatus },
  /** The user's consent: downloads the version the last check offered and verifies it. */
  'updates.download': { input: empty, output: UpdateStatus },
  /** Quits, installs the downloaded version and starts it. */
  'updates.install': { input: empty, output: z.null() },
  'mcpSharing.status': { input: empty, output: McpSharingStatus },
  /** On: other apps on this computer may use the library over MCP, on 127.0.0.1 with a token. */
  'mcpSharing.setEnabled': { input: z.object({ enabled: z.boolean() }).strict(), output: McpSharingStatus },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  'library.onChanged': LibraryChange,
  'library.onProgress': IndexProgress,
  'chat.onEvent': AgentEvent,
  'memory.onBudget': MemoryBudget,
  'models.onStatus': ModelsStatus,
  'models.onDownload': DownloadProgress,
  'updates.onStatus': UpdateStatus,
  'mcpSharing.onStatus': McpSharingStatus,
} as const satisfies Record<string, z.ZodType>;

export type CallName = keyof typeof calls;
export type EventName = keyof typeof events;
/** What a caller passes (defaults may be omitted). */
export type CallInput<K extends CallName> = z.input<(typeof calls)[K]['input']>;
/** What a handler receives, after validation filled in defaults. */
export type CallArgs<K extends CallName> = z.output<(typeof calls)[K]['input']>;
export type CallOutput<K extends CallName> = z.output<(typeof calls)[K]['output']>;
export type EventPayload<K extends EventName> = z.output<(typeof events)[K]>;

export type CallResult<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** The Electron IPC channel of a call or event; one prefix so main can refuse anything else. */
export function channelOf(name: CallName | EventName): string {
  return `quire:${name}`;
}

/**
 * The IPC channel on which the window says it no longer wants a call's answer, by the call id it sent
 * with the call; not a call itself (no call name lacks a dot), so it needs no answer.
 */
export const CANCEL_CHANNEL = 'quire:cancel';

/** A call id, which a transport sends with a call to cancel it later: a whole number from 0. */
export function isCallId(id: unknown): id is number {
  return Number.isSafeInteger(id) && (id as number) >= 0;
}

export interface CallOptions {
  /** Aborting it cancels the call: it ends `{ ok: false, error: { code: 'cancelled' } }`. */
  signal?: AbortSignal;
}

/** The typed API the renderer sees, whichever transport carries it. */
export type QuireApi = {
  [K in CallName]: (input: CallInput<K>, options?: CallOptions) => Promise<CallResult<CallOutput<K>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};
