import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { newId } from '../domain/ids.js';

/**
 * Requests that node's HTTP parser refuses (a request line or headers over its 16 KiB limit, a
 * malformed request) never reach Koa; without this they get a bare status line. They get the same
 * error envelope and X-Trace-Id as every other error instead.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) return socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const [status, reason, code, message] = tooLarge
      ? [431, 'Request Header Fields Too Large', 'header_too_large', 'The request line or headers are over 16 KiB; send long values in a JSON body.']
      : [400, 'Bad Request', 'bad_request', 'The request is not valid HTTP.'];
    const traceId = newId('rq');
    const body = JSON.stringify({ error: { code, message, trace_id: traceId } });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Trace-Id: ${traceId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
