import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { traceReads } from '../../../src/domain/memory/traces.js';
import { SCHEMA_VERSION } from '../../../src/store/schema.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});

const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-02T00:00:00.000Z';
const trace = (uid: string, version = 1, content = `note ${uid}`) => ({
  uid,
  user_id: 'u1',
  type: 'observation',
  task_id: 't',
  timestamp: T0,
  content,
  importance: 3,
  version,
  linked_trace_ids: [],
  child_trace_ids: [],
  authored_by: 'agent',
  created_at: T0,
  updated_at: version === 1 ? T0 : T1,
});
const firstRow = (t: ReturnType<typeof trace>, value: object = t) => ({
  id: `${t.uid}#1`,
  uid: t.uid,
  user_id: 'u1',
  version: 1,
  timestamp: T0,
  actor: 'agent',
  patch: [{ op: 'add', path: '', value }],
});

/**
 * A store written before first history rows were derived holds one per trace, the whole trace
 * again. Opening it drops the rows that say nothing their trace does not, and keeps every other.
 */
describe('opening a store that still holds every first history row (schema 2)', () => {
  it('drops the rows its traces give, keeps the others, and every history reads the same', async () => {
    const home = tempHome();
    homes.push(home);
    const p = homePaths(home);
    const plain = trace('tr_plain');
    const edited = trace('tr_edited', 2, 'rewritten');
    const odd = trace('tr_odd');
    const traces = [plain, edited, odd];
    const rows = [
      firstRow(plain),
      firstRow(edited, { ...trace('tr_edited'), content: 'as first written' }),
      {
        id: 'tr_edited#2',
        uid: 'tr_edited',
        user_id: 'u1',
        version: 2,
        timestamp: T1,
        actor: 'u1',
        patch: [{ op: 'replace', path: '/content', value: 'rewritten' }],
      },
      // Not what its trace gives (another author): kept as it is.
      { ...firstRow(odd), actor: 'someone-else' },
    ];
    writeFileSync(p.db, JSON.stringify({ schema_version: 2, journal_seq: 0, meta: {}, collections: { traces, trace_versions: rows } }));

    const store = await Store.open(p);
    try {
      expect(store.all('trace_versions').map((r) => r.id)).toEqual(['tr_edited#1', 'tr_edited#2', 'tr_odd#1']);
      const reads = traceReads(store);
      for (const t of traces) {
        const before = rows.filter((r) => r.uid === t.uid);
        expect(JSON.parse(JSON.stringify(reads.versionsOf(t.uid).sort((a, b) => a.version - b.version))), t.uid).toEqual(before);
      }
    } finally {
      await store.close();
    }
    const file = JSON.parse(readFileSync(p.db, 'utf8'));
    expect(file.schema_version).toBe(SCHEMA_VERSION);
    expect(file.collections.trace_versions).toHaveLength(3);
  });
});
