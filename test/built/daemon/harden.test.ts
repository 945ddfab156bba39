import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The daemon's defence against prototype pollution, built (dist/), in a process of its own (it
// would harden the test runner's intrinsics). Object.prototype is sealed rather than frozen (a
// frozen one slows every typed-array store in V8: bench/harden.mjs), and must be as safe: every
// write an input could reach is refused, and ordinary objects can still take any own name.
const harden = pathToFileURL(join(import.meta.dirname, '..', '..', '..', 'dist', 'daemon', 'harden.js')).href;

const CHILD = `
'use strict';
const { hardenIntrinsics } = await import(${JSON.stringify(harden)});
const hardened = hardenIntrinsics();
const tries = (f) => { try { f(); return 'done'; } catch (e) { return e.constructor.name; } };
const o = {};
const out = {
  hardened,
  frozen: Object.isFrozen(Object.prototype),
  objectFrozen: Object.isFrozen(Object),
  addName: tries(() => { Object.prototype.polluted = 1; }),
  setToString: tries(() => { Object.prototype.toString = () => 'x'; }),
  viaProto: tries(() => { o['__proto__']['polluted'] = 1; }),
  viaConstructor: tries(() => { o['constructor']['polluted'] = 1; }),
  define: tries(() => Object.defineProperty(Object.prototype, 'polluted', { value: 1 })),
  redefineProto: tries(() => Object.defineProperty(Object.prototype, '__proto__', { value: 1 })),
  deleteToString: tries(() => { delete Object.prototype.toString; }),
  polluted: 'polluted' in {},
  ownToString: (() => { const x = {}; x.toString = () => 'mine'; return String(x) + ':' + Object.hasOwn(x, 'toString'); })(),
  plainToString: String({}),
};
console.log(JSON.stringify(out));
`;

describe('hardenIntrinsics', () => {
  it('leaves Object.prototype frozen in effect (sealed, its data properties accessors) and Object frozen', () => {
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', CHILD], { encoding: 'utf8' }).trim());
    expect(out).toEqual({
      hardened: { frozen: ['Object.prototype', 'Object'] },
      frozen: true,
      objectFrozen: true,
      addName: 'TypeError',
      setToString: 'TypeError',
      viaProto: 'TypeError',
      viaConstructor: 'TypeError',
      define: 'TypeError',
      redefineProto: 'TypeError',
      deleteToString: 'TypeError',
      polluted: false,
      ownToString: 'mine:true',
      plainToString: '[object Object]',
    });
  });
});
