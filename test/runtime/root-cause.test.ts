/** The root cause of a failure without an answer, read from a cause chain: table-driven given/want cases. */
import { describe, expect, it } from 'vitest';
import { rootCauseOf, targetOfUrl } from '../../src/runtime/root-cause.js';

/** An Error with the members Node and undici put on theirs. */
const failure = (message: string, members: Record<string, unknown> = {}, cause?: unknown): Error =>
  Object.assign(new Error(message, cause === undefined ? undefined : { cause }), members);

describe('rootCauseOf', () => {
  it.each([
    {
      given: 'a refused connection two levels down a fetch',
      error: failure(
        'fetch failed',
        {},
        failure('wrapped', {}, failure('connect ECONNREFUSED 127.0.0.1:4999', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 4999 })),
      ),
      url: undefined,
      want: {
        code: 'ECONNREFUSED',
        target: '127.0.0.1:4999',
        text: 'ECONNREFUSED 127.0.0.1:4999 (connection refused: nothing listens there)',
      },
    },
    {
      given: 'an IPv6 address',
      error: failure('connect ECONNREFUSED ::1:4999', { code: 'ECONNREFUSED', address: '::1', port: 4999 }),
      url: undefined,
      want: { code: 'ECONNREFUSED', target: '[::1]:4999', text: 'ECONNREFUSED [::1]:4999 (connection refused: nothing listens there)' },
    },
    {
      given: 'happy eyeballs: an AggregateError of one failure per address',
      error: Object.assign(new AggregateError([failure('x', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 8080 })], ''), {
        code: 'ECONNREFUSED',
      }),
      url: 'http://localhost:8080/x',
      want: {
        code: 'ECONNREFUSED',
        target: '127.0.0.1:8080',
        text: 'ECONNREFUSED 127.0.0.1:8080 (connection refused: nothing listens there)',
      },
    },
    {
      given: "undici's closed socket",
      error: failure('other side closed', { code: 'UND_ERR_SOCKET', socket: { remoteAddress: '10.0.0.7', remotePort: 443 } }),
      url: undefined,
      want: {
        code: 'UND_ERR_SOCKET',
        target: '10.0.0.7:443',
        text: 'UND_ERR_SOCKET 10.0.0.7:443 (the other side closed the connection before a complete answer)',
      },
    },
    {
      given: "undici's connect timeout, the address in its words",
      error: failure('Connect Timeout Error (attempted address: bank.example:443, timeout: 10000ms)', { code: 'UND_ERR_CONNECT_TIMEOUT' }),
      url: undefined,
      want: {
        code: 'UND_ERR_CONNECT_TIMEOUT',
        target: 'bank.example:443',
        text: 'UND_ERR_CONNECT_TIMEOUT bank.example:443 (no connection could be made in time)',
      },
    },
    {
      given: 'a host that does not resolve, the address from the request',
      error: failure('getaddrinfo ENOTFOUND bank.invalid', { code: 'ENOTFOUND', hostname: 'bank.invalid' }),
      url: 'https://bank.invalid/v2/x',
      want: { code: 'ENOTFOUND', target: 'bank.invalid:443', text: 'ENOTFOUND bank.invalid:443 (the host name does not resolve (DNS))' },
    },
    {
      given: 'a reset during the TLS handshake',
      error: failure('Client network socket disconnected before secure TLS connection was established', {
        code: 'ECONNRESET',
        host: '127.0.0.1',
        port: 8443,
      }),
      url: 'https://127.0.0.1:8443',
      want: {
        code: 'ECONNRESET',
        target: '127.0.0.1:8443',
        text: 'ECONNRESET 127.0.0.1:8443 (the connection was reset by the other side, during the TLS handshake)',
      },
    },
    {
      given: 'a code it has no words for',
      error: failure('odd', { code: 'EWHATEVER' }),
      url: 'http://127.0.0.1:9',
      want: { code: 'EWHATEVER', target: '127.0.0.1:9', text: 'EWHATEVER 127.0.0.1:9' },
    },
    {
      given: 'no code anywhere, words that quote a bearer token',
      error: failure('fetch failed', {}, failure('refused Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.c2ln\nsecond line')),
      url: 'https://api.example',
      want: { code: undefined, target: 'api.example:443', text: 'api.example:443: refused Bearer [redacted]' },
    },
    {
      given: 'something that is not an Error',
      error: 'boom',
      url: undefined,
      want: { code: undefined, target: undefined, text: 'the server: no reason given' },
    },
  ])('given $given, want $want.text', ({ error, url, want }) => {
    expect(rootCauseOf(error, url)).toEqual(want);
  });

  it('given a scrub of its own, want the words scrubbed by it', () => {
    const cause = rootCauseOf(failure('echo cs_live_Secret99'), 'https://a.example', (text) =>
      text.replace('cs_live_Secret99', '[secret]'),
    );
    expect(cause.text).toBe('a.example:443: echo [secret]');
  });

  it('given a cycle of causes, want an answer', () => {
    const a = failure('a', { code: 'ECONNRESET' });
    const b = failure('b', {}, a);
    (a as { cause?: unknown }).cause = b;
    expect(rootCauseOf(b).code).toBe('ECONNRESET');
  });
});

describe('targetOfUrl', () => {
  it.each([
    { given: 'https://bank.example/v2', want: 'bank.example:443' },
    { given: 'http://127.0.0.1/x', want: '127.0.0.1:80' },
    { given: 'https://bank.example:8443', want: 'bank.example:8443' },
    { given: 'http://[::1]:4010', want: '[::1]:4010' },
  ])('given $given, want $want', ({ given, want }) => {
    expect(targetOfUrl(given)).toBe(want);
  });
});
