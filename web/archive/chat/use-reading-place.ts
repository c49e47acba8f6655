/**
 * Where the reader is in a chat's log, kept as messages come and go: at the bottom for the newest page
 * (and for a new message while the reader is there), still when older messages are added above, on the
 * message a jump brought into view.
 */
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

export interface ReadingPlace {
  scroller: RefObject<HTMLDivElement | null>;
  /** The next change shows the end of the log. */
  toBottom(): void;
  /** The next change leaves the reader where they are. */
  stay(): void;
  /** Messages are about to be added above: the reader stays on what they read. */
  holdAbove(): void;
  /** Whether the reader is within `px` of the end of the log. */
  nearEnd(px: number): boolean;
}

export function useReadingPlace(
  messages: readonly unknown[],
  focusId: number | null,
  focused: () => void,
): ReadingPlace {
  const scroller = useRef<HTMLDivElement>(null);
  const keepBottom = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    } else if (focusId !== null) {
      const target = el.querySelector<HTMLElement>(`[data-message="${focusId}"]`);
      if (target) {
        target.scrollIntoView({ block: 'center' });
        target.focus({ preventScroll: true });
        focused();
      }
    } else if (keepBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const nearEnd = (px: number) => {
    const el = scroller.current;
    return el ? el.scrollHeight - el.scrollTop - el.clientHeight < px : true;
  };
  return {
    scroller,
    nearEnd,
    toBottom: () => {
      keepBottom.current = true;
    },
    stay: () => {
      keepBottom.current = false;
    },
    holdAbove: () => {
      const el = scroller.current;
      if (el) anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      keepBottom.current = false;
    },
  };
}
