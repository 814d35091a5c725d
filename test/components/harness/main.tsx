/** Mounts one panel of the app, as the test's set-up names it, over the stand-in engine. */
import { harnessSetup } from './install';
import { libraryLayoutFaults } from './libraryLayoutFaults';
import { windowLayoutFaults } from './windowLayoutFaults';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '../../../src/renderer/src/app/App';
import { startEngineSync } from '../../../src/renderer/src/app/engineSync';
import { ChatPanel } from '../../../src/renderer/src/features/chat/ChatPanel';
import { LibrarySidebar } from '../../../src/renderer/src/features/library/LibrarySidebar';
import { ModelsPanel } from '../../../src/renderer/src/features/models/ModelsPanel';
import { PageViewer } from '../../../src/renderer/src/features/pages/PageViewer';
import { usePagesStore } from '../../../src/renderer/src/features/pages/pagesStore';
import { McpSharingSection } from '../../../src/renderer/src/features/settings/McpSharingSection';
import '../../../src/renderer/src/features/settings/settings.css';
import '../../../src/renderer/src/styles/base.css';
import '../../../src/renderer/src/styles/controls.css';
import '../../../src/renderer/src/app/app.css';

function panel(): ReactNode {
  switch (harnessSetup.panel) {
    case 'chat':
      return (
        <>
          <ChatPanel />
          <PageViewer />
        </>
      );
    case 'library':
      return <LibrarySidebar />;
    case 'models':
      return <ModelsPanel />;
    case 'viewer':
      return <PageViewer />;
    case 'otherApps':
      return (
        <div className="settings-panel">
          <McpSharingSection />
        </div>
      );
    case 'app':
      return <App />;
  }
}

Object.assign(globalThis, { libraryLayoutFaults, windowLayoutFaults });
startEngineSync();
if (harnessSetup.viewer) usePagesStore.getState().openViewer({ ...harnessSetup.viewer, highlight: null });

const container = document.getElementById('root');
if (!container) throw new Error('The harness page has no #root element.');
createRoot(container).render(<StrictMode>{panel()}</StrictMode>);
