import { useState } from 'react';
import { DisconnectedBanner } from '../components/DisconnectedBanner';
import { ChatPanel } from '../features/chat/ChatPanel';
import { LibrarySidebar } from '../features/library/LibrarySidebar';
import { useLibraryShown } from '../features/library/libraryShown';
import { PageViewer } from '../features/pages/PageViewer';
import { SidePanel } from './SidePanel';
import { useGlobalShortcuts } from './useGlobalShortcuts';
import './app.css';

/** Where the side panel stops fitting beside the chat and becomes an overlay (app.css uses the same width). */
const OVERLAY_QUERY = '(max-width: 1100px)';

export function App() {
  // Open beside the chat on wide windows, closed (an overlay when opened) on narrow ones.
  const [sidePanelOpen, setSidePanelOpen] = useState(() => !window.matchMedia(OVERLAY_QUERY).matches);
  useGlobalShortcuts();
  const libraryShown = useLibraryShown();

  return (
    <div className="app">
      <header className="app-bar">
        <span className="app-bar__name">Quire</span>
        <button
          type="button"
          className="button button--small app-bar__panel-toggle"
          aria-expanded={sidePanelOpen}
          aria-controls="side-panel"
          data-testid="panel-toggle"
          onClick={() => setSidePanelOpen(!sidePanelOpen)}
        >
          Models & settings
        </button>
      </header>
      <DisconnectedBanner />
      <div className={`app__columns${sidePanelOpen ? '' : ' app__columns--panel-closed'}`}>
        <LibrarySidebar />
        {libraryShown ? (
          <>
            <ChatPanel />
            <SidePanel open={sidePanelOpen} />
          </>
        ) : (
          // The columns keep their place while the library's first rows are drawn.
          <>
            <main className="chat" aria-busy="true" />
            <aside className={`side-panel${sidePanelOpen ? ' side-panel--open' : ''}`} aria-busy="true" />
          </>
        )}
      </div>
      {libraryShown && <PageViewer />}
    </div>
  );
}
