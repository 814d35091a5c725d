/*
 * MCP over Streamable HTTP for `quire serve`: one McpServer and transport per session, all on the one
 * core. The loopback server has checked the Host, the Origin and the token before a request gets here.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createQuireMcpServer, type McpCore, type QuireMcpServer } from './quireMcpServer';

/** A request body larger than this is refused before it is parsed: no tool takes more. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Sessions kept at once. Clients often leave without closing theirs: past this the least recently
 * used one is closed for the new one, and one unused for SESSION_IDLE_MS is closed anyway.
 */
export const MAX_SESSIONS = 200;
export const SESSION_IDLE_MS = 30 * 60_000;

export interface McpHttpHandler {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  readonly sessions: number;
  dispose(): Promise<void>;
}

function jsonRpcError(response: ServerResponse, status: number, code: number, message: string): void {
  if (response.headersSent) return;
  response
    .writeHead(status, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The body as JSON; undefined after answering the client itself (too large, not JSON). */
async function readJson(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<{ body: unknown } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      jsonRpcError(response, 413, -32600, `The request is larger than ${MAX_BODY_BYTES} bytes.`);
      request.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    jsonRpcError(response, 400, -32700, 'Parse error: the body is not JSON.');
    return undefined;
  }
}

export function createMcpHttpHandler(
  core: McpCore,
  version: string,
  limits: { maxSessions?: number } = {},
): McpHttpHandler {
  const maxSessions = limits.maxSessions ?? MAX_SESSIONS;
  interface Session {
    transport: StreamableHTTPServerTransport;
    mcp: QuireMcpServer;
    usedAt: number;
  }
  const sessions = new Map<string, Session>();
  const closeSession = (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    void session?.transport.close().catch(() => undefined);
  };
  const sweep = setInterval(() => {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, session] of sessions) if (session.usedAt < cutoff) closeSession(id);
  }, 60_000);
  sweep.unref();
  /** The session a request names, marked as used now. */
  const sessionFor = (id: string | undefined): Session | undefined => {
    const session = id === undefined ? undefined : sessions.get(id);
    if (session) session.usedAt = Date.now();
    return session;
  };

  const startSession = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    if (sessions.size >= maxSessions) {
      const [oldest] = [...sessions.entries()].sort(([, a], [, b]) => a.usedAt - b.usedAt)[0] ?? [];
      if (oldest !== undefined) closeSession(oldest);
    }
    const mcp = createQuireMcpServer(core, version);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, mcp, usedAt: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void mcp.dispose().catch(() => undefined);
    };
    await mcp.server.connect(transport);
    await transport.handleRequest(request, response, body);
  };

  return {
    get sessions() {
      return sessions.size;
    },
    async handle(request, response) {
      const header = request.headers['mcp-session-id'];
      const sessionId = typeof header === 'string' ? header : undefined;
      if (request.method === 'POST') {
        const read = await readJson(request, response);
        if (!read) return;
        const session = sessionFor(sessionId);
        if (session) return session.transport.handleRequest(request, response, read.body);
        if (sessionId) return jsonRpcError(response, 404, -32001, 'Session not found: initialize again.');
        if (!isInitializeRequest(read.body))
          return jsonRpcError(response, 400, -32000, 'Bad request: start with an initialize request.');
        return startSession(request, response, read.body);
      }
      if (request.method === 'GET' || request.method === 'DELETE') {
        const session = sessionFor(sessionId);
        if (!session)
          return jsonRpcError(response, sessionId ? 404 : 400, -32000, 'Missing or unknown session.');
        return session.transport.handleRequest(request, response);
      }
      response.writeHead(405, { Allow: 'GET, POST, DELETE' }).end();
    },
    async dispose() {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map(({ transport }) => transport.close().catch(() => undefined)));
    },
  };
}
