import { describe, expect, it } from 'vitest';
import { WriterFollower } from '../../src/core/location/sharedFollowing';

/*
 * The check a reader makes before each request (`quire mcp` beside the app): it reloads only when the
 * writer's mark moved, callers at the same moment share one check, and a commit during a reload is
 * caught by the next call.
 */

function follower(marks: string[]) {
  let reloads = 0;
  let onReload: (() => void) | null = null;
  let mark = marks[0]!;
  const following = new WriterFollower(
    async () => mark,
    async () => {
      reloads++;
      onReload?.();
    },
  );
  return {
    following,
    reloads: () => reloads,
    commit: (next: string) => (mark = next),
    duringReload: (hook: () => void) => (onReload = hook),
  };
}

describe('following a writer before each request', () => {
  it('reloads once at first, then only when the writer committed', async () => {
    const reader = follower(['v1']);
    await reader.following.catchUp();
    await reader.following.catchUp();
    expect(reader.reloads()).toBe(1);
    reader.commit('v2');
    await reader.following.catchUp();
    await reader.following.catchUp();
    expect(reader.reloads()).toBe(2);
  });

  it('shares one check among calls at the same moment', async () => {
    const reader = follower(['v1']);
    await Promise.all([reader.following.catchUp(), reader.following.catchUp(), reader.following.catchUp()]);
    expect(reader.reloads()).toBe(1);
  });

  it('reloads again when the writer committed while it was reloading', async () => {
    const reader = follower(['v1']);
    reader.duringReload(() => reader.commit('v2'));
    await reader.following.catchUp();
    reader.duringReload(() => undefined);
    await reader.following.catchUp();
    expect(reader.reloads()).toBe(2);
    await reader.following.catchUp();
    expect(reader.reloads()).toBe(2);
  });

  it('tries again at the next call when a reload failed', async () => {
    let fail = true;
    let reloads = 0;
    const following = new WriterFollower(
      async () => 'v1',
      async () => {
        reloads++;
        if (fail) throw new Error('the index is busy');
      },
    );
    await expect(following.catchUp()).rejects.toThrow('busy');
    fail = false;
    await following.catchUp();
    expect(reloads).toBe(2);
  });
});
