/**
 * Redaction of what clients log and what errors carry: CPF/CNPJ masked in every written form, secrets
 * scrubbed in every encoding they travel in, at any depth, and validation messages that never quote
 * document digits.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ajvFormats } from '../../src/formats/registry.js';
import { maskDocuments, redact } from '../../src/runtime/logging.js';
import { check } from '../../src/runtime/validation.js';

const cpf = '39053344705';
const privateKeyPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const privateKeyBody = privateKeyPem
  .split('\n')
  .filter((line) => line && !line.startsWith('-----'))
  .join('');

describe('maskDocuments', () => {
  it.each([
    { given: 'CPF 39053344705 in text', want: 'CPF ***.533.447-** in text' },
    { given: 'CPF 390.533.447-05 in text', want: 'CPF ***.533.447-** in text' },
    { given: 'CPF 390533447-05, partly punctuated', want: 'CPF ***.533.447-**, partly punctuated' },
    { given: 'zeros 000.000.000-00.', want: 'zeros ***.000.000-**.' },
    { given: 'CNPJ 11222333000181', want: 'CNPJ 11.222.333/****-**' },
    { given: 'CNPJ 11.222.333/0001-81 in text', want: 'CNPJ 11.222.333/****-** in text' },
    { given: 'zeros 00.000.000/0000-00.', want: 'zeros 00.000.000/****-**.' },
    { given: 'alphanumeric 12ABC34501DE35', want: 'alphanumeric 12.ABC.345/****-**' },
    { given: 'alphanumeric 12.ABC.345/01DE-35 punctuated', want: 'alphanumeric 12.ABC.345/****-** punctuated' },
    // Punctuation makes the shape unmistakable: masked whatever its check digits.
    { given: 'typo 11.222.333/0001-99', want: 'typo 11.222.333/****-**' },
    { given: '{"a":"390.533.447-05","b":"11.222.333/0001-81"}', want: '{"a":"***.533.447-**","b":"11.222.333/****-**"}' },
    { given: 'not a cnpj ABCDEFGHIJKL99', want: 'not a cnpj ABCDEFGHIJKL99' },
    { given: 'phone +5511987654321', want: 'phone +5511987654321' },
    { given: 'version 1.2.3-4 and date 2026-11-21', want: 'version 1.2.3-4 and date 2026-11-21' },
  ])('$given -> $want', ({ given, want }) => expect(maskDocuments(given)).toBe(want));
});

/** A value `levels` objects deep whose innermost object is `leaf`. */
function nested(levels: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let value: Record<string, unknown> = leaf;
  for (let level = 0; level < levels; level += 1) value = { level, child: value };
  return value;
}

function innermost(value: unknown): Record<string, unknown> {
  let current = value as Record<string, unknown>;
  while (typeof current.child === 'object' && current.child !== null) current = current.child as Record<string, unknown>;
  return current;
}

