import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before any handler sees them (headers or a query string
 * past the 16 KB header limit, a malformed request line, headers that never finish) get the
 * Zulip error envelope with their status, as every other error does: Node's own answer has no
 * body at all.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, msg] = refusalOf(error.code);
    const body = JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

function refusalOf(code: string | undefined): [number, string, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', 'Request header fields too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'Request timed out'];
    default:
      return [400, 'Bad Request', 'Malformed request'];
  }
}
