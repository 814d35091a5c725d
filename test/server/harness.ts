import { mkdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createCore, type Core } from '../../src/core/createCore';
import { startLoopbackServer, type LoopbackServer } from '../../src/core/server/loopbackServer';
import { tempDir } from '../helpers/shared';

export interface LiveServer {
  core: Core;
  server: LoopbackServer;
  dataDir: string;
  /** Where the test may create library folders. */
  workDir: string;
  staticDir: string;
  origin: string;
  wsUrl: string;
  close(): Promise<void>;
}

/**
 * The real core and the real loopback server in this process, on a free port, over a stub UI build.
 * `beforeStart` can change the build and the work folder before the server reads the build.
 */
export async function startLiveServer(
  beforeStart?: (folders: { staticDir: string; workDir: string }) => Promise<void>,
): Promise<LiveServer> {
  const dir = await tempDir('quire-serve-');
  const dataDir = join(dir.path, 'data');
  const workDir = join(dir.path, 'work');
  const staticDir = join(dir.path, 'renderer');
  await mkdir(workDir, { recursive: true });
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(
    join(staticDir, 'index.html'),
    '<!doctype html><html><head><title>Quire</title></head><body><div id="root"></div></body></html>',
  );
  await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log("quire");');
  await beforeStart?.({ staticDir, workDir });
  const core = createCore({ dataDir, detectServers: false, findModels: false, ingest: false });
  await core.start();
  const server = await startLoopbackServer({ core, staticDir, port: 0 });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    core,
    server,
    dataDir,
    workDir,
    staticDir,
    origin,
    wsUrl: `ws://127.0.0.1:${server.port}/ws?token=${server.token}`,
    async close() {
      await server.dispose();
      await core.dispose();
      await dir.cleanup();
    },
  };
}

/** An unauthenticated WebSocket upgrade whose TCP connection is reset as soon as it is written. */
export function resetUpgrade(port: number): Promise<void> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      socket.resetAndDestroy();
      setTimeout(done, 20);
    });
    socket.on('error', () => done());
  });
}

export function openSocket(live: LiveServer): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(live.wsUrl, { origin: live.origin });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** One contract call over a fresh WebSocket, the way the browser UI makes it. */
export async function callOverSocket(live: LiveServer, name: string, input: unknown): Promise<unknown> {
  const ws = await openSocket(live);
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} got no answer`)), 15_000);
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { type: string; id: number; result: unknown };
        if (frame.type === 'result' && frame.id === 1) {
          clearTimeout(timer);
          resolve(frame.result);
        }
      });
      ws.on('close', () => reject(new Error(`${name}: the server closed the socket`)));
      ws.send(JSON.stringify({ type: 'call', id: 1, name, input }));
    });
  } finally {
    ws.terminate();
  }
}

export interface FrameOutcome {
  /** The close code the server sent, when it closed the connection. */
  closeCode?: number;
  /** The result frame, when the server answered the call. */
  answer?: unknown;
}

/** Sends one frame on a fresh connection and reports whether the server answered or closed it. */
export async function sendFrameAndObserve(
  live: LiveServer,
  data: string | Buffer,
  binary: boolean,
): Promise<FrameOutcome> {
  const ws = await openSocket(live);
  ws.on('error', () => undefined);
  try {
    return await new Promise<FrameOutcome>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the server neither answered nor closed')), 10_000);
      ws.on('message', (message) => {
        const frame = JSON.parse(String(message)) as { type: string };
        if (frame.type !== 'result') return;
        clearTimeout(timer);
        resolve({ answer: frame });
      });
      ws.on('close', (code) => {
        clearTimeout(timer);
        resolve({ closeCode: code });
      });
      ws.send(data, { binary });
    });
  } finally {
    ws.terminate();
  }
}
