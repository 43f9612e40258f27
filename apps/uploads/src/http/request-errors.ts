import type { ServerResponse } from 'node:http';
import { ZulipError, badRequest } from '@teamchat/zulip';
import { sendJson } from './caller';

/**
 * A request body that is not what it claims to be: whatever the multipart parser (busboy)
 * refuses, whichever way it fails (no or an empty boundary, a malformed part header, a body that
 * ends before the closing boundary, another multipart type). Always the client's fault: 400.
 */
export class MalformedBody extends Error {
  constructor(readonly reason: string) {
    super(`Malformed multipart body: ${reason}`);
    this.name = 'MalformedBody';
  }
}

/** The client went away before its request was read (aborted, connection reset): there is no one to answer. */
export class ClientGone extends Error {
  constructor(cause?: unknown) {
    super('client went away', cause === undefined ? undefined : { cause });
    this.name = 'ClientGone';
  }
}

/**
 * The one place that maps an error of the multipart parser, of its part streams or of its
 * construction to what it means: ours (ZulipError, ClientGone: they destroyed the parser)
 * unchanged, anything else busboy's verdict on the body. busboy's messages name the fault
 * ("Unexpected end of form", "Malformed part header", "Multipart: Boundary not found",
 * "Unsupported content type: …"); the client's own header is not echoed back.
 */
export function multipartFault(error: unknown): Error {
  if (error instanceof ZulipError || error instanceof ClientGone || error instanceof MalformedBody) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MalformedBody(message.replace(/^Multipart: /, '').replace(/^(Unsupported content type):[\s\S]*$/, '$1'));
}

/**
 * Answers a failed request, whatever failed, and never throws: Zulip's envelope with the error's
 * status (a MalformedBody is 400 BAD_REQUEST); anything that is no client fault is logged and
 * answers 500. A client that went away, or an answer already begun, gets its connection closed.
 */
export function answerFailure(res: ServerResponse, error: unknown, requestId: string, logFault: (error: unknown) => void): void {
  try {
    if (error instanceof ClientGone || res.headersSent || res.destroyed) {
      // Mid-answer: a reader that went away is no fault; a file that failed while being sent is.
      if (!(error instanceof ClientGone) && !isConnectionLoss(error)) logFault(error);
      res.destroy();
      return;
    }
    let known: ZulipError;
    if (error instanceof ZulipError) known = error;
    else if (error instanceof MalformedBody) known = badRequest(error.message);
    else {
      logFault(error);
      known = new ZulipError('INTERNAL_SERVER_ERROR', 'Internal server error', requestId ? { request_id: requestId } : {});
    }
    sendJson(res, known.status, { result: 'error', msg: known.message, code: known.code, ...known.extra });
  } catch (failure) {
    logFault(failure);
    res.destroy();
  }
}

/** A stream that ended because its connection did (the reader hung up): nobody's fault here. */
function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE';
}

/**
 * An event handler that cannot throw out of its emitter (which would end the process): what it
 * throws fails the request it serves instead.
 */
export function guarded<A extends unknown[]>(fail: (error: unknown) => void, handler: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      handler(...args);
    } catch (error) {
      fail(error);
    }
  };
}
