/** Flags of `daemon run/start/restart` turned back into arguments for a spawned `daemon run`. */
export interface BindOptions {
  port?: number;
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  insecure?: boolean;
}

export function bindArgs(o: BindOptions): string[] {
  const a: string[] = [];
  if (o.port !== undefined) a.push('--port', String(o.port));
  if (o.host) a.push('--host', o.host);
  if (o.tlsCert) a.push('--tls-cert', o.tlsCert);
  if (o.tlsKey) a.push('--tls-key', o.tlsKey);
  if (o.insecure) a.push('--insecure');
  return a;
}
