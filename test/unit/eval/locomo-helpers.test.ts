import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: an untyped script module of the evaluation
import { evidenceIds, loadConversations, locateData, parseSessionTime, turnsToTraces } from '../../../eval/_locomo-data.mjs';
// @ts-expect-error: an untyped script module of the evaluation
import { createTable, recallAtK } from '../../../eval/_locomo-score.mjs';

// A made-up conversation in LoCoMo's layout (no benchmark text).
const conversation = {
  speaker_a: 'Ada',
  speaker_b: 'Bo',
  session_1_date_time: '1:56 pm on 8 May, 2023',
  session_1: [
    { speaker: 'Ada', dia_id: 'D1:1', text: 'I planted tomatoes.' },
    { speaker: 'Bo', dia_id: 'D1:2', text: 'Nice!' },
  ],
  session_2_date_time: '10:05 am on 12 June, 2023',
  session_2: [{ speaker: 'Bo', dia_id: 'D2:1', text: 'They grew.' }],
};
const qa = [{ question: 'What did Ada plant?', answer: 'tomatoes', evidence: ['D1:1'], category: 4 }];

describe('LoCoMo evaluation helpers', () => {
  it('reads the public list file and the folder of per-conversation files alike', () => {
    const dir = mkdtempSync(join(tmpdir(), 'locomo-'));
    try {
      writeFileSync(join(dir, 'locomo10.json'), JSON.stringify([{ sample_id: 'conv-7', conversation, qa }]));
      expect(loadConversations(locateData(dir))).toEqual([{ id: 'conv-7', conversation, qa }]);
      const per = mkdtempSync(join(tmpdir(), 'locomo-per-'));
      writeFileSync(join(per, '7.json'), JSON.stringify({ ...conversation, qa }));
      expect(loadConversations(locateData(per))).toEqual([{ id: 'conv-7', conversation, qa }]);
      expect(locateData(join(dir, 'absent'))).toBeUndefined();
      rmSync(per, { recursive: true });
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('makes one trace per turn: speaker and text, the session time, speaker and session in fields', () => {
    const { traces, ids } = turnsToTraces({ id: 'conv-7', conversation, qa });
    expect(ids).toEqual(['D1:1', 'D1:2', 'D2:1']);
    expect(traces[1]).toEqual({
      type: 'observation',
      task_id: 'conv-7',
      content: 'Bo: Nice!',
      timestamp: '2023-05-08T13:56:01.000Z',
      fields: { speaker: 'Bo', session: 1, date: '1:56 pm on 8 May, 2023' },
    });
    expect(parseSessionTime('12:30 am on 1 January, 2024')?.toISOString()).toBe('2024-01-01T00:30:00.000Z');
  });

  it('reads evidence however it is listed', () => {
    expect(evidenceIds({ evidence: ['D8:6; D9:17', 'D8:6', 'D10:2'] })).toEqual(['D8:6', 'D9:17', 'D10:2']);
  });

  it('scores evidence recall@k and averages it per mode and category', () => {
    expect(recallAtK(['a', 'x', 'b'], ['a', 'b'], [1, 2, 3])).toEqual([0.5, 0.5, 1]);
    const t = createTable();
    t.add('hybrid', 1, [1, 1, 1, 1]);
    t.add('hybrid', 2, [0, 0, 0.5, 1]);
    expect(t.mean('hybrid', 'all')).toEqual([0.5, 0.5, 0.75, 1]);
    expect(t.count('hybrid', 1)).toBe(1);
  });
});
