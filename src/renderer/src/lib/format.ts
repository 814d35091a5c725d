// Human-readable numbers for the UI. Decimal units (1 GB = 10^9 bytes), as the engine's own sentences,
// the model hosts and file managers give them: one figure for one size wherever it shows.

// One owner for sizes: the CLI prints the same figure (src/shared/format/bytes.ts).
export { formatBytes } from '../../../shared/format/bytes';

/** "about 3 min left"; null means the engine cannot estimate yet. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'estimating time left';
  if (seconds < 1) return 'almost done';
  if (seconds < 60) return `about ${Math.ceil(seconds)} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds - hours * 3600) / 60);
  return minutes === 0 ? `about ${hours} h left` : `about ${hours} h ${minutes} min left`;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms - minutes * 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

export function formatRate(perSecond: number, unit: string): string {
  const digits = perSecond >= 10 ? 0 : 1;
  return `${perSecond.toFixed(digits)} ${unit}/s`;
}

export function formatPageCount(pages: number | null): string {
  if (pages === null) return 'pages not counted yet';
  return pages === 1 ? '1 page' : `${pages} pages`;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** The last segment of a POSIX or Windows path. */
export function fileName(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part.length > 0);
  return parts[parts.length - 1] ?? path;
}

export function percent(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, (done / total) * 100));
}

export function formatClockTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
