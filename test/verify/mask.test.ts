/**
 * The mask `contrato verify` applies to each exchange before storing it: credential headers, credential
 * parameters of URLs and forms, secret values anywhere, CPF/CNPJ; the exchange given stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { maskExchange, maskResult } from '../../src/verify/mask.js';
import type { CheckResult, Exchange } from '../../src/verify/model.js';

const token = 'abc.def.ghi';
const clientSecret = 's3cr3t';
const secrets = [token, clientSecret];

function exchangeWith(request: Partial<Exchange['request']>, received?: Exchange['received']): Exchange {
  return {
    request: { method: 'POST', url: 'http://127.0.0.1:4010/cob', headers: {}, ...request },
    received: received ?? { kind: 'answer', status: 201, headers: {} },
    durationMs: 42,
  };
}

describe('maskExchange: headers', () => {
  it.each([
    { given: { Authorization: `Bearer ${token}` }, want: { Authorization: '[masked]' } },
    { given: { 'PROXY-Authorization': 'Basic dXNlcjpwYXNz' }, want: { 'PROXY-Authorization': '[masked]' } },
    { given: { 'Svc-Token': 'anything' }, want: { 'Svc-Token': '[masked]' } },
    { given: { 'X-Api-Key': 'k' }, want: { 'X-Api-Key': '[masked]' } },
    { given: { Cookie: 'session=1', 'set-cookie': 'id=2' }, want: { Cookie: '[masked]', 'set-cookie': '[masked]' } },
    {
      given: { 'Content-Type': 'application/json', 'X-Request-Id': 'r-1' },
      want: { 'Content-Type': 'application/json', 'X-Request-Id': 'r-1' },
    },
    // Named like a credential but not in the list: redact replaces it as it would a member.
    { given: { 'X-Client-Secret': 'whatever' }, want: { 'X-Client-Secret': '[redacted]' } },
    { given: { 'X-Note': `echo ${token}` }, want: { 'X-Note': 'echo [redacted]' } },
    { given: { Location: 'http://cb.example/back?code=xyz&state=1' }, want: { Location: 'http://cb.example/back?code=[masked]&state=1' } },
  ])('request headers $given -> $want', ({ given, want }) => {
    expect(maskExchange(exchangeWith({ headers: given }), secrets).request.headers).toEqual(want);
  });

  it('masks the answer headers too', () => {
    const masked = maskExchange(
      exchangeWith({}, { kind: 'answer', status: 200, headers: { 'Set-Cookie': `s=${token}`, ETag: '"v1"' } }),
      secrets,
    );
    expect(masked.received).toEqual({ kind: 'answer', status: 200, headers: { 'Set-Cookie': '[masked]', ETag: '"v1"' } });
  });
});

describe('maskExchange: URL', () => {
  it.each([
    { given: 'http://h/cob?client_secret=s3cr3t&x=1', want: 'http://h/cob?client_secret=[masked]&x=1' },
    { given: 'http://h/cob?token=t1', want: 'http://h/cob?token=[masked]' },
    { given: 'http://h/cob?a=1&Access_Token=abc', want: 'http://h/cob?a=1&Access_Token=[masked]' },
    { given: 'http://h/login?user=ana&password=pw', want: 'http://h/login?user=ana&password=[masked]' },
    { given: 'http://h/cob?client%5Fsecret=s3cr3t', want: 'http://h/cob?client%5Fsecret=[masked]' },
    { given: 'http://h/cb#access_token=xyz&type=bearer', want: 'http://h/cb#access_token=[masked]&type=bearer' },
    { given: 'http://ana:pw@h/cob', want: 'http://ana:[masked]@h/cob' },
    { given: 'http://h/contas/12345678909/saldo', want: 'http://h/contas/***.456.789-**/saldo' },
    { given: `http://h/echo/${token}`, want: 'http://h/echo/[redacted]' },
    { given: 'http://h/cob?txid=abc&inicio=2026-01-01', want: 'http://h/cob?txid=abc&inicio=2026-01-01' },
  ])('$given -> $want', ({ given, want }) => {
    expect(maskExchange(exchangeWith({ url: given }), secrets).request.url).toBe(want);
  });
});

