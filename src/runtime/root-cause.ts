/**
 * The root cause of a failure without an answer, in one line: the system or undici code, the host and
 * port, and what it means in words — `ECONNREFUSED 127.0.0.1:4999 (connection refused: nothing listens
 * there)`. Read from the whole cause chain (a fetch wraps it, a token request rebuilds it), so the reason
 * two levels down is in the message. Only codes, addresses and fixed words are quoted: a message of the
 * chain is quoted only when no code explains the failure, and then scrubbed.
 */
import { redact } from './logging.js';

/** What a code means, in words. */
const meanings: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused: nothing listens there',
  ECONNRESET: 'the connection was reset by the other side',
  ECONNABORTED: 'the connection was aborted',
  EPIPE: 'the other side closed the connection while the request was being written',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EHOSTDOWN: 'the host is down',
  ENOTFOUND: 'the host name does not resolve (DNS)',
  EAI_AGAIN: 'the host name could not be resolved for now (DNS)',
  EADDRNOTAVAIL: 'the address is not available on this machine',
  UND_ERR_SOCKET: 'the other side closed the connection before a complete answer',
  UND_ERR_CONNECT_TIMEOUT: 'no connection could be made in time',
  UND_ERR_HEADERS_TIMEOUT: 'the answer headers did not arrive in time',
  UND_ERR_BODY_TIMEOUT: 'the answer body stalled',
  UND_ERR_CLOSED: 'the client was closed',
  UND_ERR_DESTROYED: 'the connection was destroyed',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the answer body was shorter or longer than its declared length',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'the request body did not match its declared length',
  HPE_INVALID_CONSTANT: 'the answer is not HTTP',
};

/** How many links of a cause chain are read. */
const chainLinks = 8;

interface Link {
  readonly message: string;
  readonly code: string | undefined;
  readonly target: string | undefined;
}

const ipv6 = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** `host:port` a link names: a system error's address and port, undici's socket, an attempted address in its words. */
function targetOf(link: Record<string, unknown>): string | undefined {
  if (typeof link.address === 'string' && (typeof link.port === 'number' || typeof link.port === 'string'))
    return `${ipv6(link.address)}:${link.port}`;
  const socket = link.socket as Record<string, unknown> | undefined;
  if (socket && typeof socket.remoteAddress === 'string' && typeof socket.remotePort === 'number')
    return `${ipv6(socket.remoteAddress)}:${socket.remotePort}`;
  const attempted = typeof link.message === 'string' ? /attempted address: ([^\s,)]+)/.exec(link.message) : null;
  if (attempted) return attempted[1];
  // Happy eyeballs: an AggregateError of one failure per address tried.
  const [first] = Array.isArray(link.errors) ? (link.errors as unknown[]) : [];
  return typeof first === 'object' && first !== null ? targetOf(first as Record<string, unknown>) : undefined;
}

function linksOf(error: unknown): Link[] {
  const links: Link[] = [];
  for (let current: unknown = error; current instanceof Error && links.length < chainLinks; current = current.cause) {
    const record = current as unknown as Record<string, unknown>;
    links.push({
      message: current.message,
      code: typeof record.code === 'string' && record.code !== '' ? record.code : undefined,
      target: targetOf(record),
    });
  }
  return links;
}

/** `host:port` of a URL, the default port written out. */
export function targetOfUrl(url: string | URL): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : '');
  return port ? `${parsed.hostname}:${port}` : parsed.hostname;
}

export interface RootCause {
  /** The code of the deepest link that has one. */
  readonly code: string | undefined;
  /** `host:port`: the one the failure names, else the request's. */
  readonly target: string | undefined;
  /** One line: code, host:port and meaning; or, with no code, host:port and the innermost words, scrubbed. */
  readonly text: string;
}

/**
 * The root cause of `error`: the deepest code of its cause chain, the host and port it names (else those
 * of `url`), in one line. A TLS handshake that the other side broke off is said to be one.
 */
export function rootCauseOf(
  error: unknown,
  url?: string | URL,
  scrub: (text: string) => string = (text) => redact(text) as string,
): RootCause {
  const links = linksOf(error);
  const coded = [...links].reverse().find((link) => link.code !== undefined);
  const target =
    [...links].reverse().find((link) => link.target !== undefined)?.target ?? (url === undefined ? undefined : targetOfUrl(url));
  const duringTls = links.some((link) => /before secure TLS connection was established/.test(link.message));
  const where = target ? ` ${target}` : '';
  if (coded?.code) {
    const meaning =
      meanings[coded.code] ?? (/^(ERR_TLS|ERR_SSL|ERR_OSSL)/.test(coded.code) ? 'the TLS layer refused the connection' : undefined);
    const words = [meaning, duringTls ? 'during the TLS handshake' : undefined].filter(Boolean).join(', ');
    return { code: coded.code, target, text: `${coded.code}${where}${words ? ` (${words})` : ''}` };
  }
  // No code anywhere: the innermost words, on one line, short, scrubbed (a failing fetch may quote anything).
  const innermost = links.at(-1)?.message.split('\n')[0]?.trim() ?? '';
  const said = innermost === '' ? 'no reason given' : scrub(innermost.length > 120 ? `${innermost.slice(0, 117)}...` : innermost);
  return { code: undefined, target, text: `${target ?? 'the server'}: ${said}` };
}
