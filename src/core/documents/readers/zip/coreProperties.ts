import { XMLParser } from 'fast-xml-parser';
import { cleanText } from '../../structure/model';

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: true, processEntities: true });

/** The title in an Office file's `docProps/core.xml`, or null when it has none. */
export function coreTitle(xml: string | undefined): string | null {
  if (!xml) return null;
  try {
    const parsed = parser.parse(xml) as { coreProperties?: { title?: unknown } };
    const title = parsed.coreProperties?.title;
    return typeof title === 'string' || typeof title === 'number' ? cleanText(String(title)) || null : null;
  } catch {
    return null;
  }
}
