import { useState } from 'react';
import { useModelsStore } from '../models/modelsStore';
import { SetupCard } from '../models/SetupCard';

/** True while nothing can write answers: a question cannot be answered until a model is set up. */
export function useNoAnswerModel(): boolean {
  return useModelsStore(
    (state) => state.status?.roles.find((role) => role.role === 'answer')?.provider === null,
  );
}

/** Under a run that failed for want of a model: the way to get one, in place. */
export function NoModelStep() {
  const loadProposal = useModelsStore((state) => state.loadProposal);
  const [open, setOpen] = useState(false);
  if (open) return <SetupCard onDismiss={() => setOpen(false)} />;
  return (
    <div className="no-model-step" data-testid="no-model-step">
      <p className="small">No model is set up to write answers yet.</p>
      <button
        type="button"
        className="button button--small button--primary"
        data-testid="get-a-model"
        onClick={() => {
          void loadProposal();
          setOpen(true);
        }}
      >
        Get a model
      </button>
    </div>
  );
}
