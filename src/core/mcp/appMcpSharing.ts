import { quireVersion } from '../common/quireVersion';
import type { AppMcpSharing } from '../createCore';
import { APP_MCP_PORT, McpSharing } from './mcpSharing';

/**
 * The desktop app's MCP switch: its port and the Streamable HTTP sessions on the app's core. Made
 * above the composition root (the MCP server reads the whole core); the SDK loads when first switched on.
 */
export function appMcpSharing(port: number = APP_MCP_PORT): AppMcpSharing {
  return ({ dataDir, core, onStatus }) =>
    new McpSharing({
      dataDir,
      onStatus,
      listen: {
        port,
        sessions: async () => {
          const { createMcpHttpHandler } = await import('./httpSessions');
          return createMcpHttpHandler(core(), quireVersion());
        },
      },
    });
}
