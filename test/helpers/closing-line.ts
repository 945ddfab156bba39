import type { Reporter, TestModule } from 'vitest/node';
import { SHARED_MISSING } from './shared.js';

/**
 * Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, after vitest's own
 * summary: the form CI reads to tell a green run from one that ran no test.
 */
export default class ClosingLine implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let withoutShared = 0;
    for (const m of modules) {
      // A file that failed to load has no tests but is a failure all the same.
      if (m.state() === 'failed' && ![...m.children.allTests()].length) failed++;
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else {
          skipped++;
          if (t.fullName.includes(SHARED_MISSING)) withoutShared++;
        }
      }
    }
    failed += errors.length;
    if (withoutShared) process.stdout.write(`\n${withoutShared} test${withoutShared === 1 ? '' : 's'} ${SHARED_MISSING}\n`);
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
