/**
 * Reads a request body under a size limit and a deadline for the whole body, so a client that sends its
 * headers and then trickles the body (slow loris) cannot hold a connection for Node's default five minutes.
 */
import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { readonly outcome: 'body'; readonly bytes: Buffer }
  /** Over the size limit; the rest is still drained, but no longer than the deadline. */
  | { readonly outcome: 'too-large' }
  /** The deadline passed before the body ended. */
  | { readonly outcome: 'timed-out' }
  /** The client closed the connection before the body ended. */
  | { readonly outcome: 'aborted' };

export function readBody(request: IncomingMessage, maxBytes: number, deadlineMs: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (read: BodyRead): void => {
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

    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        settle({ outcome: 'too-large' });
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      stop();
      settle({ outcome: 'body', bytes: Buffer.concat(chunks) });
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
