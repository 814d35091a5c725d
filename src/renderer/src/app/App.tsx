import { useRef, useState } from 'react';
import { DisconnectedBanner } from '../components/DisconnectedBanner';
import { ChatPanel } from '../features/chat/ChatPanel';
import { LibrarySidebar } from '../features/library/LibrarySidebar';
import { useLibraryShown } from '../features/library/libraryShown';
import { PageViewer } from '../features/pages/PageViewer';
import { SidePanel } from './SidePanel';
import { useGlobalShortcuts } from './useGlobalShortcuts';
import { useMediaQuery, useOverlayPanel } from './useOverlayPanel';
import './app.css';

/** Where the side panel stops fitting beside the chat and becomes an overlay (app.css uses the same width). */
const OVERLAY_QUERY = '(max-width: 1100px)';
/**
 * Where the library stops fitting beside the chat (app.css uses the same width): at 720 px the chat
 * still gets 440 px, enough for the question box's lines unwrapped; at 360 px it got 80 px.
 */
const NARROW_QUERY = '(max-width: 719px)';

export function App() {
  // Open beside the chat on wide windows, closed (an overlay when opened) on narrow ones.
  const [sidePanelOpen, setSidePanelOpen] = useState(() => !window.matchMedia(OVERLAY_QUERY).matches);
  // Only read on narrow windows: a wide one always shows the library as a column.
  const [libraryOpen, setLibraryOpen] = useState(false);
  // A panel that turns into an overlay as the window narrows would suddenly cover the chat: close it.
  const sideOverlay = useMediaQuery(OVERLAY_QUERY, (overlay) => {
    if (overlay) setSidePanelOpen(false);
  });
  const narrow = useMediaQuery(NARROW_QUERY);
  const libraryToggleRef = useRef<HTMLButtonElement>(null);
  const sideToggleRef = useRef<HTMLButtonElement>(null);
  const libraryOverlayOpen = narrow && libraryOpen;
  useGlobalShortcuts();
  useOverlayPanel({
    panelId: 'library-panel',
    toggleRef: libraryToggleRef,
    open: libraryOverlayOpen,
    setOpen: setLibraryOpen,
    overlay: narrow,
  });
  useOverlayPanel({
    panelId: 'side-panel',
    toggleRef: sideToggleRef,
    open: sidePanelOpen,
    setOpen: setSidePanelOpen,
    overlay: sideOverlay,
  });
  const libraryShown = useLibraryShown();

  const columnsClass = [
    'app__columns',
    sidePanelOpen ? '' : 'app__columns--panel-closed',
    libraryOverlayOpen ? 'app__columns--library-open' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className="app">
      <header className="app-bar">
        {/* Shown on narrow windows only (app.css), where the library is drawn over the chat. */}
        <button
          ref={libraryToggleRef}
          type="button"
          className="button button--small app-bar__toggle app-bar__library-toggle"
          aria-expanded={libraryOverlayOpen}
          aria-controls="library-panel"
          data-testid="library-toggle"
          onClick={() => {
            // Two panels over a narrow chat would cover each other: one at a time.
            if (!libraryOverlayOpen) setSidePanelOpen(false);
            setLibraryOpen(!libraryOverlayOpen);
          }}
        >
          Library
        </button>
        <span className="app-bar__name">Quire</span>
        <button
          ref={sideToggleRef}
          type="button"
          className="button button--small app-bar__toggle"
          aria-expanded={sidePanelOpen}
          aria-controls="side-panel"
          data-testid="panel-toggle"
          onClick={() => {
            if (!sidePanelOpen) setLibraryOpen(false);
            setSidePanelOpen(!sidePanelOpen);
          }}
        >
          Models & settings
        </button>
      </header>
      <DisconnectedBanner />
      <div className={columnsClass}>
        <LibrarySidebar id="library-panel" />
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
