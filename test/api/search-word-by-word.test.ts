import { beforeAll, describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';

const turn = (uid: string, content: string) => ({ uid, type: 'observation', task_id: 'chat', content });

// The answer names the query's thing by another word ("ceramics" for "pottery") among a dozen
// words about something else, so its pooled vector is further from the query than a turn about
// art in general; matched word by word, "ceramics" meets "pottery" whole.
const TURNS = [
  turn('w-answer', 'Mel: after the long drive we finally tried a ceramics workshop on sunday'),
  turn('w-gallery', 'Caroline: I went to the art gallery and the museum downtown'),
  turn('w-garden', 'John: the garden needs watering and the fence is broken'),
  turn('w-car', 'Mel: the car is back from the mechanic with new tyres'),
  turn('w-rent', 'John: the rent went up again this year'),
];

type Search = { results: { uid: string; score: number }[]; mode_used: string };

describe('semantic mode scores its best hits word by word', () => {
  const d = useDaemon();
  const search = async (body: Record<string, unknown>): Promise<Search> => {
    const r = await d.api('POST', '/memory/search', { body });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };

  beforeAll(async () => {
    expect((await d.api('POST', '/memory/push', { body: { traces: TURNS } })).status).toBe(201);
  });

  it('ranks first the turn with a word close to the query, not the turn closest on average', async () => {
    const r = await search({ query: 'pottery', mode: 'semantic' });
    expect(r.mode_used).toBe('semantic');
    expect(r.results.map((x) => x.uid).slice(0, 2), JSON.stringify(r)).toEqual(['w-answer', 'w-gallery']);
    for (const x of r.results) {
      expect(x.score).toBeGreaterThanOrEqual(0);
      expect(x.score).toBeLessThanOrEqual(1);
    }
  });

  it('reads a bounded part of a very long trace and still answers', async () => {
    const long = `Mel: ${'we talked about the weather and the traffic again. '.repeat(1_500)}and then a ceramics workshop`;
    expect((await d.api('POST', '/memory/push', { body: { traces: [turn('w-long', long)] } })).status).toBe(201);
    const r = await search({ query: 'pottery', mode: 'semantic' });
    expect(r.results[0]?.uid).toBe('w-answer');
  });
});
