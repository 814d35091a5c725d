import { readFileSync } from 'node:fs';

/** Quire's version as MCP clients are told it; the package file sits three folders up from the source. */
export function quireVersion(): string {
  try {
    const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
