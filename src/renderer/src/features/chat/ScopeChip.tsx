import type { Scope } from '../../../../shared/domain/scope';
import { scopeLabel } from '../../../../shared/domain/scopeText';
import { useCollectionsStore } from '../collections/collectionsStore';
import { fileName } from '../../lib/format';
import { useChatStore } from './chatStore';

/** One removable item of the scope: a file or folder, some documents, or a collection. */
function without(scope: Scope, key: keyof Scope, value: string | null): Scope {
  const list = scope[key] ?? [];
  return { ...scope, [key]: value === null ? [] : list.filter((item) => item !== value) };
}

/**
 * What the next question searches, in the composer: each file, folder or collection can be removed,
 * a collection added, or the whole scope cleared to ask the whole library.
 */
export function ScopeChip() {
  const scope = useChatStore((state) => state.scope);
  const setScope = useChatStore((state) => state.setScope);
  const collections = useCollectionsStore((state) => state.collections);
  const loadCollections = useCollectionsStore((state) => state.load);
  const items: Array<{ key: keyof Scope; value: string | null; label: string }> = scope
    ? [
        ...(scope.paths ?? []).map((path) => ({ key: 'paths' as const, value: path, label: fileName(path) })),
        ...(scope.documents?.length
          ? [{ key: 'documents' as const, value: null, label: scopeLabel({ documents: scope.documents }) }]
          : []),
        ...(scope.collections ?? []).map((name) => ({
          key: 'collections' as const,
          value: name,
          label: `collection “${name}”`,
        })),
      ]
    : [];
  const unused = collections.filter((c) => !(scope?.collections ?? []).includes(c.name));

  return (
    <div className="scope-chip small" data-testid="scope-chip" data-scoped={scope ? 'yes' : 'no'}>
      <span className="muted">Searching:</span>
      {items.length === 0 && <span data-testid="scope-whole">the whole library</span>}
      {items.map((item) => (
        <span
          key={`${item.key}:${item.value ?? ''}`}
          className="scope-chip__item"
          title={item.value ?? undefined}
        >
          {item.label}
          <button
            type="button"
            className="scope-chip__remove"
            aria-label={`Stop searching only ${item.label}`}
            data-testid="scope-remove"
            onClick={() => setScope(without(scope!, item.key, item.value))}
          >
            ×
          </button>
        </span>
      ))}
      {unused.length > 0 || collections.length === 0 ? (
        <select
          className="scope-chip__add"
          aria-label="Search only a collection"
          value=""
          data-testid="scope-add-collection"
          onFocus={() => void loadCollections()}
          onChange={(event) => {
            const name = event.target.value;
            if (name) setScope({ ...(scope ?? {}), collections: [...(scope?.collections ?? []), name] });
          }}
        >
          <option value="">+ collection…</option>
          {unused.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
            </option>
          ))}
        </select>
      ) : null}
      {items.length > 0 && (
        <button
          type="button"
          className="button button--small button--quiet"
          data-testid="scope-clear"
          onClick={() => setScope(null)}
        >
          Whole library
        </button>
      )}
    </div>
  );
}
