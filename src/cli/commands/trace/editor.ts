import { spawnSync } from 'node:child_process';
import { AppError } from '../../../errors.js';
import { type CliDeps, usage } from '../../command-runtime.js';

/**
 * Open the person's editor on a file and wait for it: $VISUAL, then $EDITOR, then vi. The value
 * may carry arguments (`code --wait`), so it runs through the shell with the path quoted.
 */
export function openEditor(path: string, deps: CliDeps): void {
  const editor = deps.env.VISUAL || deps.env.EDITOR;
  if (!editor && !deps.io.interactive) throw usage('No terminal and no $EDITOR: set EDITOR, or change fields with --set key=value.');
  const quoted = `'${path.replace(/'/g, `'\\''`)}'`;
  const r = spawnSync(`${editor || 'vi'} ${quoted}`, { shell: true, stdio: 'inherit', env: deps.env });
  if (r.error) throw new AppError(500, 'editor_failed', `Could not run the editor "${editor || 'vi'}": ${r.error.message}`);
  if (r.status !== 0) throw new AppError(500, 'editor_failed', `The editor "${editor || 'vi'}" exited with code ${r.status ?? r.signal}; nothing was changed.`);
}
