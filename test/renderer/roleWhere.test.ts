import { describe, expect, it } from 'vitest';
import { whereItRuns } from '../../src/renderer/src/features/models/roleWhere';

describe('where a role runs, in the Models panel', () => {
  it('says a server by its address, and an in-process vision model as its own process', () => {
    const base = { reason: '', model: 'm' };
    expect(
      whereItRuns({ ...base, role: 'see', provider: 'ollama', endpoint: 'http://127.0.0.1:11434' }),
    ).toBe('On a server: http://127.0.0.1:11434');
    expect(whereItRuns({ ...base, role: 'see', provider: 'llama', endpoint: null })).toBe(
      'In-process: llama.cpp with image input, in its own process on this computer',
    );
    expect(whereItRuns({ ...base, role: 'answer', provider: 'llama', endpoint: null })).toBe(
      'In-process, on this computer',
    );
    expect(whereItRuns({ ...base, role: 'see', provider: null, endpoint: null, model: null })).toBeNull();
  });
});
