import { useCallback, useEffect, useState } from 'react';
import type { OcrSettings, OcrSettingsView } from '../../../../shared/domain/library';
import type { ErrorInfo } from '../../../../shared/errors';
import { ErrorMessage } from '../../components/ErrorMessage';
import { quire } from '../../ipc/client';

/** Scanned pages: OCR on or off, the engine, which model reads, and the languages it reads. */
export function OcrSettingsSection() {
  const [view, setView] = useState<OcrSettingsView | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);

  useEffect(() => {
    let live = true;
    void quire['ocr.settings']({}).then((result) => {
      if (!live) return;
      if (result.ok) setView(result.value);
      else setError(result.error);
    });
    return () => {
      live = false;
    };
  }, []);

  const change = useCallback(async (patch: Partial<OcrSettings>) => {
    const result = await quire['ocr.configure'](patch);
    if (result.ok) {
      setView(result.value);
      setError(null);
    } else setError(result.error);
  }, []);

  if (!view) {
    return (
      <fieldset className="panel-section fieldset">
        <legend className="section-title">Scanned pages</legend>
        <ErrorMessage error={error} />
      </fieldset>
    );
  }
  const { settings } = view;
  const toggleLanguage = (code: string, on: boolean) => {
    const languages = on ? [...settings.languages, code] : settings.languages.filter((c) => c !== code);
    if (languages.length > 0) void change({ languages });
  };
  return (
    <fieldset className="panel-section fieldset" data-testid="ocr-settings">
      <legend className="section-title">Scanned pages</legend>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={settings.enabled}
          data-testid="ocr-enabled"
          onChange={(event) => void change({ enabled: event.target.checked })}
        />
        Read scanned pages with OCR (on this machine)
      </label>
      <p className="small muted" data-testid="ocr-model" data-fast={view.model.fast}>
        {view.model.description}
      </p>
      {view.engines.length > 2 && (
        <label className="settings-field">
          <span className="field-label">Engine</span>
          <select
            className="select"
            value={settings.engine}
            disabled={!settings.enabled}
            onChange={(event) => void change({ engine: event.target.value as OcrSettings['engine'] })}
          >
            {view.engines.map((engine) => (
              <option key={engine.id} value={engine.id}>
                {engine.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <p className="field-label">Languages on the pages</p>
      {view.languages.map((language) => (
        <label key={language.code} className="checkbox">
          <input
            type="checkbox"
            checked={settings.languages.includes(language.code)}
            disabled={!settings.enabled}
            data-testid={`ocr-language-${language.code}`}
            onChange={(event) => toggleLanguage(language.code, event.target.checked)}
          />
          {language.label}
        </label>
      ))}
      <ErrorMessage error={error} />
    </fieldset>
  );
}
