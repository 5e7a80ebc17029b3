/**
 * Clients built from the interface definitions alone, for the tests that iterate them: the factory of
 * each interface's module (src/<name>/index.ts, `clientFactoryOf`), given the sandbox credential its
 * definition names (`sandbox.client`: the credential, extra options, a login, a certificate file).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../scripts/lib.js';
import { clientFactoryOf, type InterfaceDefinition, sandboxClientOf, sandboxSecret } from '../../src/runtime/definition.js';

/** What every client of these tests can do: close. Its facade is reached by operationId (helpers/spec-examples.ts). */
export interface DefinitionClient {
  close(): Promise<void>;
}

/** The module of an interface (its client factory and types), imported from the checkout's sources. */
export async function clientModuleOf(definition: Pick<InterfaceDefinition<never>, 'name'>): Promise<Record<string, unknown>> {
  return (await import(join(projectRoot, 'src', definition.name, 'index.ts'))) as Record<string, unknown>;
}

/**
 * A client of `definition` at `baseUrl` as its sandbox credential, with `options` added (strict answers, no
 * retries, …); `certificates` holds the files `contrato dev-certs` writes, for a client that needs one.
 */
export async function sandboxClientFor(
  definition: Pick<InterfaceDefinition<never>, 'name' | 'documents' | 'sandbox'>,
  baseUrl: string,
  certificates: string,
  options: Readonly<Record<string, unknown>> = {},
): Promise<DefinitionClient> {
  const factory = (await clientModuleOf(definition))[clientFactoryOf(definition)] as (options: object) => DefinitionClient;
  const client = sandboxClientOf(definition);
  const credential = { clientId: client.clientId, clientSecret: sandboxSecret };
  return factory({
    baseUrl,
    ...(client.login ? { login: credential } : credential),
    ...client.options,
    ...(client.pfx ? { tls: { pfx: readFileSync(join(certificates, client.pfx)) } } : {}),
    ...options,
  });
}
