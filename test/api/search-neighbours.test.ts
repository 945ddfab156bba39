import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, useApp } from '../helpers/in-process.js';

type Hit = { uid: string; score: number };
type Search = { results: Hit[]; mode_used: string };

const at = (minute: number) => new Date(Date.UTC(2026, 0, 10, 9, minute)).toISOString();

/**
 * One conversation in task "chat": a question about the pottery class, the reply just after it,
 * small talk, and the same reply again far from the question. The two replies are the same text,
 * so alone they score alike; the uid of the far one sorts first, so a tie lists it first.
 */
function conversation() {
  const turn = (uid: string, minute: number, content: string) => ({ uid, type: 'observation', task_id: 'chat', timestamp: at(minute), content });
  const reply = 'Leo: I loved the class, we made two bowls and a mug';
  return [
    turn('q-asked', 0, 'Mia: Did you finally go to the pottery class on Saturday?'),
    turn('z-near', 1, reply),
    turn('s-1', 2, 'Mia: The weather was grey and rainy all week'),
    turn('s-2', 3, 'Leo: My brother is moving to Hamburg next month'),
    turn('s-3', 4, 'Mia: Our landlord finally repaired the heating'),
    turn('s-4', 5, 'Leo: I started reading a novel about sailors'),
    turn('s-5', 6, 'Mia: The train to work was late again today'),
    turn('a-far', 7, reply),
  ];
}

const searcher =
  (app: TestApp) =>
  async (body: Record<string, unknown>): Promise<Search> => {
    const r = await app.api('POST', '/memory/search', { body });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };

async function modelReady(search: (body: Record<string, unknown>) => Promise<Search>): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if ((await search({ query: 'probe', mode: 'semantic', limit: 1 })).mode_used === 'semantic') return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the built-in model did not become ready');
}

describe('hybrid search: a trace borrows from its neighbours in its task', () => {
  const app = useApp();
  const search = searcher(app);

  beforeAll(async () => {
    expect((await app.api('POST', '/memory/push', { body: { traces: conversation() } })).status).toBe(201);
    await modelReady(search);
  });

  const scoreOf = (r: Search, uid: string) => r.results.find((h) => h.uid === uid)?.score;

  it.each(['hybrid', 'semantic'])('%s: the reply next to the question outranks the same reply far from it', async (mode) => {
    const r = await search({ query: 'pottery class', mode, limit: 10 });
    expect(r.mode_used).toBe(mode);
    const uids = r.results.map((h) => h.uid);
    expect(uids).toContain('z-near');
    expect(uids).toContain('a-far');
    expect(uids.indexOf('z-near')).toBeLessThan(uids.indexOf('a-far'));
    expect(scoreOf(r, 'z-near')!).toBeGreaterThan(scoreOf(r, 'a-far')!);
  });

  it('moving the question next to the other reply moves the lift with it', async () => {
    const edit = await app.api('PATCH', '/memory/edit', { body: { uid: 'q-asked', updates: { timestamp: at(8) } } });
    expect(edit.status, edit.text).toBe(200);
    const r = await search({ query: 'pottery class', mode: 'hybrid', limit: 10 });
    expect(scoreOf(r, 'a-far')!).toBeGreaterThan(scoreOf(r, 'z-near')!);
    const back = await app.api('PATCH', '/memory/edit', { body: { uid: 'q-asked', updates: { timestamp: at(0) } } });
    expect(back.status, back.text).toBe(200);
  });

  it('keyword mode scores each trace by its own words: the two replies tie', async () => {
    const r = await search({ query: 'pottery class', mode: 'keyword', limit: 10 });
    expect(scoreOf(r, 'z-near')).toBeDefined();
    expect(scoreOf(r, 'z-near')).toBe(scoreOf(r, 'a-far'));
  });
});

describe('a neighbour lifts only a trace that scores below it', () => {
  const app = useApp();
  const search = searcher(app);

  beforeAll(async () => {
    // Two look-alike notes side by side, and the same two again apart, with other chores between
    // and around them, all in one task: each copy scores as its twin does on its own.
    const note = (uid: string, minute: number, content: string) => ({ uid, type: 'observation', task_id: 'chores', timestamp: at(minute), content });
    const watered = 'Watered the tomato plants on the balcony';
    const other = [
      'Paid the electricity bill',
      'Booked a dentist appointment',
      'Sorted the winter clothes',
      'Fixed the squeaky door',
      'Cleaned the oven',
      'Returned the library books',
    ];
    const traces = [
      note('side-1', 0, watered),
      note('side-2', 1, `${watered} again`),
      ...other.slice(0, 3).map((c, i) => note(`gap-${i}`, 2 + i, c)),
      note('apart-1', 5, watered),
      ...other.slice(3).map((c, i) => note(`gap-${3 + i}`, 6 + i, c)),
      note('apart-2', 9, `${watered} again`),
    ];
    expect((await app.api('POST', '/memory/push', { body: { traces } })).status).toBe(201);
    await modelReady(search);
  });

  it('the better of two look-alike neighbours keeps its own score', async () => {
    const r = await search({ query: 'watering the tomatoes', mode: 'hybrid', limit: 10 });
    const score = (uid: string) => r.results.find((h) => h.uid === uid)?.score;
    expect(score('side-1')).toBeDefined();
    // The better note of each pair scores exactly its own score, side by side or apart.
    const best = (a: string, b: string) => Math.max(score(a)!, score(b)!);
    expect(best('side-1', 'side-2')).toBe(best('apart-1', 'apart-2'));
  });
});
