import { useEffect, useState } from 'preact/hooks';
import type { EndpointResponse } from '../../src/contracts/endpoints.js';
import { describeError } from './api.js';
import { html } from './html.js';
import { onKeys, VIEWS, type View } from './keys.js';
import { connectLive, disconnectLive } from './live.js';
import { firstCall, prefetch } from './prefetch.js';
import { codeOf, resume, type Session, signIn, signOut } from './session.js';
import { CalendarView } from './views/calendar.js';
import { ChatView } from './views/chat.js';
import { ErrorLine } from './views/error-line.js';
import { ExportView } from './views/export.js';
import { MemoryView } from './views/memory.js';
import { QueueView } from './views/queue.js';

type Profile = EndpointResponse<'GET /user/profile'>;
const TITLES: Record<View, string> = { chat: 'Chat', queue: 'Queue', calendar: 'Calendar', memory: 'Memory', export: 'Export' };

function viewOf(hash: string): View {
  const v = hash.replace(/^#/, '') as View;
  return VIEWS.includes(v) ? v : 'queue';
}

function SignIn({ note, onSession }: { note?: string; onSession: (s: Session) => void }) {
  const [error, setError] = useState<unknown>();
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    try {
      onSession(await signIn(String(f.get('email')), String(f.get('password'))));
    } catch (err) {
      setError(err);
    }
  };
  return html`<main class="signin">
    <h1>kairos</h1>
    ${note ? html`<p class="hint" role="status">${note}</p>` : null}
    <p>Run <code>kairos open</code> in a terminal to come in with a one-time link, or sign in:</p>
    <form class="card" onSubmit=${submit}>
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required />
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required />
      <div class="buttons"><button type="submit" class="primary">Sign in</button></div>
      <${ErrorLine} error=${error} />
    </form>
  </main>`;
}

function Shell({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const [view, setView] = useState<View>(viewOf(location.hash));
  const [profile, setProfile] = useState<Profile>();
  const [error, setError] = useState<unknown>();
  const [live, setLive] = useState(false);
  const show = (v: View) => {
    history.replaceState(null, '', `#${v}`);
    setView(v);
  };
  useEffect(() => {
    firstCall('GET /user/profile').then(setProfile, setError);
    connectLive(setLive);
    const off = onKeys(show);
    return () => {
      off();
      disconnectLive();
    };
  }, []);
  useEffect(() => {
    // The first view is on screen: bench/web.mjs reads this mark.
    if (profile) performance.mark('kairos:first-view');
  }, [profile]);
  const zone = profile?.timezone ?? 'UTC';
  const body = !profile
    ? html`<${ErrorLine} error=${error} />`
    : view === 'chat'
      ? html`<${ChatView} zone=${zone} />`
      : view === 'queue'
        ? html`<${QueueView} zone=${zone} />`
        : view === 'calendar'
          ? html`<${CalendarView} zone=${zone} />`
          : view === 'memory'
            ? html`<${MemoryView} zone=${zone} />`
            : html`<${ExportView} userId=${profile.user_id} />`;
  return html`<header class="top">
      <h1>kairos</h1>
      <nav aria-label="Views">
        ${VIEWS.map(
          (v, i) =>
            html`<a href=${`#${v}`} aria-current=${v === view ? 'page' : undefined} onClick=${(e: Event) => {
              e.preventDefault();
              show(v);
            }}>${TITLES[v]} <kbd>${i + 1}</kbd></a>`,
        )}
      </nav>
      <span class=${`live ${live ? 'on' : ''}`} role="status">${live ? 'live' : 'offline'}</span>
      <span class="who">${profile?.display_name ?? session.user.email ?? ''}</span>
      <button onClick=${onSignOut}>Sign out</button>
    </header>
    <main>${body}</main>`;
}

/** A session starts the first screen's reads at once: the profile, and the queue when it is shown first. */
function signedIn(session: Session): Session {
  prefetch(viewOf(location.hash) === 'queue' ? ['GET /user/profile', 'GET /agent/queue'] : ['GET /user/profile']);
  return session;
}

/** The page: sign in (link code, cookie, or the form), then the views. */
export function App() {
  const [state, setState] = useState<{ session?: Session; note?: string; ready: boolean }>({ ready: false });
  useEffect(() => {
    const start = () =>
      resume().then(
        (r) => setState({ session: r.session && signedIn(r.session), note: r.error, ready: true }),
        (e) => setState({ note: describeError(e), ready: true }),
      );
    start();
    // A kairos open link followed in a tab that already shows the page changes only the fragment.
    const linked = () => {
      if (!codeOf(location.hash)) return;
      setState({ ready: false });
      start();
    };
    addEventListener('hashchange', linked);
    return () => removeEventListener('hashchange', linked);
  }, []);
  if (!state.ready) return html`<p class="loading">Signing in…</p>`;
  if (!state.session) return html`<${SignIn} note=${state.note} onSession=${(session: Session) => setState({ session: signedIn(session), ready: true })} />`;
  const out = async () => {
    await signOut().catch(() => {});
    setState({ ready: true, note: 'Signed out.' });
  };
  return html`<${Shell} session=${state.session} onSignOut=${out} />`;
}
