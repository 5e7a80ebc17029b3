/**
 * The token endpoint of the Pix sandbox (POST /oauth/token, section 5.6) answers as section 5 and the
 * spec's declared answers of the operation say: a wrong client id or secret is 401 (`about:blank`, section
 * 7.2 names no type for it), never 403; 403 AcessoNegado is kept for a client that authenticated but may
 * not have the token (a scope not granted). Every answer is checked strictly against the contract.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { sandboxSecret } from '../../src/runtime/definition.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { expectNoNewDrifts, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSeeded('pix-token', [pixSandbox]);
});
afterAll(() => sandbox.stop());
expectNoNewDrifts(() => sandbox);

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function askToken(authorization: string | undefined, scope?: string) {
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) });
  const answer = await fetch(`${sandbox.urlOf('pix')}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization === undefined ? {} : { authorization }) },
    body: form.toString(),
  });
  return {
    status: answer.status,
    challenge: answer.headers.get('www-authenticate'),
    body: (await answer.json()) as Record<string, unknown>,
  };
}

describe('POST /oauth/token of the Pix sandbox (section 5: 401 wrong id or secret, 403 not allowed)', () => {
  it.each([
    { given: 'the seeded id and secret', authorization: basic('sandbox-pix', sandboxSecret), want: { status: 200 } },
    {
      given: 'a wrong client secret',
      authorization: basic('sandbox-pix', 'not-the-secret'),
      want: { status: 401, type: 'about:blank', detail: /client id or secret is not one the sandbox knows/ },
    },
    {
      given: 'an unknown client id',
      authorization: basic('nobody', sandboxSecret),
      want: { status: 401, type: 'about:blank', detail: /client id or secret/ },
    },
    {
      given: 'no Basic credentials at all',
      authorization: undefined,
      want: { status: 401, type: 'about:blank', detail: /send them as HTTP Basic credentials/ },
    },
  ])('$given: $want.status', async ({ authorization, want }) => {
    const answer = await askToken(authorization);
    expect(answer.status).toBe(want.status);
    if (want.status === 200) {
      expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      return;
    }
    expect(answer.body).toMatchObject({ type: want.type, status: 401, title: 'Unauthorized' });
    expect(answer.body.detail).toMatch(want.detail!);
    expect(answer.challenge).toMatch(/^Basic /);
  });

  it.each([
    { given: 'a scope the credential holds', scope: 'cob.read', want: 200 },
    { given: 'a scope it was not granted', scope: 'cob.read not.a.scope', want: 403 },
  ])('$given: $want', async ({ scope, want }) => {
    const answer = await askToken(basic('sandbox-pix', sandboxSecret), scope);
    expect(answer.status).toBe(want);
    if (want === 403) {
      expect(answer.body.type).toMatch(/\/AcessoNegado$/);
      expect(answer.body.detail).toMatch(/does not hold the scope not\.a\.scope/);
    }
  });
});

describe("the spec's declared answers of auth.token agree with section 5", () => {
  const bundle = JSON.parse(readFileSync(bundledSpecPath('pix'), 'utf8')) as {
    paths: Record<string, Record<string, { responses: Record<string, { description: string; content?: unknown }> }>>;
  };
  const responses = bundle.paths['/oauth/token']!.post!.responses;
  const examples = (status: string): { type: string }[] => {
    const content = responses[status]!.content as Record<string, { examples: Record<string, { value: { type: string } }> }>;
    return Object.values(content['application/problem+json']!.examples).map((example) => example.value);
  };

  it.each([
    { given: '401', want: { meaning: /wrong client id or secret/, type: /^about:blank$/ } },
    { given: '403', want: { meaning: /source IP is not allowed/, type: /\/AcessoNegado$/ } },
  ])('$given: $want.meaning, type $want.type', ({ given, want }) => {
    expect(responses[given]!.description).toMatch(want.meaning);
    for (const example of examples(given)) expect(example.type).toMatch(want.type);
  });

  it('the 403 does not claim a wrong id or secret (that is the 401)', () => {
    expect(responses['403']!.description).toMatch(/wrong client id or secret is the 401 above, never a 403/);
  });
});
