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

/** Sessions kept at once; a client past this is asked to come back rather than exhaust memory. */
export const MAX_SESSIONS = 200;

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

export function createMcpHttpHandler(core: McpCore, version: string): McpHttpHandler {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; mcp: QuireMcpServer }>();

  const startSession = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    if (sessions.size >= MAX_SESSIONS) {
      jsonRpcError(response, 503, -32000, 'Too many MCP sessions are open; close one and try again.');
      return;
    }
    const mcp = createQuireMcpServer(core, version);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, mcp });
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
        const session = sessionId ? sessions.get(sessionId) : undefined;
        if (session) return session.transport.handleRequest(request, response, read.body);
        if (sessionId) return jsonRpcError(response, 404, -32001, 'Session not found: initialize again.');
        if (!isInitializeRequest(read.body))
          return jsonRpcError(response, 400, -32000, 'Bad request: start with an initialize request.');
        return startSession(request, response, read.body);
      }
      if (request.method === 'GET' || request.method === 'DELETE') {
        const session = sessionId ? sessions.get(sessionId) : undefined;
        if (!session)
          return jsonRpcError(response, sessionId ? 404 : 400, -32000, 'Missing or unknown session.');
        return session.transport.handleRequest(request, response);
      }
      response.writeHead(405, { Allow: 'GET, POST, DELETE' }).end();
    },
    async dispose() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map(({ transport }) => transport.close().catch(() => undefined)));
    },
  };
}
