/*
 * The desktop app's switch that lets other apps on this computer use the library: a setting, off until
 * the user turns it on; on, an MCP listener on 127.0.0.1 behind a token kept in the data folder. A
 * listen error (the port in use) is shown in Settings; the app runs on without the listener.
 */
import { join } from 'node:path';
import type { McpSharingStatus } from '../../shared/domain/mcpSharing';
import { readJsonOr, writeJsonAtomic } from '../common/atomicFile';
import { storedToken } from '../server/auth';
import type { McpListener } from '../server/mcpListener';
import type { McpRequestHandler } from '../server/mcpDoor';
import type { McpSharingService } from '../mcpSharingPort';

/** The app's own port, next to `quire serve`'s 7420, so a client's config keeps working across starts. */
export const APP_MCP_PORT = 7421;

/** Its own token file: a client given the app's MCP address must not also open `quire serve`'s page. */
export const APP_MCP_TOKEN_FILE = 'mcp-token';

export interface McpSharingOptions {
  dataDir: string;
  /**
   * Where the app listens and what answers there (the MCP sessions, made when first switched on).
   */
  listen: { port: number; sessions: () => Promise<McpRequestHandler> };
  onStatus: (status: McpSharingStatus) => void;
  log?: (message: string) => void;
}

export class McpSharing implements McpSharingService {
  private enabled = false;
  private listener: McpListener | null = null;
  private token: string | null = null;
  private error: string | null = null;
  private disposed = false;
  /** Turning on and off one after another: a listener is never started while another closes. */
  private changes: Promise<void> = Promise.resolve();
  private readonly settingsPath: string;

  constructor(private readonly options: McpSharingOptions) {
    this.settingsPath = join(options.dataDir, 'settings', 'mcp.json');
  }

  /** Reads the setting and, when it is on, starts listening. */
  async load(): Promise<void> {
    const saved = await readJsonOr(this.settingsPath, { enabled: false });
    this.enabled = (saved as { enabled?: unknown }).enabled === true;
    await this.apply();
  }

  status(): McpSharingStatus {
    return {
      enabled: this.enabled,
      unsupportedReason: null,
      address: this.listener?.address ?? null,
      token: this.listener ? this.token : null,
      dataDir: this.options.dataDir,
      error: this.error,
    };
  }

  async setEnabled(enabled: boolean): Promise<McpSharingStatus> {
    await writeJsonAtomic(this.settingsPath, { enabled });
    this.enabled = enabled;
    await this.apply();
    return this.status();
  }

  /** Closes the listener and every session; the setting stays as the user left it. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.apply();
  }

  private apply(): Promise<void> {
    const next = this.changes.then(() => this.reconcile());
    this.changes = next.catch(() => undefined);
    return next;
  }

  private async reconcile(): Promise<void> {
    const want = this.enabled && !this.disposed;
    if (want && !this.listener) await this.open(this.options.listen);
    else if (!want && this.listener) {
      const closing = this.listener;
      this.listener = null;
      await closing.dispose();
    }
    if (!want) this.error = null;
    this.options.onStatus(this.status());
  }

  private async open({ port, sessions }: McpSharingOptions['listen']): Promise<void> {
    const log = this.options.log ?? ((message: string) => console.error(`Quire MCP: ${message}`));
    try {
      this.token = storedToken(this.options.dataDir, APP_MCP_TOKEN_FILE);
      // Loaded when first switched on: the HTTP server is no cost to a CLI command.
      const { startMcpListener } = await import('../server/mcpListener');
      this.listener = await startMcpListener({
        mcp: await sessions(),
        token: this.token,
        port,
        log,
      });
      this.error = null;
    } catch (error) {
      this.error = listenFailure(error, port);
      log(this.error);
    }
  }
}

function listenFailure(error: unknown, port: number): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return `Port ${port} is already in use by another program: other apps cannot reach the library until it is free.`;
  }
  if (code === 'EACCES') return `Quire may not listen on port ${port} on this computer.`;
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
  return `Could not listen on 127.0.0.1:${port}: ${reason}`;
}
