/**
 * A person at a browser, played by an HTTP client: it follows redirects by hand with a cookie
 * jar, and on each page submits its first form with the form's own fields (hidden ones kept,
 * text and password fields filled from `fill`), until a page has no form. It stops there: the
 * last URL and page are what the person would see. No JavaScript (the pages of oidc-provider
 * need none).
 */
export interface BrowseResult {
  url: string;
  status: number;
  body: string;
  /** Every URL visited, in order. */
  visited: string[];
}

/** `press`: on a page with a button of that name, submit the form with that button (e.g. `{ abort: 'yes' }`, the person refuses). */
export async function browse(
  start: string,
  fill: Record<string, string> = {},
  o: { press?: Record<string, string>; maxSteps?: number } = {},
): Promise<BrowseResult> {
  const maxSteps = o.maxSteps ?? 30;
  const jar = new Map<string, { value: string; path: string }>();
  const visited: string[] = [];
  let url = start;
  let init: RequestInit = {};
  let pressed = false;
  for (let step = 0; step < maxSteps; step++) {
    visited.push(url);
    const u = new URL(url);
    const cookie = [...jar.entries()]
      .filter(([, c]) => u.pathname.startsWith(c.path))
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [k, ...v] = pair!.split('=');
      const path =
        attrs
          .map((a) => a.trim())
          .find((a) => a.toLowerCase().startsWith('path='))
          ?.slice(5) ?? '/';
      jar.set(k!.trim(), { value: v.join('='), path });
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.arrayBuffer();
      url = new URL(location, url).href;
      init = {};
      continue;
    }
    const body = await res.text();
    const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(body);
    // After a pressed button the person reads the page they land on and stops.
    if (!form || pressed) return { url, status: res.status, body, visited };
    const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`, 'i').exec(tag)?.[1];
    const fields = new URLSearchParams();
    for (const input of form[2]!.match(/<input\b[^>]*>/gi) ?? []) {
      const name = attr(input, 'name');
      if (!name) continue;
      fields.set(name, fill[name] ?? decode(attr(input, 'value') ?? ''));
    }
    for (const [name, value] of Object.entries(o.press ?? {})) {
      if (!new RegExp(`<button\\b[^>]*\\bname="${name}"`, 'i').test(body)) continue;
      fields.set(name, value);
      pressed = true;
    }
    url = new URL(decode(attr(form[1]!, 'action') ?? url), url).href;
    init = { method: 'POST', body: fields.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error(`browse: more than ${maxSteps} steps from ${start}: ${visited.join(' → ')}`);
}

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x2F;/g, '/')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
