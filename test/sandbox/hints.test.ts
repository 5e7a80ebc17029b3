/**
 * The hints the sandbox and its docs give are true:
 *
 * - every control path a refusal, a guide or the README names (`GET /_sandbox`, `POST /_sandbox/pix/keys`, …)
 *   is one the control plane answers;
 * - `GET /_sandbox` lists what the refusals send users to find there: the credentials, and what each
 *   interface's state holds (the Pix keys a charge may name, the accounts a credential operates, the customers);
 *   each listed thing works when used, and a Pix key that is not listed is refused with the hint;
 * - every `contrato sandbox fault <operationId>` of the docs names an operation, and a comment that says which
 *   request it affects names that operation's method and path; every `contrato sandbox control <interface>/<verb>`
 *   names a verb the overview lists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { loadInterface } from '../../src/checks/registry.js';
import { definitions, findDefinition, interfaces } from '../../src/interfaces.js';
import { sandboxClientOf, sandboxCredentialsOf, sandboxSecret } from '../../src/runtime/definition.js';
import { handWrittenModules, sandboxModules } from '../../src/sandbox/modules.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { accountsClientOf, pixClientOf, problemOf, startSeeded } from '../helpers/sandbox.js';

interface Overview {
  readonly credentials: { clientId: string; clientSecret: string; scopes: string[] }[];
  readonly interfaces: Record<string, { url: string; verbs: string[]; world?: Record<string, unknown> }>;
}

/** Every text a user reads hints in: the sandbox's sources (refusals, comments), the guides, the README. */
function hintTexts(): { file: string; text: string }[] {
  const files: string[] = [join(projectRoot, 'README.md')];
  const walk = (folder: string, extension: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path, extension);
      else if (entry.name.endsWith(extension)) files.push(path);
    }
  };
  walk(join(projectRoot, 'docs'), '.md');
  walk(join(projectRoot, 'src'), '.ts');
  return files.map((file) => ({ file: relative(projectRoot, file), text: readFileSync(file, 'utf8') }));
}

/** `GET /_sandbox`, `POST /_sandbox/pix/keys`, `POST /_sandbox/deliveries/<id>/resend`: method and path as written. */
function namedControlPaths(): { file: string; method: string; path: string }[] {
  const found = new Map<string, { file: string; method: string; path: string }>();
  for (const { file, text } of hintTexts()) {
    for (const match of text.matchAll(/\b(GET|POST|DELETE) (\/_sandbox(?:\/[\w<>-]+)*)/g)) {
      const [, method, path] = match;
      found.set(`${method} ${path}`, { file, method: method!, path: path! });
    }
  }
  return [...found.values()];
}

/** The control plane's own "no such route" answers, as opposed to a route that refused what it was sent. */
const unknownRoute = /^(no control |no interface |\S+ has no verb )/;

let sandbox: RunningSandbox;
let overview: Overview;

