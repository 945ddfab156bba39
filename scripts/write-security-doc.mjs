// Regenerates the permission table of docs/security.md from the route table (run by `npm run security-doc`).
// With --stdout, prints the page as it should be instead of writing it (the drift test compares).
import { readFileSync, writeFileSync } from 'node:fs';
import { allRoutes } from '../dist/server/routes/index.js';
import { withPermissionTable } from '../dist/server/security-doc.js';

const file = new URL('../docs/security.md', import.meta.url);
const page = withPermissionTable(readFileSync(file, 'utf8'), allRoutes());
if (process.argv.includes('--stdout')) process.stdout.write(page);
else {
  writeFileSync(file, page);
  console.log('wrote docs/security.md');
}
