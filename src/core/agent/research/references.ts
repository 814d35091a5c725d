/*
 * References a passage makes to other parts of its document ("see Note 12", "Table 3", "Appendix B")
 * or to other documents ("as described in the 2022 Form 10-K"). Fast patterns first; a chat model
 * reads passages with a reference cue the patterns did not catch.
 */
import type { ChatModel } from '../../models/types';

export type ReferenceKind = 'section' | 'table' | 'figure' | 'appendix' | 'note' | 'document';

export interface Reference {
  kind: ReferenceKind;
  /** The target as named: "4.2", "3", "B", "12", or a document's name. */
  target: string;
  /** The words that made the reference, for the trace. */
  text: string;
}

const LABEL = String.raw`(\d+(?:\.\d+)*[a-z]?|[A-Z](?:[.-]?\d+)?|[IVX]+)\b`;
const PATTERNS: Array<{ kind: Exclude<ReferenceKind, 'document'>; pattern: RegExp }> = [
  { kind: 'section', pattern: new RegExp(String.raw`(?:\bSection|\bSect\.|§)\s*${LABEL}`, 'g') },
  { kind: 'table', pattern: new RegExp(String.raw`\bTable\s+${LABEL}`, 'g') },
  { kind: 'figure', pattern: new RegExp(String.raw`\b(?:Figure|Fig\.)\s*${LABEL}`, 'g') },
  { kind: 'appendix', pattern: new RegExp(String.raw`\b(?:Appendix|Annex|Exhibit)\s+${LABEL}`, 'g') },
  { kind: 'note', pattern: new RegExp(String.raw`\bNote\s+${LABEL}`, 'g') },
];

/** "described in the 2022 Form 10-K", "see our Annual Report", "refer to the Proxy Statement". */
const DOCUMENT_MENTION =
  /\b(?:see|in|from|to|within)\s+(?:the|our|its|their)\s+((?:(?:19|20)\d{2}\s+|fiscal\s+(?:19|20)\d{2}\s+)?(?:Annual Report(?: on Form 10-K)?|Form\s+10-[KQ]|10-[KQ]|Form\s+8-K|Proxy Statement|(?:[A-Z][\w&-]*\s+){1,4}(?:Report|Statement|Manual|Guide|Handbook|Prospectus)))/g;

/** Cue words that suggest a reference the patterns may have missed. */
const CUE =
  /\b(?:see|refer(?:s|red)? to|described in|discussed in|set out in|as shown in|incorporated by reference)\b/i;

export function detectReferences(text: string): Reference[] {
  const found: Reference[] = [];
  for (const { kind, pattern } of PATTERNS) {
    for (const match of text.matchAll(pattern)) found.push({ kind, target: match[1]!, text: match[0] });
  }
  for (const match of text.matchAll(DOCUMENT_MENTION)) {
    found.push({ kind: 'document', target: match[1]!.replace(/\s+/g, ' ').trim(), text: match[0].trim() });
  }
  return dedupeReferences(found);
}

/** One reference per kind and target, the first wording kept. */
export function dedupeReferences(references: Reference[]): Reference[] {
  const seen = new Set<string>();
  return references.filter((reference) => {
    const key = referenceKey(reference);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function referenceKey(reference: Pick<Reference, 'kind' | 'target'>): string {
  return `${reference.kind}:${reference.target.toLowerCase().replace(/\s+/g, ' ')}`;
}

export function hasReferenceCue(text: string): boolean {
  return CUE.test(text);
}

const KINDS: ReferenceKind[] = ['section', 'table', 'figure', 'appendix', 'note', 'document'];

/** References a chat model reads in a passage; only targets the passage itself contains are kept. */
export async function detectReferencesWithModel(
  model: ChatModel,
  text: string,
  signal?: AbortSignal,
): Promise<Reference[]> {
  const response = await model.chat({
    messages: [
      {
        role: 'system',
        content:
          'List the places this passage points the reader to: sections, tables, figures, appendices, notes, ' +
          'or other documents. Reply with JSON only: {"references": [{"kind", "target"}]}; an empty list if none.',
      },
      { role: 'user', content: text.slice(0, 3000) },
    ],
    jsonSchema: {
      type: 'object',
      properties: {
        references: {
          type: 'array',
          maxItems: 5,
          items: {
            type: 'object',
            properties: { kind: { type: 'string', enum: KINDS }, target: { type: 'string', maxLength: 80 } },
            required: ['kind', 'target'],
            additionalProperties: false,
          },
        },
      },
      required: ['references'],
      additionalProperties: false,
    },
    maxTokens: 200,
    temperature: 0,
    ...(signal ? { signal } : {}),
  });
  const parsed = JSON.parse(response.text) as { references?: Array<{ kind?: unknown; target?: unknown }> };
  const lower = text.toLowerCase();
  return dedupeReferences(
    (parsed.references ?? []).flatMap((item) =>
      typeof item.target === 'string' &&
      KINDS.includes(item.kind as ReferenceKind) &&
      item.target.trim() &&
      lower.includes(item.target.trim().toLowerCase())
        ? [{ kind: item.kind as ReferenceKind, target: item.target.trim(), text: item.target.trim() }]
        : [],
    ),
  );
}

/** Words that name where a target begins on its own page: a heading or a caption. */
const HEADING_WORDS: Record<Exclude<ReferenceKind, 'document'>, string> = {
  section: String.raw`(?:Section\s+|§\s*)?`,
  table: String.raw`Table\s+`,
  figure: String.raw`(?:Figure|Fig\.)\s*`,
  appendix: String.raw`(?:Appendix|Annex|Exhibit)\s+`,
  note: String.raw`(?:Note|NOTE)\s+`,
};

/**
 * Whether a page holds the target itself (a line that starts with its heading or caption), rather than
 * another mention of it.
 */
export function pageHoldsTarget(pageText: string, reference: Reference): boolean {
  if (reference.kind === 'document') return false;
  const label = reference.target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const words = HEADING_WORDS[reference.kind];
  // Sections are often headed by their number alone ("4.2 Revenue recognition").
  const start = reference.kind === 'section' ? `(?:${words}${label}|${label}\\s+[A-Z])` : `${words}${label}`;
  return new RegExp(String.raw`(?:^|\n)\s*${start}(?![\d.]*\d)`, reference.kind === 'note' ? 'i' : '').test(
    pageText,
  );
}

/**
 * The outline entry that heads the target: its title starts like the target's heading or caption
 * ("Note 12 Revenue", "Appendix B: Symbols"), or, for sections, notes and appendices, with the bare
 * label and a capitalised title ("4.2 Revenue", "12. Income taxes"). Titles naming the kind win.
 */
export function outlineEntryFor<T extends { title: string }>(
  outline: readonly T[],
  reference: Reference,
): T | null {
  if (reference.kind === 'document') return null;
  const named = outline.find((entry) => pageHoldsTarget(entry.title, reference));
  if (named || reference.kind === 'table' || reference.kind === 'figure') return named ?? null;
  const label = reference.target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const bare = new RegExp(String.raw`^${label}[.:)]?\s+\p{Lu}`, 'u');
  return outline.find((entry) => bare.test(entry.title)) ?? null;
}
