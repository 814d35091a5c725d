import { resolve } from 'node:path';
import type { Scope } from '../../shared/domain/scope';

/** `--in PATH` (files or folders, made absolute) and `--collection NAME` as one scope; null for none. */
export function scopeFromFlags(paths: string[] | undefined, collections: string[] | undefined): Scope | null {
  const scope: Scope = {
    ...(paths?.length ? { paths: paths.map((p) => resolve(p)) } : {}),
    ...(collections?.length ? { collections } : {}),
  };
  return Object.keys(scope).length > 0 ? scope : null;
}
