import type { AgentService } from './agent/agentService';
import type { RetrievalService } from './retrieval/retrievalService';
import type { WebService } from './web/webService';
import type { PageImageStore } from './documents/render/pageImageStore';
import type { Index } from './index/openIndex';
import type { Ingestion } from './ingestion/ingestion';
import type { OcrSettingsStore } from './ingestion/ocrSettingsStore';
import type { LibraryService } from './library/libraryService';
import type { MemoryBudgetService } from './memory/memoryBudgetService';
import type { ModelService } from './models/modelService';
import type { ModelSettingsStore } from './models/modelSettingsStore';
import type { UpdateService } from './updates/updateService';

/**
 * The services the composition root builds, as the modules that use them see them (the contract's
 * handlers, the agent's ports, page images). Kept apart from createCore so those modules do not
 * import the root that imports them.
 */
export interface CoreServices {
  readonly library: LibraryService;
  /** Open after `start()`. */
  readonly index: Index;
  readonly ingestion: Ingestion;
  readonly pageImages: PageImageStore;
  readonly memory: MemoryBudgetService;
  readonly models: ModelService;
  readonly modelSettings: ModelSettingsStore;
  readonly agent: AgentService;
  /** Search with query rewriting and re-ranking. */
  readonly retrieval: RetrievalService;
  /** Web search (off by default) and approved PDF downloads. */
  readonly web: WebService;
  readonly updates: UpdateService;
  /** Whether scanned pages are read with OCR, with which engine and languages. */
  readonly ocrSettings: OcrSettingsStore;
}