describe('redact', () => {
  it.each([
    { given: 'shallow', levels: 1 },
    { given: 'just past the old depth limit', levels: 9 },
    { given: 'deep', levels: 50 },
    // Deeper than any recursion would go: redaction is iterative.
    { given: 'very deep', levels: 20_000 },
  ])('masks and scrubs at any depth: $given', ({ levels }) => {
    const redacted = innermost(
      redact(nested(levels, { document: cpf, client_secret: 'short', note: 'token tok-12345678' }), { secrets: ['tok-12345678'] }),
    );
    expect(redacted).toEqual({ document: '***.533.447-**', client_secret: '[redacted]', note: 'token [redacted]' });
  });

  it('replaces a cycle by a placeholder, without hanging or throwing; a shared value is not a cycle', () => {
    const shared = { document: cpf };
    const cyclic: Record<string, unknown> = { shared, again: shared, list: [] as unknown[] };
    cyclic.self = cyclic;
    (cyclic.list as unknown[]).push(cyclic, shared);
    const redacted = redact(cyclic) as Record<string, unknown>;
    expect(redacted).toEqual({
      shared: { document: '***.533.447-**' },
      again: { document: '***.533.447-**' },
      list: ['[circular]', { document: '***.533.447-**' }],
      self: '[circular]',
    });
    expect(() => JSON.stringify(redacted)).not.toThrow();
  });

  it.each([
    { given: 'a document as a number', value: { n: 39053344705 }, want: { n: '***.533.447-**' } },
    { given: 'an ordinary number', value: { ms: 1234, at: 1_763_000_000_000 }, want: { ms: 1234, at: 1_763_000_000_000 } },
    {
      given: 'masking off',
      value: { n: 39053344705, s: '390.533.447-05' },
      options: { maskDocuments: false },
      want: { n: 39053344705, s: '390.533.447-05' },
    },
  ])('$given', ({ value, options, want }) => expect(redact(value, options)).toEqual(want));

  const oddSecret = 'p@ss "word"/with\\odd&chars+é';
  it.each([
    { given: 'as it is', text: `secret ${oddSecret} here`, want: 'secret [redacted] here' },
    {
      given: 'JSON-escaped (a JSON body echoed as text)',
      text: `{"client_secret":${JSON.stringify(oddSecret)}}`,
      want: '{"client_secret":"[redacted]"}',
    },
    { given: 'URI-encoded', text: `u=${encodeURIComponent(oddSecret)}`, want: 'u=[redacted]' },
    { given: 'form-encoded', text: new URLSearchParams({ u: oddSecret }).toString(), want: 'u=[redacted]' },
  ])('scrubs a known secret written $given', ({ text, want }) => expect(redact(text, { secrets: [oddSecret] })).toBe(want));

  it.each([
    { given: 'Authorization: Basic Y2xpZW50LTE6c2VjcmV0LXZhbHVl', want: 'Authorization: Basic [redacted]' },
    { given: 'authorization=Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln', want: 'authorization=Bearer [redacted]' },
    { given: 'Basic information and Bearer authentication', want: 'Basic information and Bearer authentication' },
    { given: `key:\n${privateKeyPem}end`, want: 'key:\n[redacted private key]\nend' },
    // Cut short (a truncated message): still a key.
    { given: `key: ${privateKeyPem.slice(0, 60)}`, want: 'key: [redacted private key]' },
    // JSON held in text (a body echoed as text): members named like credentials, as in an object.
    { given: '{"client_secret":"abc","name":"x"}', want: '{"client_secret":"[redacted]","name":"x"}' },
    { given: '{"password" : "a\\"b\\\\", "n": 1}', want: '{"password" : "[redacted]", "n": 1}' },
    { given: 'got {"token":"abcd...', want: 'got {"token":"[redacted]' },
    { given: '{"token": 5, "note": "token"}', want: '{"token": 5, "note": "token"}' },
  ])('scrubs credentials recognisable in text: $given', ({ given, want }) => expect(redact(given)).toBe(want));
});

describe('validation messages never carry document digits', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajvFormatsPlugin.default(ajv);
  for (const [name, predicate] of Object.entries(ajvFormats)) ajv.addFormat(name, predicate);
  const validate = ajv.compile({
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 5 },
      count: { type: 'integer', maximum: 9 },
      document: { type: 'string', format: 'cpf' },
      payer: { type: 'string' },
    },
  });

  it.each([
    { given: 'a CPF in a value quoted whole', data: { name: `CPF ${cpf}` }, leaks: [cpf, '390533'] },
    { given: 'a punctuated CPF', data: { name: 'CPF 390.533.447-05' }, leaks: ['390.533.447-05', '390.533'] },
    // The quote is cut at 60 characters: masking after the cut would leave the first nine digits.
    { given: 'a CPF where the quote is cut', data: { name: `${'y'.repeat(46)} ${cpf} tail` }, leaks: ['390533447', '39053'] },
    { given: 'an invalid CPF', data: { document: '52998224724' }, leaks: ['52998224724', '529982'] },
    { given: 'a CPF as a number', data: { count: 39053344705 }, leaks: [cpf, '390533'] },
    {
      given: 'a CNPJ and a CPF inside an object',
      data: { payer: { cnpj: '11.222.333/0001-81', nested: { cpf } } },
      leaks: ['0001-81', '00018', cpf],
    },
    {
      given: 'secrets inside an object',
      data: { payer: { auth: { client_secret: 'cs-live-0123456789', key: privateKeyPem } } },
      leaks: ['cs-live-0123456789', privateKeyBody.slice(16, 32)],
    },
    { given: 'a private key', data: { name: privateKeyPem }, leaks: [privateKeyBody.slice(0, 16), privateKeyBody.slice(16, 32)] },
  ])('$given', ({ data, leaks }) => {
    const issues = check(validate, data, '/body');
    expect(issues.length).toBeGreaterThan(0);
    const rendered = JSON.stringify(issues);
    for (const leak of leaks) expect(rendered).not.toContain(leak);
  });

  it('keeps the masked document, so the message still says what was wrong', () => {
    expect(check(validate, { document: '52998224724' }).map((issue) => [issue.message, issue.value])).toEqual([
      [
        'must be a CPF: 11 digits with valid check digits: the CPF check digits do not match (format cpf; got "***.982.247-**")',
        '***.982.247-**',
      ],
    ]);
  });
});
