import { describeError } from '../api.js';
import { html } from '../html.js';

/** An API error as the page shows it: in an alert region, with the stable code first. */
export function ErrorLine({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return html`<p class="error" role="alert">${describeError(error)}</p>`;
}
