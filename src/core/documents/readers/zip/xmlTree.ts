import { posix } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { ZipEntries } from './zipArchive';

/*
 * The XML parts of Office Open XML and OpenDocument files as ordered trees (fast-xml-parser in
 * `preserveOrder` mode, namespace prefixes dropped), with the few ways readers walk them.
 */

export interface XmlNode {
  readonly tag: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
  /** Text directly inside this element (not its descendants). */
  readonly ownText: string;
}

const parser = new XMLParser({
  preserveOrder: true,
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
});

type RawNode = Record<string, unknown>;

function toNode(raw: RawNode): XmlNode | null {
  const tag = Object.keys(raw).find((key) => key !== ':@');
  if (!tag) return null;
  if (tag === '#text') return { tag, attributes: {}, children: [], ownText: String(raw[tag] ?? '') };
  const rawChildren = (raw[tag] as RawNode[] | undefined) ?? [];
  const children: XmlNode[] = [];
  let ownText = '';
  for (const child of rawChildren) {
    const node = toNode(child);
    if (!node) continue;
    if (node.tag === '#text') ownText += node.ownText;
    else children.push(node);
  }
  const attributes = (raw[':@'] as Record<string, string> | undefined) ?? {};
  return { tag, attributes, children, ownText };
}

/** The document element of an XML part, or null when the part is missing or not XML. */
export function parseXml(xml: string | undefined): XmlNode | null {
  if (!xml) return null;
  let raw: RawNode[];
  try {
    // Office and OpenDocument parts declare no entities: a DOCTYPE is dropped, so none can expand.
    raw = parser.parse(xml.replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, '')) as RawNode[];
  } catch {
    return null;
  }
  for (const entry of raw) {
    const node = toNode(entry);
    if (node && node.tag !== '#text' && node.tag !== '?xml') return node;
  }
  return null;
}

export function child(node: XmlNode | null | undefined, tag: string): XmlNode | undefined {
  return node?.children.find((candidate) => candidate.tag === tag);
}

export function childrenNamed(node: XmlNode | null | undefined, tag: string): XmlNode[] {
  return node ? node.children.filter((candidate) => candidate.tag === tag) : [];
}

/** The first descendant with this tag, depth first. */
export function descendant(node: XmlNode | null | undefined, tag: string): XmlNode | undefined {
  if (!node) return undefined;
  for (const candidate of node.children) {
    if (candidate.tag === tag) return candidate;
    const found = descendant(candidate, tag);
    if (found) return found;
  }
  return undefined;
}

/** Every descendant with this tag, in document order. */
export function descendants(node: XmlNode | null | undefined, tag: string, into: XmlNode[] = []): XmlNode[] {
  if (!node) return into;
  for (const candidate of node.children) {
    if (candidate.tag === tag) into.push(candidate);
    descendants(candidate, tag, into);
  }
  return into;
}

/** All text inside the element; `separator` between the texts of `breakTags` (paragraphs, breaks). */
export function textIn(
  node: XmlNode | null | undefined,
  breakTags: readonly string[] = [],
  separator = ' ',
): string {
  if (!node) return '';
  let text = node.ownText;
  for (const candidate of node.children) {
    const inner = textIn(candidate, breakTags, separator);
    text += breakTags.includes(candidate.tag) ? `${separator}${inner}${separator}` : inner;
  }
  return text;
}

export interface Relationship {
  type: string;
  /** The target's path inside the archive (resolved against the part's folder), or the URL when external. */
  target: string;
  external: boolean;
}

/** A part's relationships by id (`word/_rels/document.xml.rels` for `word/document.xml`). */
export function relationships(zip: ZipEntries, partPath: string): Map<string, Relationship> {
  const dir = posix.dirname(partPath);
  const relsPath = posix.join(dir, '_rels', `${posix.basename(partPath)}.rels`);
  const root = parseXml(zip.text(relsPath));
  const map = new Map<string, Relationship>();
  for (const rel of childrenNamed(root, 'Relationship')) {
    const id = rel.attributes.Id;
    const target = rel.attributes.Target;
    if (!id || !target) continue;
    const external = rel.attributes.TargetMode === 'External';
    const resolved = external
      ? target
      : target.startsWith('/')
        ? target.slice(1)
        : posix.normalize(posix.join(dir, target));
    map.set(id, { type: rel.attributes.Type ?? '', target: resolved, external });
  }
  return map;
}
