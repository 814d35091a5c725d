import type { DocumentFilter, DocumentSort, StateFilter } from './libraryView';

const STATE_CHOICES: Array<[StateFilter, string]> = [
  ['all', 'All states'],
  ['problems', 'Needs attention'],
  ['waiting', 'Not read yet'],
  ['indexed', 'Indexed'],
];

const SORT_CHOICES: Array<[DocumentSort, string]> = [
  ['name', 'Name'],
  ['state', 'State'],
  ['pages', 'Pages'],
  ['size', 'Size'],
  ['modified', 'Last changed'],
];

interface LibraryFilterBarProps {
  filter: DocumentFilter;
  onChange: (filter: DocumentFilter) => void;
}

/** Narrows and orders the documents of every folder as the user types. */
export function LibraryFilterBar({ filter, onChange }: LibraryFilterBarProps) {
  return (
    <div className="library-filter" role="search" aria-label="Filter documents">
      <input
        type="search"
        className="text-input"
        placeholder="Filter by name"
        aria-label="Filter documents by name"
        data-testid="library-filter"
        value={filter.text}
        onChange={(event) => onChange({ ...filter, text: event.target.value })}
      />
      <div className="library-filter__row">
        <select
          className="select"
          aria-label="Show documents in state"
          data-testid="library-state-filter"
          value={filter.state}
          onChange={(event) => onChange({ ...filter, state: event.target.value as StateFilter })}
        >
          {STATE_CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <select
          className="select"
          aria-label="Sort documents by"
          data-testid="library-sort"
          value={filter.sort}
          onChange={(event) => onChange({ ...filter, sort: event.target.value as DocumentSort })}
        >
          {SORT_CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              Sort by {label.toLowerCase()}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
