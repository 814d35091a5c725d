import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { parseDocument } from '../../src/core/documents/parseDocument';
import {
  detectDocumentLanguage,
  detectQuestionLanguage,
  languageSample,
  questionIsNotIn,
} from '../../src/core/language/detectLanguage';
import { languageName } from '../../src/shared/domain/language';
import { corpusDir, withoutCorpus } from '../helpers/shared';
import { PARAGRAPHS, QUESTIONS, TOO_SHORT } from './samples';

const noCorpus = withoutCorpus('the language of corpus documents');

/** The samples are labelled in ISO 639-1; the detector answers in ISO 639-3. */
const ISO3: Record<string, string> = {
  de: 'deu',
  en: 'eng',
  fr: 'fra',
  es: 'spa',
  it: 'ita',
  nl: 'nld',
  pt: 'por',
  ru: 'rus',
  pl: 'pol',
  sv: 'swe',
  ja: 'jpn',
  zh: 'cmn',
};

/** Corpus files in other languages than English, and English ones beside them. */
const CORPUS: Array<{ file: string; language: string }> = [
  { file: 'pdfjs/bug1795263.pdf', language: 'deu' },
  { file: 'docling/pdf__right_to_left_01.pdf', language: 'arb' },
  { file: 'docling/pdf__right_to_left_03.pdf', language: 'pes' },
  { file: 'docling/pdf__normal_4pages.pdf', language: 'kor' },
  { file: 'unstructured/fr_olap.pdf', language: 'fra' },
  { file: 'pdfjs/tracemonkey.pdf', language: 'eng' },
  { file: 'pdfjs/TAMReview.pdf', language: 'eng' },
  { file: 'financebench/AMCOR_2023_10K.pdf', language: 'eng' },
];

describe('Document language', () => {
  it.skipIf(noCorpus)(
    'tells the language of real corpus documents from the text their reader gives',
    async () => {
      const found: Record<string, string> = {};
      for (const { file } of CORPUS) {
        const parsed = await parseDocument(join(corpusDir, file), { kind: 'pdf' });
        found[file] = detectDocumentLanguage(parsed.pages.map((page) => page.text));
      }
      expect(found).toEqual(Object.fromEntries(CORPUS.map(({ file, language }) => [file, language])));
    },
    120_000,
  );

  it('tells the language of paragraphs written in eleven languages', () => {
    for (const sample of PARAGRAPHS) {
      expect({ sample: sample.language, got: detectDocumentLanguage([sample.text]) }).toEqual({
        sample: sample.language,
        got: ISO3[sample.language],
      });
    }
  });

  it('says "und" (too little text) for a document without prose, and names only real languages', () => {
    expect(detectDocumentLanguage([])).toBe('und');
    expect(detectDocumentLanguage(['', '   '])).toBe('und');
    expect(detectDocumentLanguage(TOO_SHORT)).toBe('und');
    // A table of figures is not prose: no language is claimed for it.
    const table = Array.from({ length: 40 }, (_, i) => `| Widget ${i} | 2024-01-${i % 28} | ${i * 7} |`);
    expect(detectDocumentLanguage([table.join('\n')])).toBe('und');
    expect(languageName('deu')).toBe('German');
    expect(languageName('und')).toBeNull();
    expect(languageName(null)).toBeNull();
  });

  it('judges a sample of pages spread over a long document, not every page', () => {
    const pages = Array.from(
      { length: 200 },
      (_, i) => `Seite ${i}: Die Wartung der Anlage erfolgt zweimal im Jahr durch einen Fachbetrieb.`,
    );
    const sample = languageSample(pages);
    const used = [...sample.matchAll(/Seite (\d+)/g)].map((match) => Number(match[1]));
    expect(used[0]).toBe(0);
    expect(used.at(-1)).toBe(199);
    expect(used.length).toBeLessThanOrEqual(8);
    expect(detectDocumentLanguage(pages)).toBe('deu');
  });
});

describe('Question language', () => {
  it('tells the language of questions long enough to be sure', () => {
    for (const sample of QUESTIONS) {
      expect({ question: sample.text, got: detectQuestionLanguage(sample.text) }).toEqual({
        question: sample.text,
        got: ISO3[sample.language],
      });
    }
  });

  it('claims nothing for short questions or ones that read as several languages', () => {
    for (const text of TOO_SHORT)
      expect({ text, got: detectQuestionLanguage(text) }).toEqual({ text, got: null });
    // Long enough to judge, but German and Swedish score too close to call.
    expect(detectQuestionLanguage('Wie hoch war der Umsatz?')).toBeNull();
  });

  it('does not call an English question foreign because names make it score best as French', () => {
    const question = 'How does TraceMonkey compile hot loops?';
    expect(detectQuestionLanguage(question)).toBe('fra');
    expect(questionIsNotIn(question, 'eng')).toBe(false);
    expect(questionIsNotIn('Was steht im Vertrag über die Haftung?', 'eng')).toBe(true);
    expect(
      questionIsNotIn('How often must the installation be serviced, and who may carry out the test?', 'deu'),
    ).toBe(true);
    expect(questionIsNotIn('Wie hoch war der Umsatz?', 'eng')).toBe(false);
  });
});
