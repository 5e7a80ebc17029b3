/**
 * Refusals a person reads in one go: a oneOf between members (`cpf` or `cnpj`) broken by sending several is
 * one issue naming them all and the rule, wherever the shared check runs (client, sandbox, `contrato
 * validate`); a method and path no operation has is answered with the nearest operations of the interface.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { check, type CompiledValidator } from '../../src/runtime/validation.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-refusals-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A oneOf whose every branch takes one of `members` and refuses the others, as specs/pix's DadosDevedor does. */
function exclusiveOf(members: readonly string[]): CompiledValidator {
  const schema = {
    type: 'object',
    properties: Object.fromEntries(members.map((name) => [name, { type: 'string' }])),
    oneOf: members.map((name) => ({
      required: [name],
      properties: Object.fromEntries(members.filter((other) => other !== name).map((other) => [other, { not: {} }])),
    })),
  };
  return new Ajv.default({ allErrors: true, strict: false }).compile(schema) as unknown as CompiledValidator;
}

describe('a oneOf between members', () => {
  it.each([
    {
      given: 'both',
      members: ['cpf', 'cnpj'],
      data: { cnpj: '1', cpf: '2' },
      want: [['/body', 'oneOf', 'send cnpj or cpf, not both (oneOf)']],
    },
    { given: 'one', members: ['cpf', 'cnpj'], data: { cpf: '2' }, want: [] },
    {
      given: 'three of three',
      members: ['email', 'phone', 'cpf'],
      data: { phone: '1', email: '2', cpf: '3' },
      want: [['/body', 'oneOf', 'send phone, email or cpf, not several (oneOf)']],
    },
    {
      given: 'two of three',
      members: ['email', 'phone', 'cpf'],
      data: { phone: '1', cpf: '3' },
      want: [['/body', 'oneOf', 'send phone or cpf, not both (oneOf)']],
    },
    {
      given: 'none (the members it requires are named as before)',
      members: ['cpf', 'cnpj'],
      data: {},
      want: [
        ['/body/cnpj', 'required', 'is required'],
        ['/body/cpf', 'required', 'is required'],
      ],
    },
  ])('$given sent', ({ members, data, want }) => {
    const issues = check(exclusiveOf(members), data, '/body');
    expect(issues.map((issue) => [issue.pointer, issue.rule, issue.message.replace(/ \(required\)$/, '')])).toEqual(want);
  });
});

async function validate(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['validate', ...argv], { output: { out: (line) => out.push(line), err: (line) => err.push(line) } });
  return { code, out, err };
}

describe('contrato validate', () => {
  it('refuses a Pix charge debtor with both documents in one line', async () => {
    const body = join(scratch, 'both.json');
    writeFileSync(
      body,
      JSON.stringify({
        calendario: { expiracao: 3600 },
        devedor: { cpf: '12345678909', cnpj: '11222333000181', nome: 'Fulano' },
        valor: { original: '10.00' },
        chave: 'cobrancas@sandbox.example.com',
      }),
    );
    // The issues go to standard error, a line each.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    let lines: string[];
    try {
      const run = await validate('pix', 'PUT', '/cob/fc9a4366ff3d4964b5dbc6c91a8722d3', 'request', body);
      expect(run.err).toEqual([]);
      expect(run.code).toBe(1);
      lines = printed.mock.calls.map((call) => String(call[0]));
    } finally {
      printed.mockRestore();
    }
    expect(lines.join('\n')).toBe('/body/devedor: send cpf or cnpj, not both (oneOf)');
  });

  it.each([
    { given: 'a letter missing', args: ['core-banking', 'POST', '/fee-rule'], want: 'nearest: POST /fee-rules (feeRules.create)' },
    { given: 'a misspelt segment', args: ['accounts', 'GET', '/acount/balance'], want: 'nearest: GET /accounts/balance (balance.get)' },
    {
      given: 'a message of the wrong family',
      args: ['messages', 'POST', '/message/pacs.008'],
      want: 'nearest: POST /messages/pacs.008 (pacs008.send)',
    },
    { given: 'a method the path lacks', args: ['core-banking', 'DELETE', '/fee-rules'], want: /nearest: (GET|POST) \/fee-rules/ },
  ])('suggests the nearest operations for an unknown path: $given', async ({ args, want }) => {
    const run = await validate(...args, 'request', join(scratch, 'none.json'));
    expect(run.code).toBe(2);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(new RegExp(`^contrato: no operation ${args[1]} ${args[2]} in ${args[0]}; `));
    if (typeof want === 'string') expect(run.err[0]).toContain(want);
    else expect(run.err[0]).toMatch(want);
  });
});
