/**
 * Parity of the one checking path: every request case goes through `contrato validate` (exit 0 or 1), the
 * sandbox (a contract refusal is a 4xx problem marked by the engine, and stores nothing) and the client of
 * its interface, made from the definition (a RequestValidationError before anything is sent) unless the case
 * is one a client cannot send (see clientComparable). The verdicts must agree. Cases: each operation's spec
 * example with its required headers (valid), the same with one rule broken at a time (an unknown member, a
 * required member left out, a required header left out), and the request cases of the accounts rule table.
 * Prints the number of cases and of disagreements.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isObject, type JsonObject, operationsOf, type OperationModel, resolveLocal } from '../../scripts/openapi-model.js';
import { bundledSpecPath, loadInterface } from '../../src/checks/registry.js';
import { findOperation } from '../../src/checks/router.js';
import { writeDevCertificates } from '../../src/cli/dev-certs.js';
import { runCli } from '../../src/cli/program.js';
import { definitions } from '../../src/interfaces.js';
import type { OperationInfo } from '../../src/runtime/contract.js';
import { RequestValidationError } from '../../src/runtime/errors.js';
import { contractRefusalHeader } from '../../src/sandbox/engine.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { documentCases } from '../specs/accounts/cases.js';
import { type DefinitionClient, sandboxClientFor } from '../helpers/definition-clients.js';
import { watchDrifts } from '../helpers/sandbox.js';
import { argsOf, callByOperationId } from '../helpers/spec-examples.js';
import { readFileSync } from 'node:fs';

interface Case {
  readonly label: string;
  readonly document: string;
  readonly info: OperationInfo;
  readonly path: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly header: Record<string, unknown>;
  readonly body: unknown;
  /** Whether a client can be asked: it fills the idempotency key itself, so a case without one is the wire's alone. */
  readonly clientComparable: boolean;
}

type Verdict = 'accepted' | 'refused';

const keyValue = 'parity0key0001';

/** The spec's example arguments of an operation, with every required header filled. */
function validArgs(
  bundle: JsonObject,
  model: OperationModel,
  info: OperationInfo,
): Omit<Case, 'label' | 'document' | 'info' | 'clientComparable'> | null {
  let args: Record<string, unknown>;
  try {
    args = argsOf(bundle, model);
  } catch {
    return null;
  }
  const header = { ...((args.header as Record<string, unknown> | undefined) ?? {}) };
  if (info.idempotencyKeyRule) header[info.idempotencyKeyRule.header] = keyValue;
  return {
    path: (args.path as Record<string, unknown> | undefined) ?? {},
    query: (args.query as Record<string, unknown> | undefined) ?? {},
    header,
    body: args.body,
  };
}

/** The top-level required members of an operation's request body schema. */
function requiredMembers(bundle: JsonObject, model: OperationModel): string[] {
  const schema = resolveLocal(bundle, model.requestBody?.schema);
  return isObject(schema) && Array.isArray(schema.required) ? schema.required.map(String) : [];
}

function casesOf(document: string, bundle: JsonObject, table: Readonly<Record<string, OperationInfo>>): Case[] {
  const cases: Case[] = [];
  for (const model of operationsOf(bundle)) {
    const info = table[model.operationId];
    if (info?.requestBody?.mediaType !== 'application/json' || info.basicAuth || !info.secured) continue;
    const valid = validArgs(bundle, model, info);
    if (!valid || !isObject(valid.body)) continue;
    const base = { document, info, clientComparable: true };
    cases.push({ ...base, ...valid, label: `${model.operationId}: its example` });
    cases.push({ ...base, ...valid, body: { ...valid.body, parityUnknownMember: 1 }, label: `${model.operationId}: an unknown member` });
    const [required] = requiredMembers(bundle, model);
    if (required !== undefined) {
      const { [required]: _left, ...body } = valid.body;
      cases.push({ ...base, ...valid, body, label: `${model.operationId}: without ${required}` });
    }
    if (info.idempotencyKeyRule && info.parameters.some((p) => p.name === info.idempotencyKeyRule!.header && p.required)) {
      const { [info.idempotencyKeyRule.header]: _key, ...header } = valid.header;
      cases.push({
        ...base,
        ...valid,
        header,
        clientComparable: false,
        label: `${model.operationId}: without ${info.idempotencyKeyRule.header}`,
      });
    }
  }
  return cases;
}

const concretePath = (info: OperationInfo, path: Record<string, unknown>): string =>
  info.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(path[name] ?? '')));

const queryString = (query: Record<string, unknown>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  return search.size > 0 ? `?${search}` : '';
};

let sandbox: RunningSandbox;
let scratch: string;
/** Each interface's client, by the document it calls (its first); a document without one is compared by the CLI and the sandbox. */
const clients = new Map<string, DefinitionClient>();

