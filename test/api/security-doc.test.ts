import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/daemon.js';

describe('docs/security.md', () => {
  it('its permission table is the route table (run `npm run security-doc` after changing a route’s auth)', () => {
    const expected = execFileSync(process.execPath, [join(ROOT, 'scripts/write-security-doc.mjs'), '--stdout'], { encoding: 'utf8' });
    expect(readFileSync(join(ROOT, 'docs/security.md'), 'utf8')).toBe(expected);
  });

  it('lists every route of /openapi.json', () => {
    const page = readFileSync(join(ROOT, 'docs/security.md'), 'utf8');
    const doc = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "import { buildOpenApi } from './dist/server/openapi.js'; import { allRoutes } from './dist/server/routes/index.js'; process.stdout.write(JSON.stringify(buildOpenApi(allRoutes(), { version: 't' })))",
        ],
        { cwd: ROOT, encoding: 'utf8' },
      ),
    );
    for (const [path, methods] of Object.entries(doc.paths as Record<string, object>))
      for (const m of Object.keys(methods)) expect(page, `${m} ${path}`).toContain(`| \`${m.toUpperCase()}\` | \`${path}\` |`);
  });
});
