import type { IncomingMessage } from 'node:http';

/** A body larger than this is not waited for: its sender gets the answer or a closed connection. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;
const DRAIN_WAIT_MS = 5000;

/**
 * Runs `answer` once the request's body has arrived, reading and discarding what nobody read.
 * An answer is often ready before its body is read (a refused body, a caller not admitted, a
 * resumable upload at the wrong offset); answering then closes the connection under a client
 * still sending, whose write fails (EPIPE, or a reset that discards the answer) before it can
 * read it. A body its handler set aside half-read (as a stream) is discarded too.
 */
export function afterRequestBody(req: IncomingMessage, answer: () => void): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (req.complete || req.readableEnded || req.destroyed || declared > DRAIN_LIMIT_BYTES) return answer();
  let answered = false;
  const once = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    answer();
  };
  const timer = setTimeout(once, DRAIN_WAIT_MS);
  req.once('end', once);
  req.once('close', once);
  req.once('error', once);
  req.removeAllListeners('data'); // whoever took the body as a stream has stopped reading it
  req.resume();
}

/** afterRequestBody as a promise: resolves once the request's body has arrived (or will not). */
export const requestBodyRead = (req: IncomingMessage): Promise<void> => new Promise((resolve) => afterRequestBody(req, resolve));
