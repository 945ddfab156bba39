/**
 * Defence in depth against prototype pollution, for the daemon process only. The importer already
 * keeps names from input away from plain-object keys (src/ical/safe-lines.ts); if some parser
 * still wrote through `obj['__proto__'][name]` or `obj['constructor'][name]`, it would reach
 * Object.prototype or the Object function, which every request handler depends on. Both are
 * frozen once the daemon's modules are loaded, so such a write changes nothing (and throws in
 * strict code) instead of breaking every route until a restart.
 *
 * Freezing Object.prototype has one known cost, the "override mistake": strict code that assigns
 * an inherited name (`obj.toString = …`, `Fn.prototype.constructor = …`) on an ordinary object
 * throws. The API tests run the daemon so hardened; a dependency doing it would fail them.
 */

/** What was hardened, checked after the fact: recorded in the daemon log at start. */
export interface Hardened {
  frozen: string[];
}

const TARGETS: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Object', Object],
];

/** Freeze the targets, and verify that a write to each is refused (throws when it is not). */
export function hardenIntrinsics(): Hardened {
  const probe = `kairos-harden-probe-${process.pid}`;
  for (const [name, target] of TARGETS) {
    Object.freeze(target);
    if (Reflect.set(target, probe, true) || Object.prototype.hasOwnProperty.call(target, probe)) throw new Error(`could not freeze ${name}`);
  }
  return { frozen: TARGETS.map(([name]) => name) };
}
