import type { SkippedFile } from '../../../../shared/domain/library';
import { plural } from '../../lib/format';

/** Files of a folder that Quire does not read (links that lead outside the library...), with why. */
export function SkippedFiles({ rootPath, skipped }: { rootPath: string; skipped: readonly SkippedFile[] }) {
  if (skipped.length === 0) return null;
  return (
    <details className="skipped-files small" data-testid="skipped-files">
      <summary>{plural(skipped.length, 'file')} not read</summary>
      <ul className="skipped-files__list">
        {skipped.map((file) => (
          <li key={file.path} className="skipped-files__item">
            <bdi className="skipped-files__path" title={file.path}>
              {file.path.startsWith(`${rootPath}/`) ? file.path.slice(rootPath.length + 1) : file.path}
            </bdi>
            <span className="muted">: {file.reason}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
