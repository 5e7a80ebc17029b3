/** `contrato validate` as a user runs it: exit codes, one `pointer: message` line per error, stdin. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { feeRule } from '../helpers/fee-rule.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `contrato validate <args>` (plain `contrato` when args is empty). */
function contrato(args: string[], input?: unknown) {
  const command = args.length > 0 ? ['validate', ...args] : [];
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), ...command], {
    cwd: projectRoot,
    encoding: 'utf8',
    input: input === undefined ? '' : typeof input === 'string' ? input : JSON.stringify(input),
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function file(name: string, content: unknown): string {
  const path = join(scratch, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

const goodFeeRule = { name: 'Tarifa Pix', percent: 0.99, minAmount: 0.5, maxAmount: 15 };

describe('contrato validate', () => {
  it.each([
    {
      given: 'a valid request body from a file',
      args: ['core-banking', 'POST', '/fee-rules', 'request', file('good.json', goodFeeRule)],
      want: 0,
      out: /valid/,
    },
    {
      given: 'a valid request body on stdin',
      args: ['core-banking', 'POST', '/fee-rules', 'request', '-'],
      input: goodFeeRule,
      want: 0,
      out: /valid/,
    },
    {
      given: 'a valid response of a concrete path',
      args: ['core-banking', 'GET', '/fee-rules/0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50', 'response:200', file('rule.json', feeRule)],
      want: 0,
      out: /valid/,
    },
    { given: 'a valid component schema', args: ['core-banking', 'schema', 'FeeRule', file('rule2.json', feeRule)], want: 0, out: /valid/ },
  ])('$given -> exit $want', ({ args, input, want, out }) => {
    const run = contrato(args, input);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(want);
    expect(run.stdout).toMatch(out);
  });

  it.each([
    {
      given: 'an empty name and an unknown field',
      args: ['core-banking', 'POST', '/fee-rules', 'request', file('bad.json', { ...goodFeeRule, name: '', weight: 3 })],
      want: [
        '/body/name: must have at least 1 character (minLength; got "")',
        '/body/weight: is not a field the spec lists here: remove it, or check its spelling (additionalProperties; got 3)',
      ],
    },
    {
      given: 'a missing required field',
      args: ['core-banking', 'POST', '/fee-rules', 'request', file('missing.json', { name: 'x', percent: 1, minAmount: 1 })],
      want: ['/body/maxAmount: is required'],
    },
    {
      given: 'an allowed IP outside IPv4 (a contrato format, with its reason)',
      args: [
        'core-banking',
        'POST',
        '/credentials',
        'request',
        file('credential.json', { accountId: 1, description: 'erp', allowedIps: ['10.0.0.0/33'], scopes: ['pix.read'] }),
      ],
      want: [
        '/body/allowedIps/0: must be an IPv4 address or CIDR range (200.160.2.3 or 200.160.0.0/16): a CIDR prefix length is /0 to /32 (format cidr; got "10.0.0.0/33")',
      ],
    },
    {
      given: 'a concrete path whose id is not a uuid',
      args: ['core-banking', 'PUT', '/fee-rules/not-a-uuid', 'request', file('put.json', { percent: 1, minAmount: 1, maxAmount: 2 })],
      want: ['/path/id: must be a UUID (8-4-4-4-12 hexadecimal digits) (format uuid; got "not-a-uuid")'],
    },
    {
      given: 'a response that breaks the schema',
      args: ['core-banking', 'GET', '/fee-rules/{id}', 'response:200', file('badrule.json', { ...feeRule, weight: 0 })],
      want: ['/weight: must be at least 1 (minimum; got 0)'],
    },
  ])('$given -> exit 1 naming each pointer', ({ args, want }) => {
    const run = contrato(args);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual(want);
  });

  it.each([
    { given: 'an unknown interface', args: ['nope', 'POST', '/fee-rules', 'request'], want: /unknown interface "nope"/ },
    { given: 'an unknown operation', args: ['core-banking', 'PATCH', '/fee-rules', 'request'], want: /no operation PATCH \/fee-rules/ },
    {
      given: 'a document for an operation without a body',
      args: ['core-banking', 'GET', '/fee-rules', 'request', 'rule.json'],
      want: /takes no request body; leave out rule\.json/,
    },
    {
      given: 'a status the operation does not have',
      args: ['core-banking', 'GET', '/fee-rules', 'response:418'],
      want: /has no response 418/,
    },
    { given: 'an unknown schema', args: ['core-banking', 'schema', 'Nope', '-'], want: /no schema Nope/ },
    { given: 'a document that is not JSON', args: ['core-banking', 'schema', 'FeeRule', '-'], input: '{oops', want: /not JSON/ },
    { given: 'no command', args: [], want: /usage/ },
  ])('$given -> exit 2', ({ args, input, want }) => {
    const run = contrato(args, input);
    expect(run.code).toBe(2);
    expect(run.stderr + run.stdout).toMatch(want);
  });
});
