/**
 * The floor of bench/floor-server.ts without an HTTP library (BENCH_FLOOR_SERVER=net): the
 * same queues (bench/floor-queues.ts) over `node:net`, requests cut out of the bytes by the
 * least parsing this benchmark's client needs (a request line, headers, a Content-Length body;
 * no chunked bodies, no pipelining guarantees beyond order). It tells what of the floor's CPU
 * per delivery is node:http's and what the socket's (Node's stream layer and the kernel).
 * Not a server for anything else.
 */
import net from 'node:net';
import { announce, poll, register, sendMessage } from './floor-queues';

const HEADERS_END = '\r\n\r\n';
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

function answer(socket: net.Socket, body: string): void {
  socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nKeep-Alive: timeout=120\r\n\r\n${body}`);
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  let pending = '';
  let forget = () => undefined as unknown;
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('latin1');
    for (;;) {
      const headEnd = pending.indexOf(HEADERS_END);
      if (headEnd < 0) return;
      const head = pending.slice(0, headEnd);
      const length = Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0);
      const bodyAt = headEnd + HEADERS_END.length;
      if (pending.length < bodyAt + length) return;
      const body = pending.slice(bodyAt, bodyAt + length);
      pending = pending.slice(bodyAt + length);
      const [method, target = ''] = head.slice(0, head.indexOf('\r\n')).split(' ');
      const [path, query = ''] = target.split('?');
      if (method === 'GET' && path === '/api/v1/events') forget = poll(query, (text) => answer(socket, text));
      else if (method === 'POST' && path === '/api/v1/register') answer(socket, register());
      else if (method === 'POST' && path === '/api/v1/messages') answer(socket, sendMessage(Buffer.from(body, 'latin1').toString()));
      else socket.write('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    }
  });
  socket.on('close', () => forget());
  socket.on('error', () => socket.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  announce(typeof address === 'object' && address ? address.port : 0);
});
