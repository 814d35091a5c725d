import { ErrorMessage } from '../../components/ErrorMessage';
import { useAction } from '../../lib/useAction';
import { useCollectionsStore } from './collectionsStore';

/** A menu on a document or folder: put it in one of the collections (it can be in many). */
export function AddToCollection({ path, name }: { path: string; name: string }) {
  const collections = useCollectionsStore((state) => state.collections);
  const add = useAction(useCollectionsStore((state) => state.addPaths));
  const open = collections.filter((c) => !c.paths.includes(path));
  if (open.length === 0) return null;
  return (
    <>
      <select
        className="add-to-collection small"
        aria-label={`Add ${name} to a collection`}
        value=""
        data-testid="add-to-collection"
        onChange={(event) => {
          if (event.target.value) void add.run(event.target.value, [path]);
        }}
      >
        <option value="">Add to collection…</option>
        {open.map((c) => (
          <option key={c.name} value={c.name}>
            {c.name}
          </option>
        ))}
      </select>
      <ErrorMessage error={add.error} />
    </>
  );
}
