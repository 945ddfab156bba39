import http from 'node:http';

/**
 * A loopback proxy to the daemon on `port` that adds `Authorization: Bearer <key>` to every
 * request, as a client's configuration would: for MCP clients that have no way to send a
 * credential (the conformance suite, the Inspector's CLI). `url(path)` is the proxied address.
 */
export async function startAuthProxy(port: number, key: string): Promise<{ url(path: string): string; close(): void }> {
  const proxy = http.createServer((req, res) => {
    const up = http.request(
      { host: '127.0.0.1', port, path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${port}`, authorization: `Bearer ${key}` } },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', () => ok()));
  const own = (proxy.address() as { port: number }).port;
  return {
    url: (path) => `http://127.0.0.1:${own}${path}`,
    close: () => {
      proxy.closeAllConnections();
      proxy.close();
    },
  };
}