describe('maskExchange: bodies', () => {
  it.each([
    {
      given: 'a form body',
      body: `grant_type=client_credentials&client_id=app&client_secret=${clientSecret}`,
      want: 'grant_type=client_credentials&client_id=app&client_secret=[masked]',
    },
    {
      given: 'URLSearchParams',
      body: new URLSearchParams({ password: 'pw', scope: 'cob.write' }),
      want: 'password=[masked]&scope=cob.write',
    },
    {
      given: 'JSON members',
      body: { client_secret: clientSecret, devedor: { cpf: '123.456.789-09', cnpj: '11.222.333/0001-81' } },
      want: { client_secret: '[redacted]', devedor: { cpf: '***.456.789-**', cnpj: '11.222.333/****-**' } },
    },
    { given: 'JSON held in text', body: '{"password":"hunter2","n":1}', want: '{"password":"[redacted]","n":1}' },
    { given: 'a secret echoed deep', body: { a: [{ note: `got ${token}` }] }, want: { a: [{ note: 'got [redacted]' }] } },
    { given: 'a form echoed in a member', body: { raw: `client_secret=${clientSecret}&x=1` }, want: { raw: 'client_secret=[masked]&x=1' } },
    { given: 'a number that reads as a CPF', body: { documento: 12345678909 }, want: { documento: '***.456.789-**' } },
    { given: 'an ordinary body', body: { valor: '10.00', chave: 'a@b.com' }, want: { valor: '10.00', chave: 'a@b.com' } },
  ])('request body: $given', ({ body, want }) => {
    expect(maskExchange(exchangeWith({ body }), secrets).request.body).toEqual(want);
  });

  it('masks the answer body, the unparsable bytes and a no-answer message', () => {
    const answer = maskExchange(
      exchangeWith({}, { kind: 'answer', status: 500, headers: {}, body: { cnpj: '11222333000181' }, unparsable: `{"t":"${token}` }),
      secrets,
    );
    expect(answer.received).toEqual({
      kind: 'answer',
      status: 500,
      headers: {},
      body: { cnpj: '11.222.333/****-**' },
      unparsable: '{"t":"[redacted]',
    });
    const none = maskExchange(exchangeWith({}, { kind: 'no-answer', reason: 'reset', message: `socket hang up after ${token}` }), secrets);
    expect(none.received).toEqual({ kind: 'no-answer', reason: 'reset', message: 'socket hang up after [redacted]' });
  });

  it('keeps a request without body without body, and the method and duration as they were', () => {
    const masked = maskExchange(exchangeWith({ method: 'GET' }), secrets);
    expect('body' in masked.request).toBe(false);
    expect([masked.request.method, masked.durationMs]).toEqual(['GET', 42]);
  });
});

describe('maskExchange leaves its input alone; maskResult masks the reason too', () => {
  it('does not change the exchange given', () => {
    const exchange = exchangeWith({ headers: { Authorization: `Bearer ${token}` }, body: { client_secret: clientSecret } });
    const before = JSON.stringify(exchange);
    const masked = maskExchange(exchange, secrets);
    expect(JSON.stringify(exchange)).toBe(before);
    expect(JSON.stringify(masked)).not.toContain(token);
  });

  it('masks the exchanges and the reason of a result', () => {
    const result: CheckResult = {
      operationId: 'cob.create',
      kind: 'token',
      rule: 'token of pix',
      verdict: 'fail',
      reason: `expected 401, got 200 with ${token} for CPF 123.456.789-09`,
      exchanges: [exchangeWith({ headers: { authorization: `Bearer ${token}` } })],
    };
    const masked = maskResult(result, secrets);
    expect(masked.reason).toBe('expected 401, got 200 with [redacted] for CPF ***.456.789-**');
    expect(masked.exchanges[0]?.request.headers).toEqual({ authorization: '[masked]' });
    expect([masked.operationId, masked.kind, masked.rule, masked.verdict]).toEqual(['cob.create', 'token', 'token of pix', 'fail']);
  });
});
