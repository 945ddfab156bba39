/** The views, in tab order; 1–5 switch to them. */
export const VIEWS = ['chat', 'queue', 'calendar', 'memory', 'export'] as const;
export type View = (typeof VIEWS)[number];

function typing(t: EventTarget | null): boolean {
  return t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
}

/**
 * Keyboard-first use of the page: `/` search, 1–5 views, j/k move between the items of the view
 * (`[data-item]`), and a/e/r press the button of that key (`[data-key]`) in the focused item.
 * Keys typed into a field stay the field's; Escape leaves it.
 */
export function onKeys(show: (v: View) => void): () => void {
  const handler = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (typing(e.target)) {
      if (e.key === 'Escape') (e.target as HTMLElement).blur();
      return;
    }
    const main = document.querySelector('main');
    if (!main) return;
    if (e.key === '/') {
      e.preventDefault();
      show('memory');
      requestAnimationFrame(() => document.querySelector<HTMLInputElement>('[data-search]')?.focus());
    } else if (/^[1-5]$/.test(e.key)) {
      show(VIEWS[Number(e.key) - 1]!);
    } else if (e.key === 'j' || e.key === 'k') {
      const items = [...main.querySelectorAll<HTMLElement>('[data-item]')];
      if (!items.length) return;
      e.preventDefault();
      const at = items.findIndex((el) => el === document.activeElement || el.contains(document.activeElement));
      const next = at < 0 ? 0 : Math.min(items.length - 1, Math.max(0, at + (e.key === 'j' ? 1 : -1)));
      items[next]!.focus();
    } else if (['a', 'e', 'r'].includes(e.key)) {
      const item = (document.activeElement as HTMLElement | null)?.closest('[data-item]');
      const button = item?.querySelector<HTMLButtonElement>(`[data-key="${e.key}"]`);
      if (button) {
        e.preventDefault();
        button.click();
      }
    }
  };
  document.addEventListener('keydown', handler);
  return () => document.removeEventListener('keydown', handler);
}
