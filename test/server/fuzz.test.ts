import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeededRandom } from '../../src/core/common/seededRandom';
import {
  callOverSocket,
  openSocket,
  resetUpgrade,
  sendFrameAndObserve,
  startLiveServer,
  type LiveServer,
} from './harness';

/** Close codes a bad frame may get: unsupported data, invalid payload, policy violation, too big. */
const REFUSALS = [1003, 1007, 1008, 1009];

let live: LiveServer;
const tally = { frames: 0, connections: 0 };
const strays: unknown[] = [];
const onStray = (reason: unknown) => strays.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onStray);
  process.on('uncaughtException', onStray);
  live = await startLiveServer();
});
afterAll(async () => {
  process.off('unhandledRejection', onStray);
  process.off('uncaughtException', onStray);
  await live.close();
  console.log(
    `WebSocket fuzz: ${tally.frames} hostile frames and ${tally.connections} connections; ` +
      'quire serve answered a normal call after every group',
  );
});

async function hostile(data: string | Buffer, binary = false) {
  tally.frames++;
  tally.connections++;
  return sendFrameAndObserve(live, data, binary);
}

async function expectStillServing() {
  const listed = await callOverSocket(live, 'library.list', {});
  tally.connections++;
  expect(listed).toMatchObject({ ok: true, value: { roots: [] } });
  expect(strays).toEqual([]);
}

const call = (fields: Record<string, unknown>) => JSON.stringify({ type: 'call', id: 1, ...fields });

describe('quire serve under hostile WebSocket clients', () => {
  it('survives unauthenticated upgrades and authenticated connections that are reset', async () => {
    for (let i = 0; i < 30; i++) {
      await resetUpgrade(live.server.port);
      tally.connections++;
    }
    for (let i = 0; i < 10; i++) {
      const ws = await openSocket(live);
      ws.on('error', () => undefined);
      ws.send(call({ name: 'library.list', input: {} }));
      (ws as unknown as { _socket: { resetAndDestroy(): void } })._socket.resetAndDestroy();
      tally.connections++;
    }
    await expectStillServing();
  });

  it('closes oversized, non-UTF-8 and binary frames with the matching code', async () => {
    expect((await hostile('x'.repeat(2 * 1024 * 1024))).closeCode).toBe(1009);
    expect((await hostile(`${call({ name: 'search.query' })}${' '.repeat(1024 * 1024)}`)).closeCode).toBe(
      1009,
    );
    for (const bytes of [
      [0x7b, 0xff, 0xfe, 0x7d],
      [0xc0, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf8, 0x88, 0x80],
    ]) {
      expect((await hostile(Buffer.from(bytes), false)).closeCode).toBe(1007);
    }
    expect((await hostile(Buffer.from(call({ name: 'library.list', input: {} })), true)).closeCode).toBe(
      1003,
    );
    expect((await hostile(Buffer.alloc(0), true)).closeCode).toBe(1003);
    await expectStillServing();
  });

  it('closes frames of the wrong shape, unknown calls and prototype keys with a policy code', async () => {
    const malformed = ['', '{', '{"type":"call",', 'nul', '"\\ud800"x'];
    for (const text of malformed) expect((await hostile(text)).closeCode, text).toBe(1007);
    const wrongShape = [
      'null',
      '42',
      '"call"',
      'true',
      '[]',
      '[{"type":"call","id":1,"name":"library.list"}]',
      '{}',
      call({}),
      call({ name: { toString: null } }),
      call({ name: ['library.list'] }),
      call({ name: 'library.delete' }),
      call({ name: 'toString' }),
      call({ name: '__proto__' }),
      call({ name: 'constructor' }),
      call({ name: 'hasOwnProperty' }),
      call({ name: 'library.list', id: '1' }),
      call({ name: 'library.list', id: -1 }),
      call({ name: 'library.list', id: 1.5 }),
      call({ name: 'library.list', id: 2 ** 60 }),
      JSON.stringify({ type: 'result', id: 1, result: { ok: true } }),
      JSON.stringify({ type: 'event', name: 'library.onChanged', payload: {} }),
      call({ name: 'library.list', input: {}, extra: true }),
      '{"type":"call","id":1,"name":"library.list","__proto__":{"polluted":true}}',
      '{"type":"call","id":2,"name":"library.list","input":{"__proto__":{"x":1}}}',
      '{"type":"call","id":3,"name":"search.query","input":{"query":"a","constructor":{"prototype":{"x":1}}}}',
      '{"type":"call","id":4,"name":"models.setServers","input":{"servers":[{"__proto__":null}]}}',
      call({ name: 'library.list', input: JSON.parse('['.repeat(200) + ']'.repeat(200)) as unknown }),
    ];
    for (const text of wrongShape) expect((await hostile(text)).closeCode, text.slice(0, 80)).toBe(1008);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    await expectStillServing();
  });

  it('answers well-formed calls with bad input as typed errors, keeping the connection', async () => {
    for (const input of [null, 42, 'x', [], { unexpected: 1 }, { query: 7 }]) {
      const outcome = await hostile(call({ name: 'search.query', input }));
      expect(outcome.answer).toMatchObject({ type: 'result', id: 1, result: { ok: false } });
    }
    await expectStillServing();
  });

  it('survives random bytes and random mutations of valid frames', async () => {
    const random = new SeededRandom(0x5eed);
    const valid = [
      call({ name: 'library.list', input: {} }),
      call({ name: 'search.query', input: { query: 'trace tree', k: 3 } }),
      call({ name: 'pages.get', input: { documentId: 'doc-1', page: 2 } }),
    ];
    const randomBytes = (length: number) => Buffer.from(Array.from({ length }, () => random.int(256)));
    for (let i = 0; i < 150; i++) {
      const kind = i % 3;
      let data: Buffer;
      if (kind === 0) data = randomBytes(1 + random.int(512));
      else {
        data = Buffer.from(valid[random.int(valid.length)]!);
        for (let edits = 1 + random.int(4); edits > 0; edits--) {
          const at = random.int(data.length);
          if (kind === 1) data[at] = random.int(256);
          else
            data = Buffer.concat([data.subarray(0, at), randomBytes(random.int(8)), data.subarray(at + 1)]);
        }
      }
      const binary = random.next() < 0.2;
      const outcome = await hostile(data, binary);
      if (outcome.closeCode !== undefined)
        expect(REFUSALS, `close code for frame ${i}`).toContain(outcome.closeCode);
      else expect(outcome.answer).toMatchObject({ type: 'result' });
      if (i % 50 === 49) await expectStillServing();
    }
    await expectStillServing();
  });
});

describe('quire serve and unsafe requests from a token holder', () => {
  it('refuses unsafe server addresses and folders with typed errors', async () => {
    const server = await startLiveServer();
    try {
      for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,hi']) {
        const result = await callOverSocket(server, 'models.setServers', { servers: [url] });
        expect(result, url).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      }
      for (const folder of [server.dataDir, '/etc', '/proc/self/fd', '/']) {
        const result = await callOverSocket(server, 'library.addFolder', { path: folder });
        expect(result, folder).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      }
      const added = await callOverSocket(server, 'library.addFolder', { path: server.workDir });
      expect(added).toMatchObject({ ok: true, value: { path: server.workDir } });
    } finally {
      await server.close();
    }
  });
});
