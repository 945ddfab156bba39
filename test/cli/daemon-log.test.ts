import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliHomes } from '../helpers/cli-homes.js';
import { runCli } from '../helpers/daemon.js';

// daemon.log holds one format, JSON lines (issue 19): pino's events and the detached daemon's own
// output ("listening", the reason it could not start) alike; `daemon logs` renders them.
const home = cliHomes();

const logLines = (h: string) => readFileSync(join(h, 'daemon.log'), 'utf8').split('\n').filter(Boolean);
const isJsonLine = (l: string) => {
  try {
    const o = JSON.parse(l);
    return typeof o.level === 'number' && typeof o.msg === 'string' && typeof o.time === 'string';
  } catch {
    return false;
  }
};

describe('daemon.log', () => {
  it('a started and stopped daemon leaves only JSON lines; daemon logs reads them as text, --json as they are', async () => {
    const h = home();
    const env = { KAIROS_HOME: h, KAIROS_PORT: '0' };
    expect((await runCli(['daemon', 'start'], { env })).code).toBe(0);
    expect((await runCli(['daemon', 'stop'], { env })).code).toBe(0);
    const lines = logLines(h);
    expect(lines.filter((l) => !isJsonLine(l))).toEqual([]);
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^kairos listening on http:/), 'daemon started', 'daemon stopped']),
    );
    const text = await runCli(['daemon', 'logs'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^\d{4}-\d\d-\d\dT\S+Z INFO {2}kairos listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(text.stdout).toMatch(/ INFO {2}daemon started {2}url=http\S+ version=\S+ home=/);
    const json = await runCli(['daemon', 'logs', '--json'], { env });
    expect(json.stdout.trim().split('\n')).toEqual(lines.slice(-50));
  });

  it('the reason a daemon could not start is a JSON line too, and still shown in one line', async () => {
    const h = home();
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await runCli(['daemon', 'start', '--port', String(port)], { env: { KAIROS_HOME: h } });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(new RegExp(`^kairos: .*Port ${port} is in use by another program`));
      const lines = logLines(h);
      expect(lines.filter((l) => !isJsonLine(l))).toEqual([]);
      expect(lines.some((l) => JSON.parse(l).level === 50 && /Port \d+ is in use/.test(JSON.parse(l).msg))).toBe(true);
    } finally {
      server.close();
    }
  });
});
