/*
 * What a scope names, without its schema: the window draws scopes before it loads the contract's
 * schemas (scope.ts holds the schema).
 */
import type { Scope } from './scope';

/** Whether a scope names anything; an empty scope is the whole library. */
export function isWholeLibrary(scope: Scope | null | undefined): boolean {
  return (
    !scope ||
    ((scope.documents?.length ?? 0) === 0 &&
      (scope.paths?.length ?? 0) === 0 &&
      (scope.collections?.length ?? 0) === 0)
  );
}

const fileName = (path: string) => path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;

/** A scope in the user's words: "the whole library", "report.pdf and Contracts/", "collection “2024”". */
export function scopeLabel(scope: Scope | null | undefined): string {
  if (!scope || isWholeLibrary(scope)) return 'the whole library';
  const parts = (scope.paths ?? []).map(fileName);
  const ids = scope.documents?.length ?? 0;
  if (ids > 0) parts.push(`${ids} document${ids === 1 ? '' : 's'}`);
  const shown = parts.length > 3 ? [...parts.slice(0, 2), `${parts.length - 2} more`] : parts;
  for (const name of scope.collections ?? []) shown.push(`collection “${name}”`);
  return shown.join(', ');
}
