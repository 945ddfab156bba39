import { describe, expect, it } from 'vitest';
import { hostAllowed } from '../../../../src/domain/sync/grant-hosts.js';

describe('hostAllowed', () => {
  it.each([
    ['https://dav.example.com/cal/', ['dav.example.com'], true],
    ['https://DAV.example.com:8443/cal/', ['dav.example.com'], true],
    ['https://evil.com/?dav.example.com', ['dav.example.com'], false],
    ['https://dav.example.com.evil.com/', ['dav.example.com'], false],
    ['https://dav.example.com/', ['dav.example.com:443'], true],
    ['http://dav.example.com/', ['dav.example.com:443'], false],
    ['https://dav.example.com:8443/', ['dav.example.com:443'], false],
    ['https://a.b.example.net/', ['*.example.net'], true],
    ['https://example.net/', ['*.example.net'], false],
    ['https://badexample.net/', ['*.example.net'], false],
    ['http://[::1]:8080/', ['[::1]:8080'], true],
    ['http://[::1]:8081/', ['[::1]:8080'], false],
    ['http://127.0.0.1:5232/', ['127.0.0.1'], true],
    ['http://localhost:5232/', ['127.0.0.1'], false],
  ])('%s on %j: %s', (url, patterns, allowed) => {
    expect(hostAllowed(url, patterns)).toBe(allowed);
  });
});
