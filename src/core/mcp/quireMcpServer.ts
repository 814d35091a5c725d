/*
 * Quire's MCP server: the library's tools and resources on the official SDK's McpServer, with no
 * transport of its own. `quire mcp` connects one to stdio; `quire serve` one per HTTP session.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Core } from '../createCore';
import { registerAskTool } from './askTool';
import { registerLibraryTools } from './libraryTools';
import { announceListChanges, registerLibraryResources } from './libraryResources';
import { registerPageTool } from './pageTool';

export type McpCore = Pick<
  Core,
  'library' | 'index' | 'ingestion' | 'pageImages' | 'dispatch' | 'agent' | 'models' | 'events'
>;

export interface QuireMcpServer {
  server: McpServer;
  dispose(): Promise<void>;
}

const INSTRUCTIONS =
  "Quire is the user's local document library (PDFs and other files, indexed on this computer). " +
  'Use search to find passages, find_documents to list every file mentioning a term, read_page to read a page ' +
  '(text and image) before quoting it, and library to see the folders and files. Cite the path and page. ' +
  "ask runs Quire's own answering agent when a local model is set up.";

export function createQuireMcpServer(core: McpCore, version: string): QuireMcpServer {
  const server = new McpServer(
    { name: 'quire', title: 'Quire', version },
    { capabilities: { logging: {} }, instructions: INSTRUCTIONS },
  );
  registerLibraryTools(server, core);
  registerPageTool(server, core);
  registerAskTool(server, core);
  registerLibraryResources(server, core);
  const stopAnnouncing = announceListChanges(server, core);
  return {
    server,
    async dispose() {
      stopAnnouncing();
      await server.close();
    },
  };
}
