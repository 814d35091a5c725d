import type { AgentService } from './agent/agentService';
import type { RetrievalService } from './retrieval/retrievalService';
import type { WebService } from './web/webService';
import type { PageImageStore } from './documents/render/pageImageStore';
import type { Index } from './index/openIndex';
import type { Ingestion } from './ingestion/ingestion';
import type { OpenPdfReaders } from './documents/pdf/openPdfReaders';
import type { OcrStore } from './documents/ocr/ocrStore';
import type { OcrSettingsStore } from './ingestion/ocrSettingsStore';
import type { LibraryService } from './library/libraryService';
import type { MemoryBudgetService } from './memory/memoryBudgetService';
import type { ModelService } from './models/modelService';
import type { ModelSettingsStore } from './models/modelSettingsStore';
import type { SetupService } from './models/setup/setupService';
import type { UpdateService } from './updates/updateService';
import type { McpSharingService } from './mcpSharingPort';
import type { LibraryChangeFeed } from './library/libraryChanges';
import type { LocationSettings } from './location/locationSetting';

/**
 * The services the composition root builds, as the modules that use them see them (the contract's
 * handlers, the agent's ports, page images). Kept apart from createCore so those modules do not
 * import the root that imports them.
 */
export interface CoreServices {
  readonly library: LibraryService;
  /** The library as listed, and its changes as they are sent. */
  readonly libraryChanges: LibraryChangeFeed;
  /** Open after `start()`. */
  readonly index: Index;
  readonly ingestion: Ingestion;
  readonly pageImages: PageImageStore;
  readonly memory: MemoryBudgetService;
  readonly models: ModelService;
  readonly modelSettings: ModelSettingsStore;
  /** First-run model setup: the proposal for this machine, and fetching it. */
  readonly setup: SetupService;
  readonly agent: AgentService;
  /** Search with query rewriting and re-ranking. */
  readonly retrieval: RetrievalService;
  /** Web search (off by default) and approved PDF downloads. */
  readonly web: WebService;
  readonly updates: UpdateService;
  /** The desktop app's switch that lets other apps on this computer use the library over MCP. */
  readonly mcpSharing: McpSharingService;
  /** Whether scanned pages are read with OCR, with which engine and languages. */
  readonly ocrSettings: OcrSettingsStore;
  /** Where the library lives (local folder or object storage), as saved for the next start. */
  readonly location: LocationSettings;
  /** What OCR read on each page, by content: the viewer's words for scanned pages. */
  readonly ocrResults: OcrStore;
  /** PDFs kept open between calls for the viewer's words. */
  readonly pdfReaders: OpenPdfReaders;
  /** Opens a file in the system's own viewer (the desktop app); null where there is no desktop. */
  readonly openFile: ((path: string) => Promise<void>) | null;
}
