/**
 * `contrato/sandbox`: the stateful sandbox as a library for a user's own tests. `startSandbox()` serves every
 * interface in this process on a free loopback port and hands back its addresses, the credentials it
 * accepts, a typed control client and `close()`; `connectSandbox(url)` gives the same control client for a
 * sandbox started elsewhere. Interfaces, addresses and credentials all come from the definitions
 * (src/interfaces.ts), as the `contrato sandbox` command serves them.
 */
import { definitions, interfaces } from '../interfaces.js';
import { sandboxClientOf, sandboxCredentialsOf } from '../runtime/definition.js';
import { connectSandbox, type SandboxControl } from './control-client.js';
import { sandboxModules } from './modules.js';
import { startSandbox as startServer } from './server.js';
import { defaultSandboxCredentials, type SandboxCredential } from './tokens.js';

export {
  connectSandbox,
  type ControlTls,
  type DeliveryRecord,
  type Fault,
  type FaultKind,
  type FaultOptions,
  type PixPayment,
  type SandboxControl,
  SandboxControlError,
  type SandboxStatus,
  type VerbName,
} from './control-client.js';
export type { SandboxCredential } from './tokens.js';

export interface StartSandboxOptions {
  /** Seed of every id the sandbox makes (default `contrato`): the same seed repeats a run. */
  readonly seed?: string;
  /** Sandbox seconds per real second (default 1): 60 plays a 2-minute webhook resend in 2 s. */
  readonly speed?: number;
  /** Default 0: a free port, so parallel test files never collide. */
  readonly port?: number;
  /** Default `127.0.0.1`: its tokens are predictable from the seed, so keep it on loopback. */
  readonly host?: string;
  /** Check every answer against the contract with known values closed; what drifts is in `drifts()`. */
  readonly strict?: boolean;
  /** Where the state is kept between runs (JSON); none by default. */
  readonly snapshotFile?: string;
  /**
   * Mutual TLS as the platform demands it: the sandbox's certificate and key, the CA whose certificates it
   * accepts from callers, and the client certificate of that CA the control client presents
   * (`contrato dev-certs` writes them all).
   */
  readonly tls?: {
    readonly cert: string | Buffer;
    readonly key: string | Buffer;
    readonly ca: string | Buffer;
    readonly client: { readonly cert: string | Buffer; readonly key: string | Buffer };
  };
  /** Lines the sandbox logs (webhooks disabled, its own failures); none by default. */
  readonly log?: (line: string) => void;
}

/** What a client needs to present a sandbox credential: `createPixClient({ baseUrl, ...credentialOf('pix') })`. */
export interface ClientCredential {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface Sandbox {
  /** `http://127.0.0.1:<port>`: the control plane is under `/_sandbox`. */
  readonly url: string;
  /** The base URL of each spec document (`pix`, `accounts`, `core-banking`, …), the `baseUrl` of its client. */
  readonly urls: Readonly<Record<string, string>>;
  /** The base URL of one document; an unknown name throws, naming the known ones. */
  urlOf(document: string): string;
  /** Every credential the sandbox accepts, by interface, with its secret and scopes. */
  readonly credentials: Readonly<Record<string, readonly SandboxCredential[]>>;
  /** The credential the interface's samples use (or the one named `clientId`); an unknown name throws. */
  credentialOf(interfaceName: string, clientId?: string): ClientCredential;
  readonly control: SandboxControl;
  /** With `strict`: every answer that left the contract, one line each. */
  drifts(): readonly string[];
  /** Stops the server, its timers and scheduled webhooks, and closes every connection: nothing keeps the process alive. */
  close(): Promise<void>;
}

/** The credentials of the definitions, grouped by interface, as the sandbox seeds them. */
function credentialsByInterface(accepted: readonly SandboxCredential[]): Record<string, readonly SandboxCredential[]> {
  return Object.fromEntries(
    definitions.map((definition) => [
      definition.name,
      sandboxCredentialsOf(definition).flatMap((declared) => accepted.filter((credential) => credential.clientId === declared.clientId)),
    ]),
  );
}

/** Starts the sandbox of every interface in this process; `close()` it when the tests are done. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const accepted = defaultSandboxCredentials();
  const { tls, ...rest } = options;
  const running = await startServer({
    ...rest,
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    modules: sandboxModules,
    credentials: accepted,
    ...(tls ? { tls: { cert: tls.cert, key: tls.key, ca: tls.ca } } : {}),
  });
  const urls = Object.fromEntries(interfaces.map((info) => [info.name, running.urlOf(info.name)]));
  const credentials = credentialsByInterface(accepted);
  const control = connectSandbox(running.url, tls ? { tls: { ...tls.client, ca: tls.ca } } : {});
  let closing: Promise<void> | undefined;
  return {
    url: running.url,
    urls,
    urlOf(document) {
      const url = urls[document];
      if (url === undefined)
        throw new Error(`urlOf: the sandbox serves no document ${document}; it serves ${Object.keys(urls).join(', ')}`);
      return url;
    },
    credentials,
    credentialOf(interfaceName, clientId) {
      const known = credentials[interfaceName];
      const definition = definitions.find((candidate) => candidate.name === interfaceName);
      if (!known || !definition)
        throw new Error(`credentialOf: no interface ${interfaceName}; the interfaces are ${Object.keys(credentials).join(', ')}`);
      const wanted = clientId ?? sandboxClientOf(definition).clientId;
      const credential = known.find((candidate) => candidate.clientId === wanted);
      if (!credential)
        throw new Error(
          `credentialOf: ${interfaceName} has no credential ${wanted}; it has ${known.map((candidate) => candidate.clientId).join(', ')}`,
        );
      return { clientId: credential.clientId, clientSecret: credential.clientSecret };
    },
    control,
    drifts: () => running.drifts(),
    close() {
      closing ??= control.close().then(() => running.stop());
      return closing;
    },
  };
}
