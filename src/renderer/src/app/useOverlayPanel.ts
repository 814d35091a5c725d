import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * Whether a media query matches now, kept up to date as the window is resized; `onChange` hears each
 * change (not the first reading).
 */
export function useMediaQuery(query: string, onChange?: (matches: boolean) => void): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  useEffect(() => {
    const list = window.matchMedia(query);
    const changed = () => {
      setMatches(list.matches);
      onChangeRef.current?.(list.matches);
    };
    list.addEventListener('change', changed);
    return () => list.removeEventListener('change', changed);
  }, [query]);
  return matches;
}

/**
 * A side panel drawn over the chat (while `overlay` holds) behaves like one: opening it moves the
 * focus into it, Escape closes it and gives the focus back to its toggle, and moving the focus to the
 * chat (Ctrl+K, "Ask about this") closes it so the question box is not left under it.
 */
export function useOverlayPanel(options: {
  panelId: string;
  toggleRef: RefObject<HTMLButtonElement | null>;
  open: boolean;
  /** A state setter: stable across renders. */
  setOpen: (open: boolean) => void;
  overlay: boolean;
}): void {
  const { panelId, toggleRef, open, setOpen, overlay } = options;
  const wasOpen = useRef(open);

  useEffect(() => {
    const opened = open && !wasOpen.current;
    wasOpen.current = open;
    if (opened && overlay) document.getElementById(panelId)?.focus();
  }, [open, overlay, panelId]);

  useEffect(() => {
    if (!open || !overlay) return;
    // Looked up each time: the panel is drawn anew once the library's first rows are in.
    const ownsFocus = (target: EventTarget | null) =>
      target instanceof Node &&
      (document.getElementById(panelId)?.contains(target) === true || toggleRef.current === target);

    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || event.defaultPrevented || !ownsFocus(event.target)) return;
      event.preventDefault();
      setOpen(false);
      toggleRef.current?.focus();
    }
    function onFocusIn(event: FocusEvent) {
      // A dialog (the page viewer) opens over the panel and hands the focus back to it when it closes.
      if (ownsFocus(event.target) || (event.target instanceof Element && event.target.closest('dialog'))) {
        return;
      }
      setOpen(false);
    }
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, [open, overlay, panelId, setOpen, toggleRef]);
}
