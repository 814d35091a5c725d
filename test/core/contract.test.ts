import { describe, expect, it } from 'vitest';
import { createDispatcher, type CallHandlers } from '../../src/core/api/dispatcher';
import { callNames, calls, type CallName } from '../../src/shared/ipc/contract';
import { QuireError } from '../../src/shared/errors';

/** Handlers that record that they ran; validation must stop bad input before any of them. */
function recordingHandlers(ran: CallName[]): CallHandlers {
  return Object.fromEntries(
    callNames.map((name) => [
      name,
      async () => {
        ran.push(name);
        throw new QuireError('not_found', 'handler reached');
      },
    ]),
  ) as unknown as CallHandlers;
}

/** Inputs no call accepts: wrong types, unknown keys, oversized strings. */
const malformedInputs: unknown[] = [
  'a string',
  42,
  [],
  { unexpected: true },
  {
    path: 7,
    rootId: 7,
    documentId: 7,
    query: 7,
    runId: 7,
    question: 7,
    model: 7,
    downloadId: 7,
    conversationId: 7,
  },
];

describe('the IPC contract', () => {
  it('rejects malformed input for every call with a typed error, before the handler runs', async () => {
    const ran: CallName[] = [];
    const dispatch = createDispatcher(recordingHandlers(ran));
    for (const name of callNames) {
      for (const input of malformedInputs) {
        const result = await dispatch(name, input);
        expect(result.ok, `${name} accepted ${JSON.stringify(input)}`).toBe(false);
        if (!result.ok) expect(result.error.code).toBe('invalid_input');
      }
    }
    expect(ran).toEqual([]);
  });

  it('accepts only http and https server addresses', async () => {
    const ran: CallName[] = [];
    const dispatch = createDispatcher(recordingHandlers(ran));
    const unsafe = [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/plain,hi',
      'ftp://host',
      'ws://h:1',
    ];
    for (const url of unsafe) {
      expect(await dispatch('models.setServers', { servers: [url] }), url).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
      const choice = { role: 'answer', choice: { model: 'qwen3:8b', endpoint: url } };
      expect(await dispatch('models.chooseRole', choice), url).toMatchObject({ ok: false });
    }
    expect(ran).toEqual([]);
    await dispatch('models.setServers', {
      servers: ['http://127.0.0.1:11434', 'https://gpu.example:8000/v1'],
    });
    expect(ran).toEqual(['models.setServers']);
  });

  it('refuses calls that are not in the contract', async () => {
    const dispatch = createDispatcher(recordingHandlers([]));
    for (const name of ['library.delete', '__proto__', 'constructor', 42, null, { toString: null }]) {
      const result = await dispatch(name, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    }
  });

  it('passes valid input through, fills defaults, and reports handler errors as values', async () => {
    const ran: CallName[] = [];
    const dispatch = createDispatcher(recordingHandlers(ran));
    const result = await dispatch('search.query', { query: 'tracemonkey' });
    expect(result).toEqual({ ok: false, error: { code: 'not_found', message: 'handler reached' } });
    expect(ran).toEqual(['search.query']);
    expect(calls['search.query'].input.parse({ query: 'x' }).k).toBe(10);
  });

  it('refuses paths with NUL bytes and oversized questions', async () => {
    const dispatch = createDispatcher(recordingHandlers([]));
    expect(await dispatch('library.addFolder', { path: '/tmp/a\0b' })).toMatchObject({ ok: false });
    expect(await dispatch('chat.ask', { question: 'x'.repeat(4001) })).toMatchObject({ ok: false });
  });

  it('catches a handler that returns something outside its output schema', async () => {
    const handlers = recordingHandlers([]);
    handlers['library.list'] = async () => ({ roots: 'nope' }) as never;
    const result = await createDispatcher(handlers)('library.list', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});

/** Resolves once `signal` aborts, the way a service that takes a signal stops. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });

describe('cancelling a call', () => {
  it('aborts the signal its handler waits on and answers cancelled', async () => {
    const handlers = recordingHandlers([]);
    const seen: AbortSignal[] = [];
    handlers['search.query'] = async (_args, signal) => {
      seen.push(signal);
      return untilAborted(signal);
    };
    const controller = new AbortController();
    const answer = createDispatcher(handlers)(
      'search.query',
      { query: 'trace' },
      { signal: controller.signal },
    );
    await Promise.resolve();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.aborted).toBe(false);
    controller.abort();
    expect(await answer).toEqual({ ok: false, error: { code: 'cancelled', message: 'Cancelled.' } });
    expect(seen[0]!.aborted).toBe(true);
  });

  it('answers cancelled at once even when the handler does not check its signal', async () => {
    const handlers = recordingHandlers([]);
    let finish: () => void = () => undefined;
    handlers['pages.get'] = () =>
      new Promise((_resolve, reject) => {
        finish = () => reject(new Error('finished late'));
      });
    const controller = new AbortController();
    const answer = createDispatcher(handlers)(
      'pages.get',
      { documentId: 'd', page: 1 },
      { signal: controller.signal },
    );
    controller.abort();
    expect(await answer).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    // Its late failure is dropped, not reported as an unhandled rejection.
    finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it('answers a change with what it really did, even when cancelled on the way', async () => {
    const handlers = recordingHandlers([]);
    let finish: () => void = () => undefined;
    handlers['chat.cancel'] = () =>
      new Promise((resolve) => {
        finish = () => resolve(null);
      });
    const controller = new AbortController();
    const answer = createDispatcher(handlers)(
      'chat.cancel',
      { runId: 'run-1' },
      { signal: controller.signal },
    );
    controller.abort();
    let settled = false;
    void answer.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Not answered cancelled while the change may still go through.
    expect(settled).toBe(false);
    finish();
    expect(await answer).toEqual({ ok: true, value: null });
  });

  it('runs no handler for a call cancelled before it started, and none is cancelled without a signal', async () => {
    const ran: CallName[] = [];
    const dispatch = createDispatcher(recordingHandlers(ran));
    const controller = new AbortController();
    controller.abort();
    expect(await dispatch('search.documents', { query: 'x' }, { signal: controller.signal })).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    });
    expect(ran).toEqual([]);
    const handlers = recordingHandlers([]);
    handlers['search.notice'] = async (_args, signal) => ({ notice: signal.aborted ? 'aborted' : null });
    expect(await createDispatcher(handlers)('search.notice', {})).toEqual({
      ok: true,
      value: { notice: null },
    });
  });
});
