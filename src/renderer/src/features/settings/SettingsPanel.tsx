import { LibraryLocationSection } from './LibraryLocationSection';
import { McpSharingSection } from './McpSharingSection';
import { OcrSettingsSection } from './OcrSettingsSection';
import { UpdatesSection } from '../updates/UpdatesSection';
import { THEME_CHOICES, type ThemeChoice } from './theme';
import { useSettingsStore } from './settingsStore';
import { WebSearchSettings } from './WebSearchSettings';
import './settings.css';

const THEME_LABELS: Record<ThemeChoice, string> = { system: 'Match system', light: 'Light', dark: 'Dark' };

export function SettingsPanel() {
  const theme = useSettingsStore((state) => state.theme);
  const setTheme = useSettingsStore((state) => state.setTheme);
  return (
    <div className="settings-panel" data-testid="settings-panel">
      <fieldset className="panel-section fieldset">
        <legend className="section-title">Appearance</legend>
        {THEME_CHOICES.map((choice) => (
          <label key={choice} className="radio">
            <input
              type="radio"
              name="theme"
              value={choice}
              checked={theme === choice}
              data-testid={`theme-${choice}`}
              onChange={() => setTheme(choice)}
            />
            {THEME_LABELS[choice]}
          </label>
        ))}
      </fieldset>
      <OcrSettingsSection />
      <WebSearchSettings />
      <LibraryLocationSection />
      <McpSharingSection />
      <UpdatesSection />
      <section className="panel-section">
        <h3 className="section-title">Keyboard</h3>
        <dl className="shortcuts small">
          <dt>
            <kbd>Ctrl</kbd>/<kbd>⌘</kbd> + <kbd>K</kbd>
          </dt>
          <dd>Focus the question box</dd>
          <dt>
            <kbd>Enter</kbd>
          </dt>
          <dd>Ask; Shift+Enter adds a line</dd>
          <dt>
            <kbd>←</kbd> <kbd>→</kbd>
          </dt>
          <dd>Previous and next page in the page viewer</dd>
          <dt>
            <kbd>Esc</kbd>
          </dt>
          <dd>Close the page viewer</dd>
        </dl>
      </section>
    </div>
  );
}
