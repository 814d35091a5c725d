import { followReferences } from '../research/followReferences';
import { webSearch } from '../research/webSearchTool';
import { answer } from './answer';
import { directoryTree, grepFiles } from './fileTools';
import { findDocuments } from './findDocuments';
import { libraryTool } from './libraryTool';
import { openCitation } from './openCitation';
import { summarize } from './summarize';
import { textSearch } from './textSearch';
import type { AnyTool } from './types';
import { visualInterpretation } from './visualInterpretation';
import { visualSearch } from './visualSearch';

/**
 * Every tool the agent has, in the order the model sees them. `library` answers what the library holds
 * (it took over count_files, list_files and file_metadata, which stay exported for direct use).
 */
export function defaultTools(): AnyTool[] {
  return [
    textSearch,
    findDocuments,
    libraryTool,
    visualSearch,
    openCitation,
    followReferences,
    visualInterpretation,
    grepFiles,
    directoryTree,
    webSearch,
    summarize,
    answer,
  ];
}

export type { AnyTool, Tool, ToolContext, ToolYield } from './types';
