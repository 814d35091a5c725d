import { useEffect, useState } from 'react';
import type { LibraryLocationSetting, LibraryLocationView } from '../../../../shared/domain/location';
import type { ErrorInfo } from '../../../../shared/errors';
import { ErrorMessage } from '../../components/ErrorMessage';
import { quire } from '../../ipc/client';

interface Draft {
  shared: boolean;
  uri: string;
  endpoint: string;
  region: string;
  profile: string;
  writer: boolean;
}

function draftOf(saved: LibraryLocationSetting | null): Draft {
  return {
    shared: saved !== null,
    uri: saved?.uri ?? '',
    endpoint: saved?.endpoint ?? '',
    region: saved?.region ?? '',
    profile: saved?.profile ?? '',
    writer: saved?.writer ?? false,
  };
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

function settingOf(draft: Draft): LibraryLocationSetting | null {
  if (!draft.shared) return null;
  return {
    uri: draft.uri.trim(),
    endpoint: orNull(draft.endpoint),
    region: orNull(draft.region),
    profile: orNull(draft.profile),
    writer: draft.writer,
  };
}

function describeActive(view: LibraryLocationView): string {
  if (!view.active) return 'This library is in Quire’s data folder on this machine.';
  const role = view.active.writer ? 'this machine indexes into it' : 'read-only on this machine';
  return `This library is shared at ${view.active.uri} (${role}).`;
}

/** Where the library lives: the local data folder, or a team's location on object storage. */
export function LibraryLocationSection() {
  const [view, setView] = useState<LibraryLocationView | null>(null);
  const [draft, setDraft] = useState<Draft>(draftOf(null));
  const [error, setError] = useState<ErrorInfo | null>(null);

  useEffect(() => {
    let live = true;
    void quire['location.current']({}).then((result) => {
      if (!live) return;
      if (!result.ok) return setError(result.error);
      setView(result.value);
      setDraft(draftOf(result.value.saved));
    });
    return () => {
      live = false;
    };
  }, []);

  const save = async () => {
    const result = await quire['location.save']({ setting: settingOf(draft) });
    if (!result.ok) return setError(result.error);
    setError(null);
    setView(result.value);
    setDraft(draftOf(result.value.saved));
  };
  const edit = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));

  return (
    <fieldset className="panel-section fieldset" data-testid="library-location">
      <legend className="section-title">Library location</legend>
      {view && <p className="small">{describeActive(view)}</p>}
      {view?.chosenByCommandLine && (
        <p className="small muted">
          The command line chose this location; the setting below applies without it.
        </p>
      )}
      <label className="radio">
        <input
          type="radio"
          name="library-location"
          checked={!draft.shared}
          data-testid="location-local"
          onChange={() => edit({ shared: false })}
        />
        On this machine (the data folder)
      </label>
      <label className="radio">
        <input
          type="radio"
          name="library-location"
          checked={draft.shared}
          data-testid="location-shared"
          onChange={() => edit({ shared: true })}
        />
        Shared with a team on S3-compatible storage
      </label>
      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {draft.shared && (
          <>
            <label className="field-label" htmlFor="location-uri">
              Location
            </label>
            <input
              id="location-uri"
              className="text-input"
              placeholder="s3://bucket/team-library"
              value={draft.uri}
              onChange={(event) => edit({ uri: event.target.value })}
            />
            <label className="field-label" htmlFor="location-endpoint">
              Endpoint (empty for AWS)
            </label>
            <input
              id="location-endpoint"
              className="text-input"
              placeholder="https://storage.example.com"
              value={draft.endpoint}
              onChange={(event) => edit({ endpoint: event.target.value })}
            />
            <label className="field-label" htmlFor="location-region">
              Region
            </label>
            <input
              id="location-region"
              className="text-input"
              placeholder="us-east-1"
              value={draft.region}
              onChange={(event) => edit({ region: event.target.value })}
            />
            <label className="field-label" htmlFor="location-profile">
              AWS profile (empty for the AWS_* variables)
            </label>
            <input
              id="location-profile"
              className="text-input"
              value={draft.profile}
              onChange={(event) => edit({ profile: event.target.value })}
            />
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.writer}
                data-testid="location-writer"
                onChange={(event) => edit({ writer: event.target.checked })}
              />
              This machine indexes the team’s folders (one machine only; the others read)
            </label>
            <p className="small muted">
              Keys are never saved here: Quire reads them from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or
              from the named profile.
            </p>
          </>
        )}
        <button type="submit" className="button" data-testid="location-save">
          Save
        </button>
      </form>
      {view?.restartNeeded && (
        <p className="small" role="status" data-testid="location-restart">
          Saved. Quire opens this library the next time it starts.
        </p>
      )}
      <ErrorMessage error={error} />
    </fieldset>
  );
}
