/**
 * The body deadline (bodyTimeoutMs) on a real node:http server on 127.0.0.1: clients that send their
 * headers and then one byte every 100 ms (slow loris) are answered 408 and disconnected soon after the
 * deadline, instead of holding the connection for Node's default five minutes; normal deliveries pass.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { invoicePaid, startReceiver, type Receiver } from './receiver.js';

let receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
});

interface RawExchange {
  /** What the server sent back, as text. */
  readonly received: string;
  /** Whether the server closed the connection before the client gave up. */
  readonly closedByServer: boolean;
  readonly elapsedMs: number;
}

/**
 * Sends `head`, then the body bytes one at a time every `intervalMs`. It stops writing when the body
 * is sent, and gives up (closing the connection itself) after `giveUpAfterMs`, so it always ends.
 */
function rawDelivery(port: number, head: string, body: string, intervalMs: number, giveUpAfterMs: number): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    let gaveUp = false;
    let trickle: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, giveUpAfterMs);
    socket.on('connect', () => {
      // The head first, then the trickle: a byte queued before the connection would precede the head.
      socket.write(head);
      trickle = setInterval(() => {
        if (sent < body.length && !socket.destroyed) socket.write(body[sent++]!);
      }, intervalMs);
    });
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined); // a write after the server closed: EPIPE or ECONNRESET, expected
    socket.on('close', () => {
      clearInterval(trickle);
      clearTimeout(giveUp);
      resolve({ received, closedByServer: !gaveUp, elapsedMs: performance.now() - started });
    });
  });
}

const headFor = (port: number, contentLength: number) =>
  `POST /hooks/contrato HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

describe('bodyTimeoutMs', () => {
  it('answers 408 to 50 slow-loris clients and closes them soon after a 300 ms deadline; normal deliveries pass meanwhile', async () => {
    let calls = 0;
    const receiver = await startReceiver({ onEvent: () => void (calls += 1), bodyTimeoutMs: 300 });
    receivers.push(receiver);
    const body = JSON.stringify(invoicePaid(61));
    const loris = Array.from({ length: 50 }, () => rawDelivery(receiver.port, headFor(receiver.port, body.length), body, 100, 3000));
    const normal = await receiver.deliver(invoicePaid(62));
    const exchanges = await Promise.all(loris);

    expect(normal.status).toBe(200);
    expect(calls).toBe(1);
    for (const exchange of exchanges) {
      expect(exchange.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(exchange.received).toMatch(/\r\nconnection: close\r\n/i);
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.elapsedMs).toBeGreaterThanOrEqual(290);
      expect(exchange.elapsedMs).toBeLessThan(1500);
    }
  });

  it('lets a body that arrives in pieces within the deadline through', async () => {
    const receiver = await startReceiver({ onEvent: () => undefined, bodyTimeoutMs: 2000 });
    receivers.push(receiver);
    // Four pieces 100 ms apart: well inside the deadline; the server answers and keeps the connection.
    const body = JSON.stringify({ type: 'x.pieces', data: {} });
    const pieces = Math.ceil(body.length / 4);
    const exchange = await new Promise<RawExchange>((resolve) => {
      const started = performance.now();
      const socket = connect(receiver.port, '127.0.0.1');
      let received = '';
      let written = 0;
      let writePiece: NodeJS.Timeout | undefined;
      socket.on('connect', () => {
        socket.write(headFor(receiver.port, body.length));
        writePiece = setInterval(() => {
          if (written >= body.length) return clearInterval(writePiece);
          socket.write(body.slice(written, written + pieces));
          written += pieces;
        }, 100);
      });
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        if (received.endsWith('\r\n0\r\n\r\n')) socket.end(); // the last chunk of the answer
      });
      socket.on('close', () => {
        clearInterval(writePiece);
        resolve({ received, closedByServer: false, elapsedMs: performance.now() - started });
      });
    });
    expect(exchange.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(exchange.received).toContain('{"received":true}');
  });

  it('closes a refused oversized body that keeps trickling once the deadline passed', async () => {
    const receiver = await startReceiver({ onEvent: () => undefined, maxBodyBytes: 16, bodyTimeoutMs: 300 });
    receivers.push(receiver);
    const body = 'x'.repeat(200);
    const exchange = await rawDelivery(receiver.port, headFor(receiver.port, body.length), body, 5, 3000);
    expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(1500);
  });
});
