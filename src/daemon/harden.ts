/**
 * Defence in depth against prototype pollution, for the daemon process only. The importer already
 * keeps names from input away from plain-object keys (src/ical/safe-lines.ts); if some parser
 * still wrote through `obj['__proto__'][name]` or `obj['constructor'][name]`, it would reach
 * Object.prototype or the Object function, which every request handler depends on. Both are
 * frozen once the daemon's modules are loaded, so such a write changes nothing (and throws in
 * strict code) instead of breaking every route until a restart.
 *
 * Freezing Object.prototype alone has a known cost, the "override mistake": strict code that
 * assigns an inherited name (`obj.toString = …`) on an ordinary object throws. zod does exactly
 * that for input keys (`{"constructor": …}` in a tempo mapping or an edit), so before freezing,
 * every data property of Object.prototype becomes an accessor whose setter gives the assigning
 * object an own property — as SES's `enablePropertyOverrides` does.
 *
 * Object.prototype is then sealed, not frozen: with no data property left, sealing leaves it as
 * frozen as freezing would (Object.isFrozen holds, and is checked), but V8 marks a frozen object's
 * elements HOLEY_FROZEN and, from then on, typed-array stores anywhere in the process take a slow
 * path: a loop reading and writing a Uint32Array ran 33× slower, and a start reading its keyword
 * index at a million traces took 12–13 s instead of 8 (bench/harden.mjs measures both ways).
 */

/** What was hardened, checked after the fact: recorded in the daemon log at start. */
export interface Hardened {
  frozen: string[];
}

/** Each target, and how it is locked. */
const TARGETS: [string, object, (o: object) => void][] = [
  ['Object.prototype', Object.prototype, Object.seal],
  ['Object', Object, Object.freeze],
];

/** Let `obj[key] = v` define an own property on any object but `proto` once `proto` is frozen. */
function enableOverrides(proto: object): void {
  for (const key of Reflect.ownKeys(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, key)!;
    if (!('value' in d) || !d.configurable) continue;
    const value: unknown = d.value;
    Object.defineProperty(proto, key, {
      get: () => value,
      set(this: object, v: unknown) {
        if (this === proto) throw new TypeError(`Cannot assign to read only property '${String(key)}' of Object.prototype`);
        Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
      },
      enumerable: d.enumerable ?? false,
      configurable: false,
    });
  }
}

/** Freeze the targets (Object.prototype by sealing, see above), and verify that each is frozen and refuses a write (throws when not). */
export function hardenIntrinsics(): Hardened {
  const probe = `kairos-harden-probe-${process.pid}`;
  enableOverrides(Object.prototype);
  for (const [name, target, lock] of TARGETS) {
    lock(target);
    if (!Object.isFrozen(target) || Reflect.set(target, probe, true) || Object.hasOwn(target, probe)) throw new Error(`could not freeze ${name}`);
  }
  return { frozen: TARGETS.map(([name]) => name) };
}
