import { cleanText, type Block } from '../../structure/model';
import { child, childrenNamed, descendants, parseXml, textIn, type Relationship } from '../zip/xmlTree';
import type { ZipEntries } from '../zip/zipArchive';

/**
 * A slide's comments, legacy (`p:cmLst` with `ppt/commentAuthors.xml`) and modern (PowerPoint 365's
 * threads, with `ppt/authors.xml`), replies after the comment they answer.
 */
export function slideComments(zip: ZipEntries, rels: ReadonlyMap<string, Relationship>): Block[] {
  const blocks: Block[] = [];
  let authors: Map<string, string> | undefined;
  const authorName = (id: string | undefined) => {
    authors ??= commentAuthors(zip);
    return (id !== undefined ? authors.get(id) : undefined) ?? 'unknown author';
  };
  for (const rel of rels.values()) {
    if (!rel.type.endsWith('/comments')) continue;
    const list = parseXml(zip.text(rel.target));
    for (const comment of childrenNamed(list, 'cm')) {
      const text = cleanText(textIn(child(comment, 'text') ?? child(comment, 'txBody'), ['p']));
      if (text)
        blocks.push({ kind: 'note', label: `Comment by ${authorName(comment.attributes.authorId)}`, text });
      for (const reply of descendants(child(comment, 'replyLst'), 'reply')) {
        const replyText = cleanText(textIn(child(reply, 'txBody'), ['p']));
        if (replyText) {
          blocks.push({
            kind: 'note',
            label: `Reply by ${authorName(reply.attributes.authorId)}`,
            text: replyText,
          });
        }
      }
    }
  }
  return blocks;
}

function commentAuthors(zip: ZipEntries): Map<string, string> {
  const names = new Map<string, string>();
  for (const part of ['ppt/commentAuthors.xml', 'ppt/authors.xml']) {
    const root = parseXml(zip.text(part));
    for (const author of [...childrenNamed(root, 'cmAuthor'), ...childrenNamed(root, 'author')]) {
      const id = author.attributes.id;
      const name = cleanText(author.attributes.name ?? '');
      if (id !== undefined && name) names.set(id, name);
    }
  }
  return names;
}
