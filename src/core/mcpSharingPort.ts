import type { McpSharingStatus } from '../shared/domain/mcpSharing';
import { QuireError } from '../shared/errors';

/**
 * The desktop app's switch that lets other apps use the library over MCP, as the composition root and
 * the contract's handlers see it. The switch itself (mcp/mcpSharing.ts) is made above the root and
 * handed in (mcp/appMcpSharing.ts): the MCP server it starts reads the whole core.
 */
export interface McpSharingService {
  status(): McpSharingStatus;
  setEnabled(enabled: boolean): Promise<McpSharingStatus>;
  /** Reads the setting and, when it is on, starts listening. */
  load(): Promise<void>;
  dispose(): Promise<void>;
}

const NO_SWITCH =
  'Only the desktop app has this switch: quire serve already answers MCP at /mcp, and quire mcp over stdio.';

/** Where there is no switch (the CLI, `quire serve`): it says why and changes nothing. */
export function withoutMcpSharing(): McpSharingService {
  const status = (): McpSharingStatus => ({
    enabled: false,
    unsupportedReason: NO_SWITCH,
    address: null,
    token: null,
    dataDir: null,
    error: null,
  });
  return {
    status,
    setEnabled: () => Promise.reject(new QuireError('unsupported', NO_SWITCH)),
    load: () => Promise.resolve(),
    dispose: () => Promise.resolve(),
  };
}
