import type { StoredTrace } from '../../contracts/memory.js';
import type { Tx } from '../../store/store.js';
import { stageTrace } from '../memory/stage-trace.js';
import type { ImportSummary } from './calendar-import.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The one `calendar_event` trace an import leaves: the file, its counts and warnings, and the
 * import's id (what `kairos undo` and remove-by-import find its events by).
 */
export function stageImportSummary(tx: Tx, userId: string, s: ImportSummary, actor: string, now: Date): StoredTrace {
  const r = s.report;
  const counts = [
    plural(r.imported, 'new event'),
    ...(r.updated ? [`${r.updated} updated`] : []),
    ...(r.skipped ? [`${r.skipped} unchanged or skipped`] : []),
    ...(r.errors.length ? [plural(r.errors.length, 'error')] : []),
    ...(r.warnings.length ? [plural(r.warnings.length, 'warning')] : []),
  ].join(', ');
  return stageTrace(
    tx,
    {
      user_id: userId,
      type: 'calendar_event',
      task_id: 'calendar',
      content: `Imported ${s.name ? `${s.name}` : 'a calendar file'}: ${counts}.`,
      actor,
      fields: {
        action: 'imported',
        import_id: s.import_id,
        ...(s.name ? { file: s.name } : {}),
        imported: r.imported,
        updated: r.updated,
        skipped: r.skipped,
        errors: r.errors.length,
        warnings: r.warnings.slice(0, 20).map((w) => w.message),
        ...(s.previous.length ? { previous: s.previous } : {}),
      },
    },
    now,
  );
}
