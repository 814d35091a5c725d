/*
 * The desktop app's MCP listener: Streamable HTTP at /mcp on 127.0.0.1 and nothing else, behind the
 * same door as `quire serve`'s /mcp (Host, Origin, token). Other apps on this computer reach the
 * library here; no page, no WebSocket, no CORS.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowedHosts, tokenCookieName } from './auth';
import { answerMcp, MCP_PATH, type McpRequestHandler } from './mcpDoor';

/** Loopback only: other machines never reach this listener, whatever the token. */
const HOST = '127.0.0.1';

const HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export interface McpListenerOptions {
  mcp: McpRequestHandler;
  token: string;
  /** 0 picks a free port (tests). */
  port: number;
  log: (message: string) => void;
}

export interface McpListener {
  /** The MCP endpoint without its token. */
  address: string;
  port: number;
  /** Closes every session and the listener; a client's next request is refused. */
  dispose(): Promise<void>;
}

/** Listens, or rejects with the listen error (EADDRINUSE and the like) after releasing the sessions. */
export async function startMcpListener(options: McpListenerOptions): Promise<McpListener> {
  let hosts = new Set<string>();
  let cookieName = '';
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    for (const [name, value] of Object.entries(HEADERS)) response.setHeader(name, value);
    response.on('error', () => response.destroy());
    if (pathOf(request) !== MCP_PATH) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: MCP is at /mcp.');
      return;
    }
    answerMcp(options.mcp, request, response, {
      hosts,
      token: options.token,
      cookieName,
      whereTheAddressIs: "in Quire's Settings",
      log: options.log,
    });
  };
  const server = createServer((request, response) => {
    try {
      onRequest(request, response);
    } catch (error) {
      options.log(`MCP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    }
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await options.mcp.dispose();
    throw error;
  }
  server.on('error', (error) => options.log(`MCP listener: ${error.message}`));
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(HOST, port);
  cookieName = tokenCookieName(port);
  return {
    address: `http://${HOST}:${port}${MCP_PATH}`,
    port,
    async dispose() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await options.mcp.dispose();
      // An open event stream (a session's GET) would hold close() until the client left.
      server.closeAllConnections();
      await closed;
    },
  };
}

function pathOf(request: IncomingMessage): string | null {
  try {
    return new URL(request.url ?? '/', 'http://localhost').pathname;
  } catch {
    return null;
  }
}
