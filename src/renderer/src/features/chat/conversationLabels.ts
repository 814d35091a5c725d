import type { ConversationSummary } from '../../../../shared/domain/agent';
import { plural } from '../../lib/format';

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Each conversation's label: its title and how many questions it holds; the same question asked in
 * two conversations gets the time each began, so the labels differ.
 */
export function conversationLabels(conversations: readonly ConversationSummary[]): Map<string, string> {
  const seen = new Map<string, number>();
  for (const item of conversations) seen.set(item.title, (seen.get(item.title) ?? 0) + 1);
  return new Map(
    conversations.map((item) => {
      const title = item.title || 'Untitled';
      const when = (seen.get(item.title) ?? 0) > 1 ? ` · ${WHEN.format(item.createdAt)}` : '';
      return [item.id, `${title}${when} · ${plural(item.turns, 'question')}`];
    }),
  );
}
