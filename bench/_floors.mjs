// The floors of bench/perf.mjs, in a child process of their own like the daemon: a bare Koa GET of
// 1 KB of JSON and a koa-body POST that echoes its 1 KB body. Prints the port, serves until killed.
import Koa from 'koa';
import { koaBody } from 'koa-body';

const payload = { items: Array.from({ length: 16 }, (_, i) => ({ id: `item-${i}`, note: 'x'.repeat(40) })) };
const app = new Koa();
app.use(koaBody());
app.use((ctx) => {
  if (ctx.method === 'GET') ctx.body = payload;
  else ctx.body = ctx.request.body;
});
const server = app.listen(0, '127.0.0.1', () => console.log(`floors listening on ${server.address().port}`));
