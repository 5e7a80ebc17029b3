/** Ports of the local servers: a base port with a fixed offset per server, and a clear refusal of a taken one. */
import { createServer as createNetServer, type AddressInfo } from 'node:net';

/** The base port of `npm start`, `contrato start`, `mock` and `docs`: the docs site listens on it, each mock at its offset. */
export const defaultBasePort = 4000;
export const defaultHost = '127.0.0.1';

/** Where a server with the default port `defaultPort` listens for base port `base` (0: a free port each). */
export function portFor(base: number, defaultPort: number): number {
  return base === 0 ? 0 : base + (defaultPort - defaultBasePort);
}

export interface PlannedPort {
  readonly port: number;
  /** What would listen there, as the user sees it: "docs site", "mock accounts". */
  readonly label: string;
}

/** One or more ports somebody else already listens on. */
export class PortInUseError extends Error {
  constructor(
    readonly host: string,
    readonly taken: readonly PlannedPort[],
  ) {
    const list = taken.map((entry) => `${entry.port} (${entry.label})`).join(', ');
    super(`${taken.length === 1 ? 'port' : 'ports'} ${list} on ${host} ${taken.length === 1 ? 'is' : 'are'} already in use`);
    this.name = 'PortInUseError';
  }
}

/** Listens on `port` of `host` and closes again: whether that port can be taken now. */
function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Throws PortInUseError naming every planned port that is taken, before anything starts. */
export async function assertPortsFree(host: string, planned: readonly PlannedPort[]): Promise<void> {
  const fixed = planned.filter((entry) => entry.port !== 0);
  const free = await Promise.all(fixed.map((entry) => canListen(host, entry.port)));
  const taken = fixed.filter((_entry, index) => !free[index]);
  if (taken.length > 0) throw new PortInUseError(host, taken);
}

/** A port nobody listens on now, for a process of ours to take (Prism takes no port 0). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The URL of a server listening on `host`:`port` (IPv6 addresses in brackets). */
export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
