import { useEffect, useState } from 'preact/hooks';
import type { EndpointResponse } from '../../../src/contracts/endpoints.js';
import { call, callWhole } from '../api.js';
import { highlight } from '../highlight.js';
import { replay, shown, type VersionRow } from '../history.js';
import { html } from '../html.js';
import { whenLabel } from '../time.js';
import { ErrorLine } from './error-line.js';

type Result = EndpointResponse<'POST /memory/search'>['results'][number];

function Marked({ text, query }: { text: string; query: string }) {
  return html`${highlight(text, query).map((p) => (p.hit ? html`<mark>${p.text}</mark>` : p.text))}`;
}

function TraceView({ uid, zone, onSaved }: { uid: string; zone: string; onSaved: () => void }) {
  const [trace, setTrace] = useState<Record<string, unknown>>();
  const [rows, setRows] = useState<VersionRow[]>([]);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const load = async () => {
    try {
      const r = replay((await callWhole('GET /memory/history', 'versions', { query: { uid } })).versions);
      setTrace(r.current);
      setRows(r.rows);
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => {
    setSaved(false);
    load();
  }, [uid]);
  const save = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    try {
      await call('PATCH /memory/edit', {
        body: { uid, updates: { content: String(f.get('content')), importance: Number(f.get('importance')) }, expected_version: trace?.version as number },
      });
      setError(undefined);
      setSaved(true);
      await load();
      onSaved();
    } catch (err) {
      setError(err);
    }
  };
  if (!trace) return html`<div class="card"><${ErrorLine} error=${error} /></div>`;
  const immutable = trace.type === 'transition';
  return html`<article class="card trace" aria-label="Trace">
    <header><strong>${String(trace.type)}</strong> <span class="by">${String(trace.task_id)} · v${String(trace.version)} · ${whenLabel(String(trace.timestamp), zone)}</span></header>
    <form onSubmit=${save} key=${String(trace.version)}>
      <label for="trace-content">Content</label>
      <textarea id="trace-content" name="content" rows="4" readonly=${immutable}>${String(trace.content)}</textarea>
      <label for="trace-importance">Importance (1–5)</label>
      <input id="trace-importance" name="importance" type="number" min="1" max="5" value=${String(trace.importance)} readonly=${immutable} />
      <div class="buttons"><button type="submit" class="primary" disabled=${immutable}>Save</button>${saved ? html`<span role="status">Saved.</span>` : null}</div>
      <${ErrorLine} error=${error} />
    </form>
    <h3>History</h3>
    <ol class="history plain">
      ${rows.map(
        (r) => html`<li key=${r.version}>
          <div class="by">v${r.version} · ${whenLabel(r.timestamp, zone)} · ${r.actor}</div>
          ${r.version === 1 ? html`<div class="hint">created</div>` : null}
          ${r.changes.map(
            (c) => html`<div class="diff">
              <code>${c.path.slice(1)}</code>
              <del>${shown(c.before)}</del>
              <ins>${shown(c.after)}</ins>
            </div>`,
          )}
        </li>`,
      )}
    </ol>
  </article>`;
}

function PushNote({ onPushed }: { onPushed: () => void }) {
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const push = async (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const f = new FormData(form);
    try {
      const r = await call('POST /memory/push', {
        body: { traces: [{ type: 'observation', task_id: String(f.get('task')).trim() || 'notes', content: String(f.get('note')).trim() }] },
      });
      setDone(r.saved[0]?.uid);
      setError(undefined);
      form.reset();
      onPushed();
    } catch (err) {
      setError(err);
    }
  };
  return html`<form class="card" onSubmit=${push} aria-label="Push a note">
    <h3>Push a note</h3>
    <label for="note-text">Note</label>
    <textarea id="note-text" name="note" rows="2" required></textarea>
    <label for="note-task">Task</label>
    <input id="note-task" name="task" placeholder="notes" />
    <div class="buttons"><button type="submit" class="primary">Push</button>${done ? html`<span role="status">Saved ${done}.</span>` : null}</div>
    <${ErrorLine} error=${error} />
  </form>`;
}

/** Hybrid search with the query's words marked, a trace with its history as diffs, editing, and new notes. */
export function MemoryView({ zone }: { zone: string }) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Result[]>();
  const [mode, setMode] = useState<string>();
  const [open, setOpen] = useState<string>();
  const [error, setError] = useState<unknown>();
  const search = async (q = query) => {
    if (!q.trim()) return;
    try {
      const r = await call('POST /memory/search', { body: { query: q, mode: 'hybrid' } });
      setResults(r.results);
      setMode(r.mode_used);
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  };
  return html`<section aria-labelledby="mem-h">
    <h2 id="mem-h">Memory</h2>
    <form
      role="search"
      class="ask"
      onSubmit=${(e: Event) => {
        e.preventDefault();
        search();
      }}
    >
      <label for="search">Search memory <kbd>/</kbd></label>
      <input id="search" type="search" data-search value=${query} onInput=${(e: Event) => setQuery((e.target as HTMLInputElement).value)} />
      <button type="submit" class="primary">Search</button>
    </form>
    <${ErrorLine} error=${error} />
    ${results?.length === 0 ? html`<p class="empty">No trace matches.</p>` : null}
    ${results?.length ? html`<p class="hint">${results.length} result(s), ${mode} search</p>` : null}
    <ul class="plain list">
      ${results?.map(
        (r) => html`<li key=${r.uid}>
          <button class=${`result ${open === r.uid ? 'open' : ''}`} data-item onClick=${() => setOpen(r.uid)} aria-expanded=${open === r.uid}>
            <span class="by">${r.type} · ${r.task_id} · ${whenLabel(r.timestamp, zone)} · ${Math.round(r.score * 100)}%</span>
            <span class="summary"><${Marked} text=${r.summary} query=${query} /></span>
          </button>
        </li>`,
      )}
    </ul>
    ${open ? html`<${TraceView} uid=${open} zone=${zone} onSaved=${() => search()} />` : null}
    <${PushNote} onPushed=${() => search()} />
  </section>`;
}
