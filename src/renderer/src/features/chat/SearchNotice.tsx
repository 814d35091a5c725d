import { useModelsStore } from '../models/modelsStore';

/** Says, beside the question box, when searches run on keywords alone and why. */
export function SearchNotice() {
  const notice = useModelsStore((state) => state.searchNotice);
  if (notice === null) return null;
  return (
    <p className="search-notice small" role="status" data-testid="search-notice">
      {notice}
    </p>
  );
}
