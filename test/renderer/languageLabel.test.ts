import { describe, expect, it } from 'vitest';
import { describeLanguage } from '../../src/renderer/src/features/library/libraryView';

describe('The language beside a document’s state', () => {
  it('names the language, says when there was too little text, and shows nothing before reading', () => {
    expect(describeLanguage('deu')).toEqual({ label: 'German', title: 'Its text reads as German.' });
    expect(describeLanguage('cmn')?.label).toBe('Chinese');
    expect(describeLanguage('und')).toEqual({
      label: 'Language unknown',
      title: 'Too little text to tell its language.',
    });
    expect(describeLanguage(null)).toBeNull();
    expect(describeLanguage(undefined)).toBeNull();
  });
});
