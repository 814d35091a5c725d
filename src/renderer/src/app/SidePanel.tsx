import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { ModelsPanel } from '../features/models/ModelsPanel';
import { SettingsPanel } from '../features/settings/SettingsPanel';

const TABS = [
  { id: 'models', label: 'Models & memory' },
  { id: 'settings', label: 'Settings' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function SidePanel({ open }: { open: boolean }) {
  const [active, setActive] = useState<TabId>('models');
  const tabRefs = useRef(new Map<TabId, HTMLButtonElement>());
  const baseId = useId();

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = TABS[(index + step + TABS.length) % TABS.length];
    if (!next) return;
    setActive(next.id);
    tabRefs.current.get(next.id)?.focus();
  }

  return (
    <aside
      className={`side-panel${open ? ' side-panel--open' : ''}`}
      aria-label="Models and settings"
      id="side-panel"
      tabIndex={-1}
    >
      <div className="tabs" role="tablist" aria-label="Panels">
        {TABS.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) tabRefs.current.set(tab.id, element);
              else tabRefs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${baseId}-${tab.id}-tab`}
            className="tabs__tab"
            aria-selected={active === tab.id}
            aria-controls={`${baseId}-${tab.id}-panel`}
            tabIndex={active === tab.id ? 0 : -1}
            data-testid={`tab-${tab.id}`}
            onClick={() => setActive(tab.id)}
            onKeyDown={(event) => onTabKeyDown(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-${tab.id}-panel`}
          aria-labelledby={`${baseId}-${tab.id}-tab`}
          className="side-panel__body"
          hidden={active !== tab.id}
        >
          {tab.id === 'models' ? <ModelsPanel /> : <SettingsPanel />}
        </div>
      ))}
    </aside>
  );
}