beforeAll(async () => {
  // A frozen clock: nothing scheduled by an accepted case settles between a refused case's two state readings.
  sandbox = watchDrifts(await startSandbox({ modules: sandboxModules, seed: 'parity', strict: true, speed: 0 }));
  scratch = mkdtempSync(join(tmpdir(), 'contrato-parity-'));
  // Every interface's client from its definition, as the samples build it at the sandbox: its credential (the
  // accounts one a BaaS credential with its child account, so every operation of A is reached), its extra
  // options, a login, and the certificate file `contrato dev-certs` writes for the messages client. The sandbox
  // is plain HTTP, as in the contract suite (its mutual-TLS mode would also refuse this test's own requests,
  // which carry no certificate): the certificate is given and not asked for, and a client's refusal comes
  // before anything is sent.
  writeDevCertificates(scratch);
  for (const definition of definitions) {
    const document = definition.documents[0].name;
    clients.set(document, await sandboxClientFor(definition, sandbox.urlOf(document), scratch, { retry: { maxRetries: 0 } }));
  }
});

afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await sandbox?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function cliVerdict(c: Case, index: number): Promise<Verdict> {
  const file = join(scratch, `case-${index}.json`);
  writeFileSync(file, JSON.stringify(c.body));
  const headers = Object.entries(c.header).flatMap(([name, value]) => ['--header', `${name}:${String(value)}`]);
  const target = `${concretePath(c.info, c.path)}${queryString(c.query)}`;
  const quiet = [vi.spyOn(console, 'log').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {})];
  try {
    const code = await runCli(['validate', c.document, c.info.method.toUpperCase(), target, 'request', file, ...headers]);
    return code === 0 ? 'accepted' : 'refused';
  } finally {
    for (const spy of quiet) spy.mockRestore();
  }
}

const statesOf = (): string =>
  JSON.stringify(definitions.flatMap((definition) => definition.documents.map((document) => sandbox.stateOf(document.name) ?? null)));

async function sandboxVerdict(c: Case): Promise<{ verdict: Verdict; storedOnRefusal: boolean }> {
  const token = sandbox.env.tokens.issue({ clientId: 'parity', scopes: c.info.scopes, audience: c.document }, 3600);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...Object.fromEntries(Object.entries(c.header).map(([name, value]) => [name, String(value)])),
    ...(c.info.tokenHeader ? { [c.info.tokenHeader]: token } : { authorization: `Bearer ${token}` }),
  };
  const before = statesOf();
  const answer = await fetch(`${sandbox.urlOf(c.document)}${concretePath(c.info, c.path)}${queryString(c.query)}`, {
    method: c.info.method.toUpperCase(),
    headers,
    body: JSON.stringify(c.body),
  });
  await answer.arrayBuffer();
  const refused = answer.headers.get(contractRefusalHeader) !== null;
  return { verdict: refused ? 'refused' : 'accepted', storedOnRefusal: refused && statesOf() !== before };
}

async function clientVerdict(c: Case): Promise<Verdict | undefined> {
  const client = clients.get(c.document);
  if (!client || !c.clientComparable) return undefined;
  try {
    await callByOperationId(client, c.info.operationId, { path: c.path, query: c.query, header: c.header, body: c.body }, {});
    return 'accepted';
  } catch (error) {
    return error instanceof RequestValidationError ? 'refused' : 'accepted';
  }
}

describe('one checking path: the client, contrato validate and the sandbox agree', () => {
  it('gives the same verdict on every request case, and a sandbox refusal stores nothing', async () => {
    const cases: Case[] = [];
    for (const definition of definitions) {
      for (const document of definition.documents) {
        const modules = await loadInterface(document.name);
        const bundle = JSON.parse(readFileSync(bundledSpecPath(document.name), 'utf8')) as JsonObject;
        cases.push(...casesOf(document.name, bundle, modules.operationTable));
      }
    }
    const accounts = await loadInterface('accounts');
    for (const c of documentCases) {
      if (c.target.kind !== 'request') continue;
      const match = findOperation(accounts, c.method, c.path);
      if (!match || !isObject(c.document)) continue;
      const key = match.info.idempotencyKeyRule?.header;
      cases.push({
        label: `rule table ${c.rule}: ${c.given}`,
        document: 'accounts',
        info: match.info,
        path: match.pathParameters,
        query: {},
        header: key === undefined ? {} : { [key]: keyValue },
        body: c.document,
        // The facade's image upload takes a file, not a JSON document: the wire's verdicts are compared there.
        clientComparable: match.info.requestBody?.mediaType !== 'multipart/form-data',
      });
    }
    const disagreements: string[] = [];
    let compared = 0;
    for (const [index, c] of cases.entries()) {
      const cli = await cliVerdict(c, index);
      const { verdict: served, storedOnRefusal } = await sandboxVerdict(c);
      const client = await clientVerdict(c);
      compared += client === undefined ? 2 : 3;
      if (served !== cli || (client !== undefined && client !== cli))
        disagreements.push(`${c.label}: contrato validate ${cli}, sandbox ${served}${client ? `, client ${client}` : ''}`);
      if (storedOnRefusal) disagreements.push(`${c.label}: the sandbox refused it but its state changed`);
    }
    const refused = cases.length - cases.filter((c) => c.label.endsWith('its example')).length;
    console.log(
      `parity: ${cases.length} request cases (${refused} breaking a rule), ${compared} verdicts, ${disagreements.length} disagreements`,
    );
    expect(disagreements).toEqual([]);
    expect(cases.length).toBeGreaterThan(100);
  });
});
