import { useEffect, useState, type FormEvent } from 'react';
import type { Collection } from '../../../../shared/domain/scope';
import { ErrorMessage } from '../../components/ErrorMessage';
import { MiddleName } from '../../components/MiddleName';
import { fileName } from '../../lib/format';
import { useAction } from '../../lib/useAction';
import { AskAboutButton } from '../chat/AskAboutButton';
import { useCollectionsStore } from './collectionsStore';
import './collections.css';

function CollectionItem({ collection }: { collection: Collection }) {
  const rename = useAction(useCollectionsStore((state) => state.rename));
  const remove = useAction(useCollectionsStore((state) => state.remove));
  const removePaths = useAction(useCollectionsStore((state) => state.removePaths));
  const [renaming, setRenaming] = useState<string | null>(null);
  return (
    <li className="collection-item" data-testid="collection-item" data-name={collection.name}>
      <div className="collection-item__head">
        {renaming === null ? (
          <MiddleName name={collection.name} className="collection-item__name" />
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void rename.run(collection.name, renaming).then((ok) => ok && setRenaming(null));
            }}
          >
            <input
              aria-label={`New name for ${collection.name}`}
              value={renaming}
              maxLength={120}
              data-testid="collection-rename-input"
              onChange={(event) => setRenaming(event.target.value)}
            />
          </form>
        )}
        <span className="collection-item__count muted small" data-testid="collection-count">
          {collection.paths.length}
        </span>
        <span className="collection-item__actions">
          <AskAboutButton scope={{ collections: [collection.name] }} name={collection.name} />
          <button
            type="button"
            className="button button--small button--quiet"
            onClick={() => setRenaming(renaming === null ? collection.name : null)}
          >
            Rename
          </button>
          <button
            type="button"
            className="button button--small button--quiet"
            aria-label={`Delete the collection ${collection.name} (its documents stay)`}
            data-testid="collection-delete"
            onClick={() => void remove.run(collection.name)}
          >
            Delete
          </button>
        </span>
      </div>
      <ul className="collection-item__paths small">
        {collection.paths.map((path) => (
          <li key={path} className="collection-item__path">
            <MiddleName name={fileName(path)} title={path} />
            <button
              type="button"
              className="scope-chip__remove"
              aria-label={`Take ${fileName(path)} out of ${collection.name}`}
              onClick={() => void removePaths.run(collection.name, [path])}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <ErrorMessage error={rename.error ?? remove.error ?? removePaths.error} />
    </li>
  );
}

/** The library's collections in the sidebar: make one, ask within one, rename or delete it. */
export function CollectionsList() {
  const collections = useCollectionsStore((state) => state.collections);
  const load = useCollectionsStore((state) => state.load);
  const create = useAction(useCollectionsStore((state) => state.create));
  const [name, setName] = useState('');

  useEffect(() => {
    void load();
  }, [load]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (name.trim() && (await create.run(name.trim()))) setName('');
  }

  return (
    <section className="collections" aria-label="Collections" data-testid="collections">
      <h3 className="collections__title small">Collections</h3>
      <ul className="collections__list">
        {collections.map((collection) => (
          <CollectionItem key={collection.name} collection={collection} />
        ))}
      </ul>
      <form className="collections__new" onSubmit={(event) => void onSubmit(event)}>
        <input
          aria-label="New collection name"
          placeholder="New collection…"
          value={name}
          maxLength={120}
          data-testid="collection-name-input"
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="button button--small" disabled={!name.trim() || create.busy}>
          Create
        </button>
      </form>
      <ErrorMessage error={create.error} />
    </section>
  );
}
