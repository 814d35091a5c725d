import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { eventNames } from '../../shared/ipc/contract';
import { FIRST_ROWS } from '../../shared/ipc/firstRows';
import type { Core } from '../createCore';
import {
  allowedHosts,
  isAllowedHost,
  isAllowedOrigin,
  isAuthorised,
  newToken,
  tokenCookieName,
  tokenOf,
} from './auth';
import { MAX_FRAME_BYTES } from './callFrames';
import { sendFrame, serveCallSocket } from './callSocket';
import { answerMcp, MCP_PATH, type McpRequestHandler } from './mcpDoor';
import { isPageImagePath, servePageImage } from './pageImageRoute';
import { RendererBuild } from './rendererBuild';

export interface LoopbackServerOptions {
  core: Core;
  /** The renderer build (out/renderer). */
  staticDir: string;
  /** 127.0.0.1 unless the user asks for another interface. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  /** Where problems with one client go; stderr by default. */
  log?: (message: string) => void;
  /** Answers MCP (Streamable HTTP) at /mcp, behind the same token and Host and Origin checks. */
  mcp?: McpRequestHandler;
}

export interface LoopbackServer {
  url: string;
  /** The MCP endpoint with its token, when MCP is served. */
  mcpUrl: string | null;
  port: number;
  token: string;
  dispose(): Promise<void>;
}

function securityHeaders(port: number): Record<string, string> {
  // 'self' covers the page's own WebSocket (same host and port); nothing else may be reached.
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    // Page images come from this server's own route (/page-images/), never as data: URLs.
    "img-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

/**
 * `quire serve`: the renderer build over HTTP and the contract over a WebSocket, for a browser on this
 * machine. Every request needs the token; the WebSocket also needs a same-origin Origin header.
 */
export async function startLoopbackServer(options: LoopbackServerOptions): Promise<LoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? newToken();
  const build = await RendererBuild.load(options.staticDir);
  const log = options.log ?? ((message: string) => console.error(`quire serve: ${message}`));
  let hosts = new Set<string>();
  let headers: Record<string, string> = {};
  let cookieName = '';

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.on('error', () => response.destroy());
    const path = pathOf(request);
    if (path === null) {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad request');
      return;
    }
    if (!isAllowedHost(request, hosts)) {
      response.writeHead(403, { 'Content-Type': 'text/plain' }).end('Forbidden host');
      return;
    }
    if (path === MCP_PATH && options.mcp) {
      answerMcp(options.mcp, request, response, {
        hosts,
        token,
        cookieName,
        whereTheAddressIs: 'quire serve printed',
        log,
      });
      return;
    }
    if (!isAuthorised(request, token, cookieName)) {
      response
        .writeHead(401, { 'Content-Type': 'text/plain' })
        .end('Missing or wrong token: open the URL quire serve printed.');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405).end();
      return;
    }
    if (tokenOf(request, cookieName).fromQuery) {
      response.setHeader('Set-Cookie', `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    }
    if (isPageImagePath(path)) {
      servePageImage(options.core, request, response).catch((error: unknown) => {
        log(`serving ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
        if (!response.headersSent) response.writeHead(500).end();
        else response.destroy();
      });
      return;
    }
    const firstRows = () => options.core.dispatch('library.list', { limit: FIRST_ROWS });
    build.serve(path, response, firstRows).catch((error: unknown) => {
      log(`serving ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
      response.destroy();
    });
  };

  const server = createServer((request, response) => {
    try {
      onRequest(request, response);
    } catch (error) {
      log(
        `${request.method} ${request.url} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    }
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  server.on('upgrade', (request, socket, head) => {
    // A client may reset the connection at any moment (a page that opens a WebSocket and closes it):
    // without a listener the ECONNRESET would end the process.
    socket.on('error', () => socket.destroy());
    const path = pathOf(request);
    const refuse = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
    };
    if (path !== '/ws' || !isAllowedHost(request, hosts)) return refuse('404 Not Found');
    if (!isAuthorised(request, token, cookieName)) return refuse('401 Unauthorized');
    if (!isAllowedOrigin(request, hosts)) return refuse('403 Forbidden');
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  });

  sockets.on('connection', (ws: WebSocket) => serveCallSocket(ws, options.core.dispatch, log));

  const unsubscribe = eventNames.map((name) =>
    options.core.events.on(name, (payload) => {
      for (const client of sockets.clients) sendFrame(client, { type: 'event', name, payload });
    }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(host, port);
  headers = securityHeaders(port);
  cookieName = tokenCookieName(port);
  const displayHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${displayHost}:${port}/?token=${token}`,
    mcpUrl: options.mcp ? `http://${displayHost}:${port}${MCP_PATH}?token=${token}` : null,
    port,
    token,
    async dispose() {
      for (const off of unsubscribe) off();
      await options.mcp?.dispose();
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The request's path, or null when its URL cannot be parsed. */
function pathOf(request: IncomingMessage): string | null {
  try {
    return new URL(request.url ?? '/', 'http://localhost').pathname;
  } catch {
    return null;
  }
}
