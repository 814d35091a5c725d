import { useEffect, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { fileName } from '../../lib/format';
import { useAction } from '../../lib/useAction';
import { useLibraryStore } from './libraryStore';

/** "Removed X · Undo" while the engine still holds the folder; gone when the window closes. */
export function RemovalUndo() {
  const undoable = useLibraryStore((state) => state.undoable);
  const undo = useAction(useLibraryStore((state) => state.undoRemove));
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!undoable) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= undoable.until) {
        // Only clear this removal's offer: a newer removal brings its own.
        if (useLibraryStore.getState().undoable === undoable) useLibraryStore.setState({ undoable: null });
      }
    }, 250);
    return () => clearInterval(timer);
  }, [undoable]);
  if (!undoable) return <ErrorMessage error={undo.error} />;
  const seconds = Math.max(0, Math.ceil((undoable.until - now) / 1000));
  return (
    <div className="removal-undo" role="status" data-testid="removal-undo">
      <span className="small">
        Removed {fileName(undoable.path)} from the library ({seconds} s to undo).
      </span>
      <button
        type="button"
        className="button button--small"
        data-testid="undo-remove"
        disabled={undo.busy}
        onClick={() => void undo.run()}
      >
        Undo
      </button>
    </div>
  );
}
