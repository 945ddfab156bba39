import { useState } from 'preact/hooks';
import type { EndpointResponse } from '../../../src/contracts/endpoints.js';
import { call } from '../api.js';
import { html } from '../html.js';
import { ErrorLine } from './error-line.js';

type Exported = EndpointResponse<'GET /context/export'>;
type Item = { timestamp: string; type: string; task_id: string; summary?: string };
const itemsOf = (r: Exported) => (Array.isArray(r.results) ? r.results : []) as Item[];

/** The text an agent would be given: one line per summary item. */
export function exportText(r: Exported): string {
  return itemsOf(r)
    .map((i) => `- ${i.timestamp.slice(0, 10)} [${i.type}/${i.task_id}] ${i.summary ?? ''}`)
    .join('\n');
}

/** A preview of the context export (summary format) with its token count, copied in one click. */
export function ExportView({ userId }: { userId: string }) {
  const [result, setResult] = useState<Exported>();
  const [error, setError] = useState<unknown>();
  const [copied, setCopied] = useState<string>();
  const preview = async (e?: Event) => {
    e?.preventDefault();
    const f = e ? new FormData(e.target as HTMLFormElement) : new FormData();
    const max = Number(f.get('max') || 0);
    try {
      setResult(
        await call('GET /context/export', {
          query: { user_id: userId, export_format: 'summary', task_id: String(f.get('task') ?? '').trim() || undefined, max_token_count: max || undefined },
        }),
      );
      setError(undefined);
      setCopied(undefined);
    } catch (err) {
      setError(err);
    }
  };
  const copy = async () => {
    if (!result) return;
    try {
      await navigator.clipboard.writeText(exportText(result));
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('The browser refused the clipboard: select the text and copy it.');
    }
  };
  return html`<section aria-labelledby="exp-h">
    <h2 id="exp-h">Export</h2>
    <form class="card" onSubmit=${preview}>
      <label for="exp-task">Task (optional)</label>
      <input id="exp-task" name="task" />
      <label for="exp-max">Token cap (optional)</label>
      <input id="exp-max" name="max" type="number" min="1" />
      <div class="buttons"><button type="submit" class="primary">Preview</button></div>
    </form>
    <${ErrorLine} error=${error} />
    ${
      result
        ? html`<div class="card">
          <p><strong data-tokens>${result.token_count ?? 0} tokens</strong> (o200k), ${itemsOf(result).length} item(s)${result.truncated ? ', truncated by the cap' : ''}</p>
          <label for="exp-text">Preview</label>
          <textarea id="exp-text" rows="12" readonly>${exportText(result)}</textarea>
          <div class="buttons"><button class="primary" onClick=${copy}>Copy to clipboard</button>${copied ? html`<span role="status">${copied}</span>` : null}</div>
        </div>`
        : null
    }
  </section>`;
}
