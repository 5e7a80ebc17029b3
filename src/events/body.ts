/**
 * Reads a request body under a size limit and a deadline for the whole body, so a client that sends its
 * headers and then trickles the body (slow loris) cannot hold a connection for Node's default five minutes.
 */
import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { readonly outcome: 'body'; readonly bytes: Buffer }
  /** Over the size limit (by its content-length, or by the bytes that came); what was read is dropped. */
  | { readonly outcome: 'too-large' }
  /** The deadline passed before the body ended. */
  | { readonly outcome: 'timed-out' }
  /** The client closed the connection before the body ended. */
  | { readonly outcome: 'aborted' };

/** A body a check refused as it came (see BodyReadOptions.refuse); nothing more of it was read. */
export type RefusedRead = { readonly outcome: 'refused' };

export interface BodyReadOptions {
  /**
   * What happens to the rest of a body found too large: `drain` reads and discards it until the deadline
   * (the connection can still answer), `stop` reads no more, so the caller answers and drops the connection.
   */
  readonly overflow?: 'drain' | 'stop';
}

export function readBody(request: IncomingMessage, maxBytes: number, deadlineMs: number, options: BodyReadOptions = {}): Promise<BodyRead> {
  return readCheckedBody(request, maxBytes, deadlineMs, options) as Promise<BodyRead>;
}

/**
 * readBody with a check of each chunk as it comes: `refuse` answering true ends the read at once (outcome
 * `refused`), nothing more read, so a body that shows early it cannot be taken is not read to its end.
 */
export function readCheckedBody(
  request: IncomingMessage,
  maxBytes: number,
  deadlineMs: number,
  options: BodyReadOptions & { readonly refuse?: (chunk: Buffer) => boolean } = {},
): Promise<BodyRead | RefusedRead> {
  // A declared length over the limit is refused before a byte is read.
  const declared = Number(request.headers['content-length']);
  const declaredTooLarge = Number.isFinite(declared) && declared > maxBytes;
  const stopOnOverflow = options.overflow === 'stop';
  if (declaredTooLarge && stopOnOverflow) return Promise.resolve({ outcome: 'too-large' });
  return new Promise<BodyRead | RefusedRead>((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (read: BodyRead | RefusedRead): void => {
      if (settled) return;
      settled = true;
      resolve(read);
    };
    const deadline = setTimeout(() => {
      if (settled) {
        // Still draining a body refused as too large: stop paying for it.
        request.destroy();
        return;
      }
      settle({ outcome: 'timed-out' });
    }, deadlineMs);
    const stop = (): void => clearTimeout(deadline);
    // Drained from the first byte, under the deadline.
    if (declaredTooLarge) settle({ outcome: 'too-large' });

    const onData = (chunk: Buffer): void => {
      if (settled) return;
      size += chunk.length;
      const refused = options.refuse?.(chunk) === true;
      if (size > maxBytes || refused) {
        chunks = [];
        settle({ outcome: refused ? 'refused' : 'too-large' });
        if (stopOnOverflow || refused) {
          // Reading no further leaves the rest in the socket, which the caller drops after its answer.
          stop();
          request.off('data', onData);
          request.pause();
        }
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () => {
      stop();
      settle({ outcome: 'body', bytes: Buffer.concat(chunks, size) });
      chunks = [];
    });
    request.on('error', () => {
      stop();
      settle({ outcome: 'aborted' });
    });
    request.on('close', () => {
      // After 'end' this changes nothing; before it, the client went away.
      stop();
      settle({ outcome: 'aborted' });
    });
  });
}
