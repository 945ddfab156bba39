import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, useDaemon } from '../helpers/daemon.js';

// Issue 17: a short command's start-up is mostly what it loads. These commands run without
// commander (src/cli/fast-path.ts), find the daemon from daemon.json without spawning anything,
// and load none of the daemon's layers: checked by the modules a real run loads (an ESM loader
// hook logs every URL; a chunk of the bundle stands for the modules its source map lists), not by
// timing, so a stray import fails here on any machine.

/** What a plain run of these commands must not load, and why it would be there. */
const HEAVY: [RegExp, string][] = [
  [/\/node_modules\/commander\//, 'commander (the fast path parses the line)'],
  [/\/node_modules\/zod\//, 'zod (the client takes only types from the contracts)'],
  [/\/node_modules\/chalk\//, 'chalk (no colour on a pipe)'],
  [/\/node_modules\/@inquirer\//, '@inquirer (no prompt)'],
  [/\/node_modules\/ws\//, 'ws (no live feed)'],
  [/\/dist\/contracts\//, 'the contracts barrel'],
  [/\/dist\/(server|store|domain|search|ical|daemon)\//, "the daemon's layers"],
  [/^node:child_process$/, 'node:child_process (only to start a daemon)'],
];

const d = useDaemon();
let dir: string;
let hook: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kairos-import-graph-'));
  // Registered with --import: its load hook appends each module's URL to $MODULE_LOG.
  writeFileSync(
    join(dir, 'hooks.mjs'),
    "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(process.env.MODULE_LOG, url + '\\n');\n  return next(url, context);\n}\n",
  );
  hook = join(dir, 'register.mjs');
  writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
  const push = await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'graph', content: 'loaded lightly' }] } });
  expect(push.status, push.text).toBe(201);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The modules inside a loaded chunk of dist/bundle/ (scripts/bundle.mjs), read from its source
 * map: a src/ file as the dist/ URL tsc gives it, a package's file as its node_modules URL.
 */
function unbundled(url: string): string[] {
  if (!/\/dist\/bundle\/[^/]+\.js$/.test(url)) return [url];
  const map = fileURLToPath(url) + '.map';
  if (!existsSync(map)) return []; // the bundler's own runtime helpers, from no source
  const sources = (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
  return sources.map((s) => pathToFileURL(resolve(dirname(map), s)).href.replace(/\/src\/(.*)\.ts$/, '/dist/$1.js'));
}

/** Run kairos with the daemon found through its home (daemon.json), as a user does; the URLs it loaded. */
async function loaded(args: string[], name: string) {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, '');
  const env = { KAIROS_HOME: d.home, MODULE_LOG: log, NODE_OPTIONS: `--import ${hook}` };
  const r = await runCli(args, { env });
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean).flatMap(unbundled);
  return { ...r, urls };
}

describe('the modules a short command loads', () => {
  it.each([
    ['trace pull', ['--json', 'trace', 'pull', '--task', 'graph'], 'dist/cli/commands/trace/pull.js'],
    ['status', ['--json', 'status'], 'dist/cli/commands/status/status.js'],
    ['queue', ['--json', 'queue'], 'dist/cli/commands/queue/queue.js'],
  ])('kairos --json %s: its own command and node:http, none of the heavy modules', async (name, args, own) => {
    const r = await loaded(args as string[], name.replace(' ', '-'));
    expect(r.code, r.stderr).toBe(0);
    JSON.parse(r.stdout);
    // The hook saw the run (so an empty list cannot pass): the command's module and the request.
    expect(r.urls.some((u) => u.endsWith(own as string))).toBe(true);
    expect(r.urls).toContain('node:http');
    const heavy = HEAVY.flatMap(([re, why]) => r.urls.filter((u) => re.test(u)).map((u) => `${u} — ${why}`));
    expect(heavy).toEqual([]);
  });

  it('a line the fast path leaves to commander still gets commander: help, and a usage error', async () => {
    const help = await loaded(['trace', 'pull', '--help'], 'help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--include-expired');
    expect(help.urls.some((u) => /\/node_modules\/commander\//.test(u))).toBe(true);
    const bad = await loaded(['trace', 'pull', '--bogus'], 'bogus');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown option '--bogus'/);
    // A value its parser refuses is reported by commander as always (command-runtime.ts intArg's sentence).
    const limit = await runCli(['trace', 'pull', '--limit', '0'], { env: cliEnv(d) });
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain('--limit must be an integer ≥ 1, not "0".');
  });

  it('global flags after the verb and --flag=value read as commander reads them', async () => {
    const r = await runCli(['trace', 'pull', '--task=graph', '--json', '-q'], { env: cliEnv(d) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).traces.map((t: { content: string }) => t.content)).toEqual(['loaded lightly']);
  });
});
