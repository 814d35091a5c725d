import { z } from 'zod';

/**
 * The desktop app's switch that lets other apps on this computer use the library over MCP: off until
 * the user turns it on; on, the app answers MCP (Streamable HTTP) on 127.0.0.1 behind a token.
 */
export const McpSharingStatus = z.object({
  /** The user's setting; false until they turn it on. */
  enabled: z.boolean(),
  /** Why this copy of Quire has no such switch (the CLI, `quire serve`); null in the desktop app. */
  unsupportedReason: z.string().nullable(),
  /** The MCP endpoint without its token while the app listens; null otherwise. */
  address: z.string().max(200).nullable(),
  /** The token a client sends (`?token=` or `Authorization: Bearer`); null while not listening. */
  token: z.string().max(200).nullable(),
  /** The app's data folder, for `quire mcp --data-dir`; null where unsupported. */
  dataDir: z.string().max(4096).nullable(),
  /** Why the app is not listening although the setting is on (the port in use), in one line. */
  error: z.string().max(500).nullable(),
});
export type McpSharingStatus = z.infer<typeof McpSharingStatus>;
