import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeHome, runCli, tempHome, useDaemon } from '../helpers/daemon.js';

// `kairos config get|set|list|unset` (issue 19): config.json checked by the daemon's own schema.

describe('kairos config without a daemon', () => {
  const home = tempHome();
  afterAll(() => removeHome(home));
  // The test environment sets KAIROS_RATE_LIMIT=0 for every kairos it runs: not here.
  const config = (args: string[], env: Record<string, string> = {}) =>
    runCli(['config', ...args], { env: { KAIROS_HOME: home, KAIROS_RATE_LIMIT: undefined, ...env } });
  const file = () => JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'));

  it('list shows every setting with its value in effect and its source; tab-separated on a pipe', async () => {
    const r = await config(['list'], { KAIROS_RATE_LIMIT: '0' });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((x) => x[0])).toEqual([
      'port',
      'host',
      'rate_limit',
      'cache_ttl_minutes',
      'planner.provider',
      'planner.base_url',
      'planner.model',
      'planner.timeout_ms',
      'embeddings.base_url',
      'embeddings.model',
      'snapshot.every_ops',
      'snapshot.every_ms',
      'snapshot.backups',
      'sync.check_seconds',
      'sync.caldav_every_minutes',
      'sync.max_subscriptions',
      'sync.max_accounts',
      'outbound.allow_hosts',
      'outbound.max_mib',
      'outbound.timeout_seconds',
    ]);
    expect(rows).toContainEqual(['port', '7340', 'default']);
    expect(rows).toContainEqual(['rate_limit', '0', 'env KAIROS_RATE_LIMIT']);
    expect(rows).toContainEqual(['planner.model', '', 'default']);
  });

  it('set writes a typed value (private file), get reads it back; --json says the source', async () => {
    const r = await config(['set', 'rate_limit', '300']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Set rate_limit = 300 in ${join(home, 'config.json')}\n`);
    expect(r.stderr).toBe('');
    expect((await config(['set', 'planner.model', 'llama3.1'])).code).toBe(0);
    expect(file()).toEqual({ rate_limit: 300, planner: { model: 'llama3.1' } });
    expect(statSync(join(home, 'config.json')).mode & 0o777).toBe(0o600);
    expect((await config(['get', 'rate_limit'])).stdout).toBe('300\n');
    expect(JSON.parse((await config(['get', 'planner.model', '--json'])).stdout)).toEqual({ key: 'planner.model', value: 'llama3.1', source: 'config.json' });
    const env = await config(['set', 'rate_limit', '50'], { KAIROS_RATE_LIMIT: '0' });
    expect(env.stderr).toMatch(/KAIROS_RATE_LIMIT=0 in this environment overrides rate_limit/);
  });

  it('refuses a bad value with a sentence naming the key, what it takes and an example; the file is unchanged', async () => {
    const before = readFileSync(join(home, 'config.json'), 'utf8');
    const cases: [string[], RegExp][] = [
      [['set', 'port', '99999'], /^kairos: port must be an integer from 0 to 65535 \(e\.g\. kairos config set port 7340\); .* is unchanged\.\n$/],
      [['set', 'port', 'abc'], /^kairos: port must be an integer from 0 to 65535, not "abc"/],
      [['set', 'cache_ttl_minutes', '5'], /^kairos: cache_ttl_minutes must be a number from 15 to 30/],
      [['set', 'planner.provider', 'gpt'], /^kairos: planner\.provider must be one of default, openai/],
      [['set', 'embeddings.base_url', 'localhost'], /^kairos: embeddings\.base_url must be a URL/],
    ];
    for (const [args, message] of cases) {
      const r = await config(args);
      expect(r.code, args.join(' ')).toBe(6);
      expect(r.stderr).toMatch(message);
    }
    const typo = await config(['set', 'rate-limit', '5']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/No setting "rate-limit".*Settings: port, host, rate_limit/);
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(before);
  });

  it('unset removes a setting (and a key the schema refuses, so a bad file can be fixed)', async () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ port: 7341, bogus: 1 }));
    const bad = await config(['get', 'port']);
    expect(bad.code).toBe(6);
    expect(bad.stderr).toMatch(/unknown setting\(s\) bogus \(kairos config unset bogus\)/);
    expect((await config(['unset', 'bogus'])).code).toBe(0);
    expect((await config(['unset', 'port'])).stdout).toMatch(/^Removed port from .* \(the default applies\)/);
    expect(file()).toEqual({});
  });
});

describe('kairos config with the daemon running', () => {
  const d = useDaemon();

  it('set says the daemon must restart to apply it; the daemon answers until then', async () => {
    const r = await runCli(['config', 'set', 'rate_limit', '250'], { env: { KAIROS_HOME: d.home, KAIROS_RATE_LIMIT: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`kairos: the daemon (pid ${d.child.pid}) read config.json when it started: restart it to apply this (kairos daemon restart).\n`);
    expect((await d.api('GET', '/health')).status).toBe(200);
  });
});
