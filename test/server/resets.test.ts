import { afterEach, describe, expect, it } from 'vitest';
import { callOverSocket, resetUpgrade, startLiveServer, type LiveServer } from './harness';

let live: LiveServer | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

describe('quire serve and clients that reset the connection', () => {
  it('keeps serving after unauthenticated WebSocket upgrades are reset mid-refusal', async () => {
    live = await startLiveServer();
    const resets = 30;
    for (let i = 0; i < resets; i++) await resetUpgrade(live.server.port);
    const page = await fetch(`${live.origin}/`);
    expect(page.status).toBe(401);
    const listed = await callOverSocket(live, 'library.list', {});
    expect(listed).toMatchObject({ ok: true, value: { roots: [] } });
    console.log(`quire serve survived ${resets} reset connections`);
  });
});
