/*
 * The one door to MCP over HTTP, for `quire serve`'s /mcp and the desktop app's own listener: the
 * Host, then a browser's Origin, then the token, and only then the MCP sessions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAllowedHost, isAllowedOrigin, isAuthorised } from './auth';

/** Where MCP clients reach the library over HTTP. */
export const MCP_PATH = '/mcp';

/** What answers MCP requests once they are let in (`createMcpHttpHandler`). */
export interface McpRequestHandler {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  dispose(): Promise<void>;
}

export interface McpDoorChecks {
  /** `host:port` names the listener answers to (`allowedHosts`). */
  hosts: Set<string>;
  token: string;
  /** The cookie a browser may carry the token in (`tokenCookieName`). */
  cookieName: string;
  /** Where a client without the token finds the right address, for the 401's message. */
  whereTheAddressIs: string;
  log: (message: string) => void;
}

/**
 * An MCP client is no browser: it sends the token as a bearer header or in the address, and usually no
 * Origin. A browser page's fetch sends its Origin, and a foreign one is refused (DNS rebinding).
 */
export function answerMcp(
  mcp: McpRequestHandler,
  request: IncomingMessage,
  response: ServerResponse,
  checks: McpDoorChecks,
): void {
  if (!isAllowedHost(request, checks.hosts)) {
    response.writeHead(403, { 'Content-Type': 'text/plain' }).end('Forbidden host');
    return;
  }
  if (request.headers.origin !== undefined && !isAllowedOrigin(request, checks.hosts)) {
    response.writeHead(403, { 'Content-Type': 'text/plain' }).end('Forbidden origin');
    return;
  }
  if (!isAuthorised(request, checks.token, checks.cookieName)) {
    response.writeHead(401, { 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: {
          code: -32001,
          message: `Missing or wrong token: use the MCP address ${checks.whereTheAddressIs}.`,
        },
        id: null,
      }),
    );
    return;
  }
  mcp.handle(request, response).catch((error: unknown) => {
    checks.log(`MCP request failed: ${error instanceof Error ? error.message : String(error)}`);
    if (!response.headersSent) response.writeHead(500).end();
    else response.destroy();
  });
}
