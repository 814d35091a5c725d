import { describe, expect, it } from 'vitest';
import { answerMarkdown, conversationMarkdown } from '../../src/shared/format/answerMarkdown';

const citation = (marker: number, path: string, page: number, snippet: string) => ({
  marker,
  documentId: `doc-${marker}`,
  path,
  page,
  chunkId: null,
  snippet,
  boxes: [],
});

describe('Answers as Markdown', () => {
  it('gives the question, what was searched, the answer and each source with file, page and passage', () => {
    const text = answerMarkdown({
      question: 'What is the\n payload?',
      answer: 'It carries 12 kg [1] and stops in 200 ms [2].',
      citations: [
        citation(2, '/lib/safety.pdf', 3, 'The emergency stop halts all motors within 200 ms. Always.'),
        citation(
          1,
          '/lib/manuals/handbook.pdf',
          1,
          'The Orbit 3 controller supports a maximum payload of 12 kg.',
        ),
      ],
      searched: 'collection “Manuals”',
      status: 'answered',
    });
    expect(text).toBe(
      [
        '## What is the payload?',
        '*Searched: collection “Manuals”.*',
        'It carries 12 kg [1] and stops in 200 ms [2].',
        '**Sources**',
        '[1] **handbook.pdf**, page 1 (`/lib/manuals/handbook.pdf`)',
        '> The Orbit 3 controller supports a maximum payload of 12 kg.',
        '[2] **safety.pdf**, page 3 (`/lib/safety.pdf`)',
        '> The emergency stop halts all motors within 200 ms.\n> Always.',
      ].join('\n\n') + '\n',
    );
  });

  it('says when an answer was not verified, and exports a conversation under its title', () => {
    const text = conversationMarkdown({
      title: 'Payloads',
      createdAt: Date.UTC(2026, 0, 2),
      searched: 'the whole library',
      turns: [
        {
          question: 'Q1',
          answer: 'A1 [1]',
          citations: [citation(1, '/a.pdf', 2, 'p')],
          status: 'unverified',
        },
        { question: 'Q2', answer: null, citations: [], status: 'failed' },
      ],
    });
    expect(
      text.startsWith('# Payloads\n\n*Asked with Quire on 2026-01-02; searched: the whole library.*'),
    ).toBe(true);
    expect(text).toContain('## Q1\n\nA1 [1]\n\n*Not verified');
    expect(text).toContain('## Q2\n\n*No answer was written.*');
  });
});
