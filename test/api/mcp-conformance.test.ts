import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAuthProxy } from '../helpers/auth-proxy.js';
import { ROOT, useDaemon } from '../helpers/daemon.js';

/**
 * Issue 20: the official MCP conformance suite (`@modelcontextprotocol/conformance`, from the
 * registry) against the daemon's /mcp, every server scenario of its active suite. The suite has no
 * way to send a credential, so a loopback proxy adds the owner key, as a client's configuration
 * would. Known failures are listed with their reason in test/helpers/mcp-conformance/baseline.yml;
 * the suite itself fails the run on any other failure and on a baseline entry that now passes.
 * On Node 20 the suite needs fs.globSync, supplied by test/helpers/mcp-conformance/node20.mjs.
 */
const d = useDaemon();
const HERE = join(ROOT, 'test', 'helpers', 'mcp-conformance');
const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

describe('the official MCP conformance suite against /mcp', () => {
  it('passes every server scenario but the listed fixture ones', async () => {
    const proxy = await startAuthProxy(d.port, d.key);
    const out = mkdtempSync(join(tmpdir(), 'kairos-mcp-conformance-'));
    try {
      const url = proxy.url('/mcp');
      const child = spawn(
        process.execPath,
        ['--import', join(HERE, 'node20.mjs'), SUITE, 'server', '--url', url, '--expected-failures', join(HERE, 'baseline.yml'), '-o', out],
        { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let log = '';
      child.stdout.on('data', (c) => (log += c));
      child.stderr.on('data', (c) => (log += c));
      const code = await new Promise<number | null>((ok) => child.on('exit', ok));
      const summary = log.slice(log.indexOf('=== SUMMARY ==='));
      console.log(summary);
      if (code !== 0) console.log(d.stderr().slice(-3000));
      expect(code, summary || log.slice(-3000)).toBe(0);
      expect(summary).toMatch(/✓ server-initialize/);
      expect(summary).toMatch(/✓ tools-list/);
      expect(summary).toMatch(/✓ dns-rebinding-protection/);
    } finally {
      proxy.close();
      if (process.env.KEEP_CONFORMANCE) console.log('kept', out);
      else rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);
});
