import net from 'node:net';

/**
 * One long-poll client's keep-alive connection, speaking just enough HTTP/1.1 for `GET` with a
 * `Content-Length` answer, one request at a time: the load generator of `npm run bench:events`.
 * It shares the machine with the servers it measures (the same two cores), so what it spends
 * is taken from them: Node's `http.request` with an agent and a `URL` per poll cost the client
 * about as much CPU per delivery as the floor server itself. Sends and registrations stay on
 * `node:http` (bench/support.ts): they are a few per second.
 */
export class PollConnection {
  private socket?: net.Socket;
  private buffered?: Buffer;
  private waiting?: { resolve: (answer: { status: number; body: string }) => void; reject: (error: Error) => void };
  private readonly headers: string;

  constructor(
    private readonly port: number,
    host: string,
    authorization: string,
  ) {
    this.headers = ` HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${authorization}\r\n\r\n`;
  }

  /** GET `path` (with its query): the status and body text; rejects if the connection fails or closes first. */
  get(path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.connected().write(`GET ${path}${this.headers}`);
    });
  }

  close(): void {
    this.socket?.destroy();
  }

  private connected(): net.Socket {
    if (this.socket) return this.socket;
    const socket = net.connect(this.port, '127.0.0.1');
    socket.setNoDelay(true);
    this.buffered = undefined;
    socket.on('data', (chunk: Buffer) => this.received(socket, chunk));
    const fail = (error?: Error) => {
      if (this.socket === socket) this.socket = undefined;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(error ?? new Error('connection closed'));
    };
    socket.on('error', fail);
    socket.on('close', () => fail());
    this.socket = socket;
    return socket;
  }

  private received(socket: net.Socket, chunk: Buffer): void {
    const data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    const headEnd = data.indexOf('\r\n\r\n');
    if (headEnd < 0) return void (this.buffered = data);
    const head = data.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) return void socket.destroy(new Error(`an answer without Content-Length: ${head.split('\r\n')[0]}`));
    const end = headEnd + 4 + Number(length[1]);
    if (data.length < end) return void (this.buffered = data);
    this.buffered = end < data.length ? data.subarray(end) : undefined;
    const answer = { status: Number(head.slice(9, 12)), body: data.toString('utf8', headEnd + 4, end) };
    if (/\r\nconnection: *close/i.test(head)) {
      this.socket = undefined;
      socket.end();
    }
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(answer);
  }
}
