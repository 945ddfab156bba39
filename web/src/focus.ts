import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A ref whose element takes the focus when it mounts: a form opened from the keyboard (e, r, a
 * day's "+ event") is typed into at once. The autofocus attribute does not do it once the page
 * has a focused element.
 */
export function useFocusOnMount<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}
