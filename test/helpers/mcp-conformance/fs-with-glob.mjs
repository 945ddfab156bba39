// node:fs plus `globSync`, which the MCP conformance suite imports and Node 20 lacks (it arrived in
// Node 22). The suite calls it once, as globSync('**/<name>', { cwd }), to gather result files.
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

export * from 'node:fs';
export { default } from 'node:fs';

export function globSync(pattern, opts = {}) {
  const m = /^\*\*\/([^*?[\]{}/]+)$/.exec(pattern);
  if (!m) throw new Error(`globSync shim: only "**/<file name>" patterns are supported, not ${pattern}`);
  const cwd = opts.cwd ?? process.cwd();
  return readdirSync(cwd, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && basename(e.name) === m[1])
    .map((e) => relative(cwd, join(e.parentPath ?? e.path, e.name)));
}
