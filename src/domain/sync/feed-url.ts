/** `webcal://` is the calendar apps' name for an https feed (webcal over plain http is rare and insecure). */
export function fetchableUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'webcal:' || u.protocol === 'webcals:') return `https:${url.trim().slice(u.protocol.length)}`;
  return u.toString();
}

/** A default name for a feed: its host and last path segment (`calendar.example.com/team.ics`). */
export function defaultFeedName(url: string): string {
  const u = new URL(url);
  const last = u.pathname.split('/').filter(Boolean).pop();
  return last ? `${u.host}/${decodeURIComponent(last)}`.slice(0, 200) : u.host;
}
