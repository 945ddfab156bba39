import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { type ExportBody, mergePages } from '../../../../../src/cli/commands/export/merge.js';
import { exportQuery } from '../../../../../src/cli/commands/export/query.js';
import { renderExport } from '../../../../../src/cli/commands/export/render.js';

const plain = new Chalk({ level: 0 });

describe('exportQuery', () => {
  it('maps flags to the API parameters', () => {
    expect(exportQuery({ from: 'A', to: 'B', tag: '@x', task: 't', groupBy: 'day', maxTokens: 5, includeFeedback: true }, 'u')).toMatchObject({
      user_id: 'u',
      export_format: 'summary',
      start_time: 'A',
      end_time: 'B',
      tempo_tag: '@x',
      task_id: 't',
      group_by: 'day',
      max_token_count: 5,
      include_feedback: 'true',
    });
  });

  it('a diff flag alone means a diff; a diff needs its starting point', () => {
    expect(exportQuery({ sinceCheckpoint: 'mon' }, 'u')).toMatchObject({ export_format: 'diff', from_checkpoint: 'mon' });
    expect(exportQuery({ since: 'S', until: 'U' }, 'u')).toMatchObject({ export_format: 'diff', since: 'S', until: 'U' });
    expect(() => exportQuery({ format: 'diff' }, 'u')).toThrow(/--since/);
    expect(() => exportQuery({ untilCheckpoint: 'x' }, 'u')).toThrow(/--since/);
  });
});

describe('mergePages', () => {
  const page = (over: Partial<ExportBody>): ExportBody => ({ export_format: 'full', next_cursor: null, ...over });

  it('appends results, merges groups by key, sums tokens, keeps the last cursor', () => {
    expect(mergePages(page({ results: [1], next_cursor: 'c1', token_count: 3 }), page({ results: [2], token_count: 4 }))).toMatchObject({
      results: [1, 2],
      token_count: 7,
      next_cursor: null,
    });
    const g = mergePages(
      page({ groups: [{ key: 'a', results: [1] }] }),
      page({
        groups: [
          { key: 'a', results: [2] },
          { key: 'b', results: [3] },
        ],
      }),
    );
    expect(g.groups).toEqual([
      { key: 'a', results: [1, 2] },
      { key: 'b', results: [3] },
    ]);
  });

  it('merges diff lists and de-duplicates linked events', () => {
    const a = page({ export_format: 'diff', results: { added: [1], removed: [], changed: [] }, events: [{ uid: 'e' }] });
    const b = page({ export_format: 'diff', results: { added: [2], removed: [3], changed: [4] }, events: [{ uid: 'e' }] });
    const m = mergePages(a, b);
    expect(m.results).toEqual({ added: [1, 2], removed: [3], changed: [4] });
    expect(m.events).toEqual([{ uid: 'e' }]);
  });
});

describe('renderExport', () => {
  it('summary lines, group headers and the next-page hint', () => {
    const out = renderExport(
      {
        export_format: 'summary',
        groups: [
          {
            key: '2031-01-10',
            results: [{ uid: 'g', type: 'goal', task_id: 'marathon', timestamp: '2031-01-10T08:00:00.000Z', summary: '[!5] run marathon' }],
          },
        ],
        next_cursor: 'abc',
      },
      plain,
      'Europe/Berlin',
    );
    expect(out).toBe(
      [
        'times in Europe/Berlin',
        '── 2031-01-10 ──',
        '2031-01-10 09:00  goal           marathon            [!5] run marathon',
        'more: --cursor abc (or --all)',
      ].join('\n'),
    );
  });

  it('diff: + added, - removed, ~ changed with the paths it touched; nothing → "no changes"', () => {
    const out = renderExport(
      {
        export_format: 'diff',
        results: {
          added: [{ uid: 'n', type: 'goal', task_id: 't', content: 'new' }],
          removed: [{ uid: 'r', type: 'goal', task_id: 't', content: 'old' }],
          changed: [
            {
              uid: 'c',
              from_version: 1,
              to_version: 3,
              patch: [
                { op: 'replace', path: '/content' },
                { op: 'replace', path: '/version' },
              ],
            },
          ],
        },
        next_cursor: null,
      },
      plain,
      'UTC',
    );
    expect(out.split('\n')).toEqual(['+ n  goal  t  new', '- r  goal  t  old', '~ c  v1→v3  /content, /version']);
    expect(renderExport({ export_format: 'diff', results: { added: [], removed: [], changed: [] }, next_cursor: null }, plain, 'UTC')).toBe('no changes');
  });
});
