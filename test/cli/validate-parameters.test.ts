/**
 * `contrato validate` beyond bodies: the query string of the path and `--header` values of a request, an
 * operation without a body, and a response's problem (its status and declared type) and `--strict` mode.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';

function contrato(args: string[], input?: unknown) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), 'validate', ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    input: input === undefined ? '' : JSON.stringify(input),
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, lines: run.stderr.trimEnd().split('\n').filter(Boolean) };
}

const pixBundle = JSON.parse(readFileSync(join(projectRoot, 'generated/pix/openapi.json'), 'utf8')) as {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { examples: Record<string, { value: unknown }> }> }> }>
  >;
};
/** A charge as the API Pix answers it, from the spec's own example. */
const charge = pixBundle.paths['/cob/{txid}']!.get!.responses['200']!.content['application/json']!.examples.paid!.value as Record<
  string,
  unknown
>;
const txid = String(charge.txid);
const window = 'inicio=2026-11-01T00:00:00Z&fim=2026-11-02T00:00:00Z';
const problem = (type: string, status: number) => ({ type: `https://pix.example.com/api/v2/error/${type}`, title: 'Erro', status });

describe('contrato validate: a request is its path, query, headers and body', () => {
  it.each([
    { given: 'a list query within its window, no body', args: ['pix', 'GET', `/cob?${window}`, 'request'], want: 0, lines: [] },
    {
      given: 'a list without its required window',
      args: ['pix', 'GET', '/cob', 'request'],
      want: 1,
      lines: ['/query/fim: is required', '/query/inicio: is required'],
    },
    {
      given: 'a query parameter the operation does not take',
      args: ['pix', 'GET', `/cob?${window}&pagina=2`, 'request'],
      want: 1,
      lines: ['/query/pagina: is not a field the spec lists here: remove it, or check its spelling (additionalProperties; got "2")'],
    },
    {
      given: 'a window that ends before it starts (a rule across two parameters)',
      args: ['pix', 'GET', '/cob?inicio=2026-11-02T00:00:00Z&fim=2026-11-01T00:00:00Z', 'request'],
      want: 1,
      lines: [/^\/query\/fim: .*inicio/],
    },
    {
      given: 'a number parameter written as a number',
      args: ['pix', 'GET', `/cob?${window}&paginacao.paginaAtual=0`, 'request'],
      want: 0,
      lines: [],
    },
    {
      given: 'an account header that is not a number',
      args: ['accounts', 'GET', '/accounts/keys', 'request', '--header', 'x-account-id:abc'],
      want: 1,
      lines: ['/header/x-account-id: must be a whole number (type; got "abc")'],
    },
    {
      given: 'an account header that is a number',
      args: ['accounts', 'GET', '/accounts/keys', 'request', '--header', 'x-account-id:48213'],
      want: 0,
      lines: [],
    },
  ])('$given -> exit $want', ({ args, want, lines }) => {
    const run = contrato(args);
    expect(run.code).toBe(want);
    if (want === 0) expect(run.stdout.trim()).toBe('valid');
    for (const [index, line] of lines.entries()) expect(run.lines[index]).toMatch(line);
    expect(run.lines).toHaveLength(lines.length);
  });

  it('a required header the caller must give is reported when missing; the idempotency key the client fills is not', () => {
    const payer = contrato(['messages', 'POST', '/dict/qrcode/lookup', 'request', '-'], {});
    expect(payer.lines).toContain('/header/svc-payerid: is required');
    const named = contrato(['messages', 'POST', '/dict/qrcode/lookup', 'request', '-', '--header', 'SVC-PayerId: 79803432559'], {});
    expect(named.lines.filter((line) => line.startsWith('/header/'))).toEqual([]);
    const fee = contrato(['core-banking', 'POST', '/fee-rules', 'request', '-'], {
      name: 'Tarifa Pix',
      percent: 0.99,
      minAmount: 0.5,
      maxAmount: 15,
    });
    expect(fee.code, fee.stderr).toBe(0);
  });

  it.each([
    {
      given: '--header without a colon',
      args: ['accounts', 'GET', '/accounts/keys', 'request', '--header', 'x-account-id'],
      want: /--header takes name:value/,
    },
    { given: '--strict on a request', args: ['pix', 'GET', `/cob?${window}`, 'request', '--strict'], want: /--strict checks a response/ },
    {
      given: '--header on a response',
      args: ['pix', 'GET', `/cob/${txid}`, 'response:200', '--header', 'a:b'],
      want: /--header goes with a request/,
    },
    {
      given: 'a query string on a response',
      args: ['pix', 'GET', `/cob?${window}`, 'response:200'],
      want: /query string goes with a request/,
    },
  ])('$given -> exit 2', ({ args, want }) => {
    const run = contrato(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(want);
  });
});

describe('contrato validate: a problem answer says its own status and a type its operation declares', () => {
  it.each([
    { given: 'the operation’s own 404 type', status: '404', body: problem('CobNaoEncontrado', 404), want: 0, lines: [] },
    {
      given: 'the 404 type of another operation',
      status: '404',
      body: problem('CobVNaoEncontrada', 404),
      want: 1,
      lines: [
        '/type: names the error type CobVNaoEncontrada, which cob.get does not answer with 404; it declares CobNaoEncontrado, NaoEncontrado for 404',
      ],
    },
    {
      given: 'a body status that differs from the HTTP status',
      status: '404',
      body: problem('CobNaoEncontrado', 400),
      want: 1,
      lines: ["/status: is 400, but the answer's HTTP status is 404: a problem's status repeats the HTTP status (RFC 9457)"],
    },
    { given: 'the operation’s own 400 type', status: '400', body: problem('CobConsultaInvalida', 400), want: 0, lines: [] },
    {
      given: 'a 400 typed as another family’s error',
      status: '400',
      body: problem('CobPayloadOperacaoInvalida', 400),
      want: 1,
      lines: [/^\/type: names the error type CobPayloadOperacaoInvalida, which cob.get does not answer with 400/],
    },
  ])('$given -> exit $want', ({ status, body, want, lines }) => {
    const run = contrato(['pix', 'GET', `/cob/${txid}`, `response:${status}`, '-'], body);
    expect(run.code, run.stderr).toBe(want);
    expect(run.lines).toHaveLength(lines.length);
    for (const [index, line] of lines.entries()) expect(run.lines[index]).toMatch(line);
  });
});

describe('contrato validate --strict: a response as its provider must send it', () => {
  it.each([
    { given: 'the spec’s example', body: charge, strict: true, want: 0, lines: [] },
    { given: 'a member the spec does not list (tolerated by a client)', body: { ...charge, bonus: 1 }, strict: false, want: 0, lines: [] },
    {
      given: 'a member the spec does not list',
      body: { ...charge, bonus: 1 },
      strict: true,
      want: 1,
      lines: ['/bonus: is not a field the spec lists here: remove it, or check its spelling (unevaluatedProperties; got 1)'],
    },
    {
      given: 'a nested member the spec does not list',
      body: { ...charge, calendario: { ...(charge.calendario as object), fuso: 'BRT' } },
      strict: true,
      want: 1,
      lines: [/^\/calendario\/fuso: is not a field the spec lists here/],
    },
    {
      given: 'a status the client must tolerate (section 9.3)',
      body: { ...charge, status: 'EM_ANALISE' },
      strict: false,
      want: 0,
      lines: [],
    },
    {
      given: 'a status outside the known values',
      body: { ...charge, status: 'EM_ANALISE' },
      strict: true,
      want: 1,
      lines: [
        /^\/status: must be one of "ATIVA", "CONCLUIDA", "REMOVIDA_PELO_USUARIO_RECEBEDOR", "REMOVIDA_PELO_PSP" \(enum; got "EM_ANALISE"\)$/,
      ],
    },
  ])('$given (strict: $strict) -> exit $want', ({ body, strict, want, lines }) => {
    const run = contrato(['pix', 'GET', `/cob/${txid}`, 'response:200', '-', ...(strict ? ['--strict'] : [])], body);
    expect(run.code, run.stderr).toBe(want);
    expect(run.lines).toHaveLength(lines.length);
    for (const [index, line] of lines.entries()) expect(run.lines[index]).toMatch(line);
  });
});

describe('contrato validate pix-notification', () => {
  const paid = { pix: [{ endToEndId: 'E18236120202611241432kR7mQ2xT9Lp', valor: '89.90', horario: '2026-11-24T14:32:08.214Z' }] };
  it.each([
    { given: 'a Pix notification', args: ['pix-notification', 'pix', '-'], body: paid, want: 0, lines: [] },
    {
      given: 'a Pix without its amount',
      args: ['pix-notification', 'pix', '-'],
      body: { pix: [{ ...paid.pix[0], valor: undefined }] },
      want: 1,
      lines: ['/pix/0/valor: is required'],
    },
    {
      given: 'a Pix body read as a recurrence notification',
      args: ['pix-notification', 'rec', '-'],
      body: paid,
      want: 1,
      lines: ['/recs: is required'],
    },
  ])('$given -> exit $want', ({ args, body, want, lines }) => {
    const run = contrato(args, body);
    expect(run.code, run.stderr).toBe(want);
    expect(run.lines).toEqual(lines);
  });

  it('names the known kinds for an unknown one (exit 2)', () => {
    const run = contrato(['pix-notification', 'cob']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown notification "cob"; known: pix, rec, cobr/);
  });
});
