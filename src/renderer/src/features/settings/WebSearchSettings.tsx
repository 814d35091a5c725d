import { useEffect, useState } from 'react';
import type { WebSearchSettings as Settings } from '../../../../shared/domain/web';
import { quire } from '../../ipc/client';

/** Web search: off until the user turns it on and names a SearXNG instance; nothing leaves before. */
export function WebSearchSettings() {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void quire['webSearch.settings']({}).then((result) => {
      if (!result.ok) return setError(result.error.message);
      setSettings(result.value);
      setUrl(result.value.searxngUrl ?? '');
    });
  }, []);

  const save = async (change: { enabled?: boolean; searxngUrl?: string | null }) => {
    const result = await quire['webSearch.configure'](change);
    if (!result.ok) return setError(result.error.message);
    setError(null);
    setSettings(result.value);
  };

  return (
    <fieldset className="panel-section fieldset" data-testid="web-search-settings">
      <legend className="section-title">Web search</legend>
      <p className="small muted">
        Off by default. When on, the agent may send search words, never documents, to the SearXNG address
        below.
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={settings?.enabled ?? false}
          disabled={!settings || (!settings.searxngUrl && !settings.enabled)}
          onChange={(event) => void save({ enabled: event.target.checked })}
        />
        Let the agent search the web
      </label>
      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save({ searxngUrl: url.trim() === '' ? null : url.trim() });
        }}
      >
        <label className="field-label" htmlFor="searxng-url">
          SearXNG address
        </label>
        <input
          id="searxng-url"
          className="text-input"
          placeholder="http://127.0.0.1:8888"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <button type="submit" className="button">
          Save
        </button>
      </form>
      {error && (
        <p className="error-message" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
