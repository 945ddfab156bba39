import { beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../helpers/fuzz-gen.js';
import { type TestApp, useApp } from '../helpers/in-process.js';

const VOCAB = (
  'garden kitchen bicycle doctor coffee wedding sister budget meeting report train ticket hotel beach mountain river ' +
  'dinner recipe bread cheese market shoes jacket piano guitar concert movie library novel poem school teacher exam ' +
  'homework office laptop phone email invoice tax bank loan rent landlord apartment paint window garage car engine ' +
  'tire insurance passport flight airport museum painting camera photo birthday cake gift friend neighbour dog cat'
).split(' ');

/** `n` traces of random words from VOCAB, 3 to 60 words long, in one task. */
function corpus(seed: number, n: number, prefix: string, extra: Record<string, unknown> = {}) {
  const rnd = prng(seed);
  return Array.from({ length: n }, (_, i) => {
    const len = 3 + Math.floor(rnd() * rnd() * 58);
    const words = Array.from({ length: len }, () => VOCAB[Math.floor(rnd() * VOCAB.length)]!);
    return { uid: `${prefix}-${i}`, type: 'observation', task_id: `t${Math.floor(rnd() * 4)}`, content: `${words.join(' ')}.`, ...extra };
  });
}

type Hit = {
  uid: string;
  score: number;
  content?: string;
  snippet?: { text: string; start: number; end: number };
  highlights: [number, number][];
  content_length: number;
  fields?: Record<string, unknown>;
  fields_omitted?: true;
  space?: string;
  timestamp: string;
};
type Search = { results: Hit[]; mode: string; mode_used: string };

/**
 * A trace that answers "orchestra rehearsal" in meaning and one of its words, among 160 short
 * notes that repeat one of the query's words: each of those has a higher BM25, so the answer is
 * beyond the 100th keyword hit, while in meaning it is the best hit.
 */
function buriedAnswer() {
  const noise = ['tax', 'invoice', 'tire', 'garage', 'loan', 'rent', 'passport', 'insurance'];
  const traces = [];
  for (let i = 0; i < 160; i++) {
    const word = i % 2 ? 'orchestra' : 'rehearsal';
    traces.push({
      uid: `rep-${i}`,
      type: 'observation',
      task_id: 'misc',
      content: `${word} ${word} ${word} ${noise.map((_, j) => noise[(i + j * 3) % noise.length]).join(' ')}`,
    });
  }
  const answer =
    'The rehearsal ran late tonight: the violins and cellos practised the symphony again, the conductor ' +
    'stopped the choir twice, the pianist tuned before the concert, and the flutes and trumpets played the overture ' +
    'while the music hall filled for the next evening of chamber music and opera';
  traces.push({ uid: 'answer', type: 'observation', task_id: 'music', content: answer });
  return traces;
}

const MODES = ['keyword', 'semantic', 'hybrid'] as const;
const ranks = (r: Search, n: number) => r.results.slice(0, n).map((h) => `${h.uid} ${h.score}`);

/** POST /memory/search on `app`, expecting 200. */
const searcher =
  (app: TestApp) =>
  async (body: Record<string, unknown>): Promise<Search> => {
    const r = await app.api('POST', '/memory/search', { body });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };

/** Waits until the built-in model answers (a query meanwhile answers in keyword mode, saying so). */
async function modelReady(search: (body: Record<string, unknown>) => Promise<Search>): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if ((await search({ query: 'garden', mode: 'semantic', limit: 1 })).mode_used === 'semantic') return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the built-in model did not become ready');
}
const QUERIES = [
  'orchestra rehearsal',
  'bicycle tire garage',
  'birthday cake for my sister',
  'tax invoice bank',
  'concert guitar piano',
  'flight hotel passport',
];

