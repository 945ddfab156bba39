import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_BYTES } from '../../src/contracts/page.js';
import { type PatchOperation, replay } from '../../src/contracts/patch.js';
import { runCli } from '../helpers/daemon.js';
import { useApp } from '../helpers/in-process.js';
import { connectMcpHttp } from '../helpers/mcp-http-client.js';

const d = useApp();

// A trace edited 47 times, each version a new text of 99,990 two-byte characters: its history is
// about 9.6 MB of JSON, more than two pages of PAGE_BYTES.
const VERSIONS = 48;
const UID = 'long-history';
const textOf = (v: number) => `v${v} ${'é'.repeat(99_990)}`;

beforeAll(async () => {
  const r = await d.api('POST', '/memory/push', { body: { traces: [{ uid: UID, type: 'observation', task_id: 'notes', content: textOf(1) }] } });
  expect(r.status, r.text).toBe(201);
  for (let v = 2; v <= VERSIONS; v++) {
    const e = await d.api('PATCH', '/memory/edit', { body: { uid: UID, updates: { content: textOf(v) } } });
    expect(e.status, e.text.slice(0, 300)).toBe(200);
  }
}, 120_000);

describe('GET /memory/history in pages of PAGE_BYTES', () => {
  it('cuts a long history into pages within the budget, every version once, oldest first', async () => {
    const versions: { version: number; patch: PatchOperation[] }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await d.api('GET', `/memory/history?uid=${UID}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(PAGE_BYTES);
      expect(r.json.uid).toBe(UID);
      versions.push(...r.json.versions);
      cursor = r.json.next_cursor ?? undefined;
      expect(++pages).toBeLessThan(VERSIONS);
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: VERSIONS }, (_, i) => i + 1));
    expect(replay(versions.map((v) => v.patch)).content).toBe(textOf(VERSIONS));
  });

  it('a short history is one page whose next_cursor is null', async () => {
    const r = await d.api('POST', '/memory/push', { body: { traces: [{ uid: 'short', type: 'observation', task_id: 'notes', content: 'hi' }] } });
    expect(r.status).toBe(201);
    const h = await d.api('GET', '/memory/history?uid=short');
    expect(h.json).toMatchObject({ uid: 'short', next_cursor: null });
    expect(h.json.versions).toHaveLength(1);
  });

  it('refuses a cursor it did not make, or one of another trace, with 422', async () => {
    const first = await d.api('GET', `/memory/history?uid=${UID}`);
    for (const [uid, cursor] of [
      [UID, 'not-a-cursor'],
      ['short', first.json.next_cursor],
    ]) {
      const r = await d.api('GET', `/memory/history?uid=${uid}&cursor=${encodeURIComponent(cursor)}`);
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.details[0].path).toBe('cursor');
    }
  });
});

describe('the readers of a history follow next_cursor', () => {
  const env = () => ({ KAIROS_HOME: d.home, KAIROS_URL: d.base, KAIROS_API_KEY: d.key });

  it('kairos trace history --json prints every version in one document', async () => {
    const r = await runCli(['trace', 'history', UID, '--json'], { env: env(), timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.next_cursor).toBeNull();
    expect(body.versions.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: VERSIONS }, (_, i) => i + 1));
  });

  it('kairos trace show rebuilds the current version from every page', async () => {
    const r = await runCli(['trace', 'show', UID, '--json'], { env: env(), timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ uid: UID, version: VERSIONS, content: textOf(VERSIONS) });
  });

  it('the MCP resource kairos://trace/{uid} is the current version', async () => {
    const c = await connectMcpHttp(d.base, d.key);
    try {
      const r = await c.readResource({ uri: `kairos://trace/${UID}` });
      const t = JSON.parse((r.contents[0] as { text: string }).text);
      expect(t).toMatchObject({ uid: UID, version: VERSIONS });
      expect(t.content).toBe(textOf(VERSIONS));
    } finally {
      await c.close();
    }
  });
});
