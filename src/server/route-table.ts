import type { RouteDef } from './route.js';

/** The methods the API answers at all; any other is 501 (as @koa/router's allowedMethods did). */
export const IMPLEMENTED_METHODS: ReadonlySet<string> = new Set(['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE']);

/** What a request's method and path come to. */
export type RouteMatch =
  | { kind: 'route'; def: RouteDef; params: Record<string, string> }
  /** The path exists, but not for this method: the methods it has, for `Allow`. */
  | { kind: 'other-methods'; allow: string[] }
  | { kind: 'none' };

interface Entry {
  def: RouteDef;
  /** Upper case; a GET route answers HEAD too. */
  methods: string[];
  /** For a path with `{params}`; null for a fixed path. */
  pattern: RegExp | null;
  names: string[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Case-insensitive, one trailing slash optional: how the paths of the table were always matched. */
const normalize = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase();

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The route table compiled once into what a request needs: a fixed path (most of them) is one Map
 * lookup by method and path; only paths with `{params}` are tried as patterns, in table order.
 * The first route of the table that matches wins, as before, whatever its kind: a fixed path's
 * winner is found at compile time by the same ordered scan.
 */
export class RouteTable {
  private readonly entries: Entry[];
  private readonly fixed = new Map<string, RouteDef>();
  /** Normalized fixed path → the methods some route of the table answers on it. */
  private readonly fixedMethods = new Map<string, string[]>();
  private readonly patterned: Entry[];

  constructor(routes: readonly RouteDef[]) {
    this.entries = routes.map((def) => {
      const names: string[] = [];
      const source = def.path
        .split(/(\{\w+\})/)
        .map((part) => {
          const p = /^\{(\w+)\}$/.exec(part);
          if (!p) return escapeRegExp(part);
          names.push(p[1]!);
          return '([^\\/]+)';
        })
        .join('');
      const method = def.method.toUpperCase();
      return {
        def,
        methods: method === 'GET' ? ['HEAD', 'GET'] : [method],
        pattern: names.length ? new RegExp(`^${source}(?:\\/)?$`, 'i') : null,
        names,
      };
    });
    this.patterned = this.entries.filter((e) => e.pattern);
    for (const e of this.entries) {
      if (e.pattern) continue;
      const path = normalize(e.def.path);
      for (const m of e.methods) {
        const key = `${m} ${path}`;
        if (this.fixed.has(key)) continue;
        // Only when no earlier route with {params} takes the path (that one is found by scan, with its params).
        const first = this.scan(m, e.def.path);
        if (first?.kind === 'route' && first.def === e.def) this.fixed.set(key, e.def);
      }
      this.fixedMethods.set(path, this.allowedOn(e.def.path));
    }
  }

  /** The route for `method` and `path` (Koa's `ctx.path`, still percent-encoded). */
  match(method: string, path: string): RouteMatch {
    const key = normalize(path);
    const def = this.fixed.get(`${method} ${key}`);
    if (def) return { kind: 'route', def, params: {} };
    if (this.patterned.length) {
      const found = this.scan(method, path);
      if (found) return found;
    }
    const allow = this.fixedMethods.get(key) ?? this.allowedOn(path);
    return allow.length ? { kind: 'other-methods', allow } : { kind: 'none' };
  }

  /** Every entry in table order: the first that matches method and path. */
  private scan(method: string, path: string): RouteMatch | undefined {
    const key = normalize(path);
    for (const e of this.entries) {
      if (!e.methods.includes(method)) continue;
      if (!e.pattern) {
        if (normalize(e.def.path) === key) return { kind: 'route', def: e.def, params: {} };
        continue;
      }
      const m = e.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      e.names.forEach((name, i) => {
        params[name] = decode(m[i + 1]!);
      });
      return { kind: 'route', def: e.def, params };
    }
    return undefined;
  }

  /** The methods of the routes whose path matches, in table order, each once. */
  private allowedOn(path: string): string[] {
    const key = normalize(path);
    const allow = new Set<string>();
    for (const e of this.entries) {
      const hit = e.pattern ? e.pattern.test(path) : normalize(e.def.path) === key;
      if (hit) for (const m of e.methods) allow.add(m);
    }
    return [...allow];
  }
}