describe('search ranking does not depend on limit', () => {
  const app = useApp();
  const search = searcher(app);

  beforeAll(async () => {
    // Fewer traces than a query embeds itself: every query sees the index complete, densities measured.
    const traces = [...corpus(7, 300, 'lim'), ...buriedAnswer()];
    expect((await app.api('POST', '/memory/push', { body: { traces } })).status).toBe(201);
    await modelReady(search);
  });

  it.each(MODES)('%s: the first 5 of limit=50 are the top 5 of limit=5', async (mode) => {
    for (const query of QUERIES) {
      const top5 = await search({ query, mode, limit: 5 });
      expect(top5.mode_used).toBe(mode);
      const top50 = await search({ query, mode, limit: 50 });
      expect(ranks(top50, 5), `${mode} "${query}"`).toEqual(ranks(top5, 5));
    }
  });

  it.each(MODES)('%s: limit goes up to 200, and its first 50 are the top 50 of limit=50', async (mode) => {
    for (const query of QUERIES) {
      const top50 = await search({ query, mode, limit: 50 });
      const top200 = await search({ query, mode, limit: 200 });
      expect(ranks(top200, 50), `${mode} "${query}"`).toEqual(ranks(top50, 50));
    }
  });

  it('limit above 200 is refused with 422 validation_failed naming limit', async () => {
    const r = await app.api('POST', '/memory/search', { body: { query: 'garden', limit: 201 } });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('validation_failed');
    expect(JSON.stringify(r.json.error.details)).toContain('limit');
  });
});

describe('a space scopes the statistics of search', () => {
  const app = useApp();
  const search = searcher(app);

  beforeAll(async () => {
    // One corpus alone in space "solo"; the same corpus and nine others, each in a space of its own, in the same user.
    // Fewer traces in all than a query embeds itself: every query sees the indexes complete.
    const traces = [...corpus(1, 35, 'solo', { space: 'solo' })];
    for (let c = 0; c < 10; c++) traces.push(...corpus(c + 1, 35, `mix${c}`, { space: `conv-${c}` }));
    // Two of the corpora again in the default space.
    for (let c = 0; c < 2; c++) traces.push(...corpus(c + 1, 35, `flat${c}`));
    expect((await app.api('POST', '/memory/push', { body: { traces } })).status).toBe(201);
    await modelReady(search);
  });

  it.each(MODES)('%s: the corpus ranks the same alone and among nine others with its space set', async (mode) => {
    for (const query of QUERIES.slice(1)) {
      const alone = await search({ query, mode, space: 'solo', limit: 20 });
      const mixed = await search({ query, mode, space: 'conv-0', limit: 20 });
      expect(alone.mode_used).toBe(mode);
      expect(alone.results.length).toBeGreaterThan(0);
      const rank = (r: Search) => r.results.map((h) => `${h.uid.split('-')[1]} ${h.score}`);
      expect(rank(mixed), `${mode} "${query}"`).toEqual(rank(alone));
      expect(mixed.results.every((h) => h.space === 'conv-0')).toBe(true);
    }
  });

  it('without a space the default space is searched, and no named space leaks into it', async () => {
    const r = await search({ query: 'bicycle tire garage', mode: 'keyword', limit: 200 });
    expect(r.results.length).toBeGreaterThan(0);
    expect(r.results.every((h) => h.uid.startsWith('flat') && h.space === undefined)).toBe(true);
  });

  it('pull filters by space', async () => {
    const r = await app.api('GET', '/memory/pull?space=conv-3&limit=1000');
    expect(r.status).toBe(200);
    expect(r.json.traces).toHaveLength(35);
    expect(r.json.traces.every((t: { space: string }) => t.space === 'conv-3')).toBe(true);
  });

  it('an edit moves a trace to another space, and search follows it', async () => {
    const content = 'zeppelin hangar inspection';
    const push = await app.api('POST', '/memory/push', { body: { traces: [{ uid: 'mover', type: 'observation', task_id: 'x', content, space: 'a' }] } });
    expect(push.status).toBe(201);
    const ids = async (space: string) => (await search({ query: 'zeppelin', mode: 'keyword', space })).results.map((h) => h.uid);
    expect(await ids('a')).toEqual(['mover']);
    expect((await app.api('PATCH', '/memory/edit', { body: { uid: 'mover', updates: { space: 'b' } } })).status).toBe(200);
    expect(await ids('a')).toEqual([]);
    expect(await ids('b')).toEqual(['mover']);
  });

  it('a space name outside the grammar is refused with 422', async () => {
    const r = await app.api('POST', '/memory/search', { body: { query: 'x', space: 'a b' } });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('validation_failed');
  });
});

