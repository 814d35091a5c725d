import { describe, expect, it } from 'vitest';
import { corpusSkipReason } from './shared';

describe('tests that need the corpus', () => {
  it('skip where it is missing, saying how to point them at it', () => {
    expect(corpusSkipReason({}, false)).toMatch(/QUIRE_SHARED=DIR or put the shared folder at \.\.\/shared$/);
  });

  it('run where it is present, and in CI, where a missing corpus must fail', () => {
    expect(corpusSkipReason({}, true)).toBeNull();
    expect(corpusSkipReason({ CI: 'true' }, false)).toBeNull();
  });
});