beforeAll(async () => {
  sandbox = await startSeeded('hints', sandboxModules);
  overview = (await (await fetch(`${sandbox.url}/_sandbox`)).json()) as Overview;
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('control paths named in hints and docs', () => {
  it('finds the paths the refusals name', () => {
    const paths = namedControlPaths().map((entry) => `${entry.method} ${entry.path}`);
    expect(paths).toContain('GET /_sandbox');
    expect(paths).toContain('POST /_sandbox/pix/keys');
  });

  it.each(namedControlPaths().map((entry) => [`${entry.method} ${entry.path} (${entry.file})`, entry] as const))(
    '%s is answered by the control plane',
    async (_label, { method, path }) => {
      // A family of verbs (`/_sandbox/<interface>/<verb>`) is answered when one of its members is.
      const [document, verb] = path.split('/').slice(2);
      const family =
        verb === '<verb>'
          ? Object.entries(overview.interfaces).find(
              ([name, entry]) => (document?.startsWith('<') || name === document) && entry.verbs.length > 0,
            )
          : undefined;
      const concrete = family ? `/_sandbox/${family[0]}/${family[1].verbs[0]}` : path.replace(/<[\w-]+>/g, 'x');
      const answer = await fetch(`${sandbox.url}${concrete}`, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
      const body = (await answer.json()) as { detail?: string };
      expect(answer.status === 404 && unknownRoute.test(body.detail ?? ''), `${method} ${concrete}: ${body.detail}`).toBe(false);
      await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST', body: '{}' });
    },
  );
});

describe('GET /_sandbox lists what a user needs to start', () => {
  it('lists every credential the token endpoints accept, with the public sandbox secret', async () => {
    const ids = overview.credentials.map((credential) => credential.clientId);
    const declared = definitions.flatMap((definition) => sandboxCredentialsOf(definition).map((credential) => credential.clientId));
    expect(ids).toEqual(declared);
    for (const credential of overview.credentials) {
      expect(credential.clientSecret).toBe(sandboxSecret);
      expect(Array.isArray(credential.scopes), credential.clientId).toBe(true);
    }
  });

  it('lists what each module that describes its state holds', () => {
    const describing = handWrittenModules.filter((module) => module.world !== undefined);
    expect(describing.length).toBeGreaterThan(0);
    for (const module of describing) expect(overview.interfaces[module.document]?.world, module.document).toBeDefined();
  });

  it('every Pix key it lists can be charged; a key it does not list is refused with the hint to look there', async () => {
    const world = overview.interfaces.pix!.world as { keys: string[] };
    const pix = pixClientOf(sandbox);
    try {
      const charge = (chave: string) =>
        pix.cob.createWithoutTxid({ body: { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave } });
      for (const key of world.keys) expect((await charge(key)).chave, key).toBe(key);
      const refused = await problemOf(charge('someone-else@example.com'));
      expect(refused.status).toBe(400);
      expect(refused.message).toContain('GET /_sandbox shows them');
    } finally {
      await pix.close();
    }
  });

  it('every account it lists as operated by the BaaS credential answers its balance through x-account-id', async () => {
    const world = overview.interfaces.accounts!.world as { accounts: { id: number; open: boolean; operatedBy: string }[] };
    const children = world.accounts.filter(
      (account) => account.open && account.operatedBy.startsWith('the BaaS credential with x-account-id'),
    );
    expect(children.length).toBeGreaterThan(0);
    const baas = sandboxClientOf(findDefinition('accounts')!).clientId;
    for (const account of children) {
      const client = accountsClientOf(sandbox, baas, { accountId: account.id });
      try {
        expect(await client.balance.get({}), `account ${account.id}`).toBeDefined();
      } finally {
        await client.close();
      }
    }
  });
});

describe('sandbox commands in the docs', () => {
  const docs = hintTexts().filter((entry) => entry.file.endsWith('.md'));
  const faults = docs.flatMap(({ file, text }) =>
    [...text.matchAll(/contrato sandbox fault ([\w.]+) [\w-]+[^\n#|`]*(?:#([^\n]*))?/g)].map((match) => ({
      file,
      operationId: match[1]!,
      comment: match[2] ?? '',
    })),
  );
  const controls = docs.flatMap(({ file, text }) =>
    [...text.matchAll(/contrato sandbox control ([\w-]+)\/(\w+)/g)].map((match) => ({ file, document: match[1]!, verb: match[2]! })),
  );

  it('the docs show fault and control commands', () => {
    expect(faults.length).toBeGreaterThan(0);
    expect(controls.length).toBeGreaterThan(0);
  });

  it.each(faults.map((fault) => [`${fault.operationId} (${fault.file})`, fault] as const))(
    'fault %s names an operation, and its comment names that operation’s request',
    async (_label, { operationId, comment }) => {
      const tables = await Promise.all(interfaces.map(async (info) => (await loadInterface(info.name)).operationTable));
      const operation = tables.map((table) => table[operationId]).find((entry) => entry !== undefined);
      expect(operation, `${operationId} is no operation of any interface`).toBeDefined();
      const named = /\b(GET|POST|PUT|PATCH|DELETE) (\/\S*)/.exec(comment);
      if (named) expect(`${named[1]} ${named[2]}`).toBe(`${operation!.method.toUpperCase()} ${operation!.path}`);
    },
  );

  it('the guide lists the verbs of each interface as the overview does', () => {
    const guide = docs.find((entry) => entry.file.endsWith('guides/sandbox.md'))!.text;
    const paragraph = /The verbs of each interface \(`GET \/_sandbox` lists them\): ([\s\S]*?)\.\n/.exec(guide)?.[1];
    expect(paragraph, 'the verbs paragraph of docs/guides/sandbox.md').toBeDefined();
    const listed = Object.fromEntries(
      paragraph!.split(';').map((part) => {
        const [document, ...verbs] = part.trim().split(/\s+/);
        return [document!, verbs.map((verb) => verb.replace(/[`,]/g, '')).sort()];
      }),
    );
    const served = Object.fromEntries(
      Object.entries(overview.interfaces)
        .filter(([, entry]) => entry.verbs.length > 0)
        .map(([document, entry]) => [document, [...entry.verbs].sort()]),
    );
    expect(listed).toEqual(served);
  });

  it.each(controls.map((control) => [`${control.document}/${control.verb} (${control.file})`, control] as const))(
    'control %s is a verb the overview lists',
    (_label, { document, verb }) => {
      expect(overview.interfaces[document]?.verbs ?? [], `${document} verbs`).toContain(verb);
    },
  );
});