describe('search hits carry the text, highlights and fields, bounded; time filters', () => {
  const app = useApp();
  const search = searcher(app);
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 97}`).join(' ');
  const long = `${filler(2000)} The plumber fixed the leaking boiler on Tuesday. ${filler(2000)}`;
  const bigFields = { blob: 'x'.repeat(5000) };

  beforeAll(async () => {
    const traces = [
      {
        uid: 'short',
        type: 'observation',
        task_id: 'home',
        content: 'Boiler service booked with the plumber',
        fields: { speaker: 'Ana', session: 3 },
        timestamp: '2026-03-01T10:00:00Z',
      },
      { uid: 'long', type: 'observation', task_id: 'home', content: long, timestamp: '2026-04-01T10:00:00Z' },
      { uid: 'big', type: 'observation', task_id: 'home', content: 'Plumber invoice for the boiler', fields: bigFields, timestamp: '2026-05-01T10:00:00Z' },
    ];
    expect((await app.api('POST', '/memory/push', { body: { traces } })).status).toBe(201);
    await modelReady(search);
  });

  it.each(MODES)('%s: a short trace comes with its content, fields and highlights of the matched words', async (mode) => {
    const r = await search({ query: 'plumber boiler', mode });
    const hit = r.results.find((h) => h.uid === 'short')!;
    expect(hit.content).toBe('Boiler service booked with the plumber');
    expect(hit.snippet).toBeUndefined();
    expect(hit.fields).toEqual({ speaker: 'Ana', session: 3 });
    expect(hit.highlights.map(([s, e]) => hit.content!.slice(s, e))).toEqual(['Boiler', 'plumber']);
  });

  it('a long trace comes as a snippet around the match, offsets into its content, at most 1000 characters', async () => {
    const r = await search({ query: 'leaking boiler', mode: 'keyword' });
    const hit = r.results.find((h) => h.uid === 'long')!;
    expect(hit.content).toBeUndefined();
    expect(hit.content_length).toBe(long.length);
    const sn = hit.snippet!;
    expect(sn.text.length).toBeLessThanOrEqual(1000);
    expect(sn.text).toBe(long.slice(sn.start, sn.end));
    expect(sn.text).toContain('The plumber fixed the leaking boiler');
    expect(hit.highlights.map(([s, e]) => long.slice(s, e))).toEqual(['leaking', 'boiler']);
    expect(hit.highlights.every(([s, e]) => s >= sn.start && e <= sn.end)).toBe(true);
  });

  it('fields longer than 2000 characters of JSON are left out and flagged', async () => {
    const r = await search({ query: 'plumber invoice', mode: 'keyword' });
    const hit = r.results.find((h) => h.uid === 'big')!;
    expect(hit.fields).toBeUndefined();
    expect(hit.fields_omitted).toBe(true);
    expect(JSON.stringify(hit).length).toBeLessThan(2000);
  });

  it.each(MODES)('%s: start_time and end_time bound the timestamps, inclusive', async (mode) => {
    const uids = async (range: Record<string, string>) => (await search({ query: 'plumber boiler', mode, ...range })).results.map((h) => h.uid).sort();
    const after = await uids({ start_time: '2026-04-01T10:00:00Z' });
    expect(after).toContain('big');
    expect(after).not.toContain('short');
    const before = await uids({ end_time: '2026-04-01T10:00:00Z' });
    expect(before).toContain('short');
    expect(before).not.toContain('big');
    expect(await uids({ start_time: '2026-03-01T11:00:00+01:00', end_time: '2026-03-01T10:00:00Z' })).toEqual(['short']);
    expect(await uids({ start_time: '2026-05-02T00:00:00Z' })).toEqual([]);
  });

  it('a start_time that is not a date-time is refused with 422', async () => {
    const r = await app.api('POST', '/memory/search', { body: { query: 'plumber', start_time: 'yesterday' } });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('validation_failed');
  });
});

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

describe('semantic and hybrid search: a trace is lifted by its better neighbours in its task', () => {
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
