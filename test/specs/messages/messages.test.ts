/**
 * Every message of interface C (section 2.12), read from its own schema file: the example files are
 * valid; a valid and an invalid case for every required member, every code list (each value valid, one
 * outside invalid), every default (absent valid, wrong type invalid), every length limit (at the limit
 * valid, one over invalid) and every pattern or format — all through the generated validators, as
 * `contrato validate messages <message>` runs them. Then the files' own rules: `$id`, `title`, names, and
 * the shared definitions identical wherever they are repeated.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { messageTable } from '../../../generated/messages/operations.js';
import { patternDescriptions, validators } from '../../../generated/messages/validators.js';
import { projectRoot } from '../../../scripts/lib.js';
import { check, type CompiledValidator } from '../../../src/runtime/validation.js';

type Schema = Record<string, any>;
const messagesDir = join(projectRoot, 'specs/messages');
const messageNames = Object.keys(messageTable);
const familyOf = (message: string): string => message.split('.')[0]!;
const schemaFile = (message: string): Schema =>
  JSON.parse(readFileSync(join(messagesDir, 'schemas', familyOf(message), `${message}.schema.json`), 'utf8')) as Schema;
const examples = (message: string): [string, Record<string, unknown>][] =>
  readdirSync(join(messagesDir, 'examples', message))
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => [
      file,
      (parse(readFileSync(join(messagesDir, 'examples', message, file), 'utf8')) as { value: Record<string, unknown> }).value,
    ]);
const fullExample = (message: string): Record<string, unknown> =>
  structuredClone((examples(message).find(([file]) => file === 'full.yaml') ?? examples(message)[0]!)[1]);

function issuesOf(message: string, document: unknown): string {
  const schema = (messageTable as Record<string, { schema: string }>)[message]!.schema;
  const validator = (validators.schemas as Record<string, CompiledValidator>)[schema]!;
  return check(validator, document, '', patternDescriptions)
    .map((issue) => `${issue.pointer || '/'}: ${issue.message}`)
    .join('\n');
}

/** A property's schema with a local `$ref` followed. */
function resolved(schema: Schema, property: Schema): Schema {
  const ref = property.$ref as string | undefined;
  return ref?.startsWith('#/$defs/')
    ? { ...(schema.$defs[ref.slice('#/$defs/'.length)] as Schema), ...property, $ref: undefined }
    : property;
}

/**
 * Members whose valid values depend on a code list (dict.create-key: the Key follows its KeyType):
 * the companions each code value needs for a valid case.
 */
const companions: Record<string, Record<string, Record<string, Record<string, unknown>>>> = {
  'dict.create-key': {
    KeyType: {
      CPF: { Key: '79803432559' },
      CNPJ: { Key: '11222333000181' },
      PHONE: { Key: '+5511987654321' },
      EMAIL: { Key: 'financeiro@padaria.com.br' },
      EVP: { Key: undefined },
    },
  },
};

interface Case {
  readonly message: string;
  readonly given: string;
  readonly document: Record<string, unknown>;
  readonly want: 'valid' | RegExp;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function casesOf(message: string): Case[] {
  const schema = schemaFile(message);
  const base = fullExample(message);
  const cases: Case[] = [];
  const withValue = (name: string, value: unknown) => ({ ...structuredClone(base), [name]: value });
  for (const name of (schema.required ?? []) as string[]) {
    const document = structuredClone(base);
    delete document[name];
    cases.push({
      message,
      given: `without ${name} (required)`,
      document,
      want: new RegExp(`${escapeRegExp(name)}.*required|required.*${escapeRegExp(name)}`),
    });
  }
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const property = resolved(schema, raw);
    const pointer = new RegExp(`^/${escapeRegExp(name)}: `, 'm');
    if (Array.isArray(property.enum)) {
      for (const value of property.enum) {
        const document = { ...withValue(name, value), ...companions[message]?.[name]?.[String(value)] };
        for (const [key, companion] of Object.entries(document)) if (companion === undefined) delete document[key];
        cases.push({ message, given: `${name} ${JSON.stringify(value)} (code list)`, document, want: 'valid' });
      }
      cases.push({ message, given: `${name} outside its code list`, document: withValue(name, 'ZZZZ'), want: pointer });
    }
    if (property.default !== undefined && !(schema.required ?? []).includes(name)) {
      const document = structuredClone(base);
      delete document[name];
      cases.push({ message, given: `${name} absent (default ${JSON.stringify(property.default)})`, document, want: 'valid' });
      cases.push({
        message,
        given: `${name} of the wrong type`,
        document: withValue(name, typeof property.default === 'string' ? 12 : 'yes'),
        want: pointer,
      });
    }
    if (property.type === 'string' && typeof property.maxLength === 'number' && !property.format && !property.pattern) {
      cases.push({
        message,
        given: `${name} of ${property.maxLength} characters`,
        document: withValue(name, 'x'.repeat(Math.max(property.maxLength, property.minLength ?? 0))),
        want: 'valid',
      });
      cases.push({
        message,
        given: `${name} of ${property.maxLength + 1} characters`,
        document: withValue(name, 'x'.repeat(property.maxLength + 1)),
        want: pointer,
      });
    }
    if (property.type === 'string' && (property.pattern || property.format)) {
      cases.push({ message, given: `${name} "!?" (${property.format ?? 'pattern'})`, document: withValue(name, '!?'), want: pointer });
    }
  }
  if (schema.additionalProperties === false)
    cases.push({
      message,
      given: 'an unknown member',
      document: { ...structuredClone(base), campoDesconhecido: 1 },
      want: /campoDesconhecido/,
    });
  return cases;
}

describe('messages of interface C, from their schema files', () => {
  it('has a schema file and examples for each of the 19 messages of section 2.12 and 4.9', () => {
    expect(messageNames.sort()).toEqual(
      [
        'camt.029',
        'camt.055',
        'camt.060',
        'dict.check-keys',
        'dict.create-key',
        'dict.fraud-marker',
        'dict.list-keys',
        'dict.qrcode-lookup',
        'dict.update-key',
        'pacs.002',
        'pacs.004',
        'pacs.008',
        'pain.009',
        'pain.011',
        'pain.012-authorization',
        'pain.012-confirmation',
        'pain.013',
        'pain.014',
        'reda.022',
      ].sort(),
    );
  });

  const exampleCases = messageNames.flatMap((message) => examples(message).map(([file, value]) => [message, file, value] as const));
  it.each(exampleCases)('%s example %s is valid', (message, _file, value) => {
    expect(issuesOf(message, value)).toBe('');
  });

  const generated = messageNames.flatMap(casesOf);
  it.each(generated.map((c) => [`${c.message}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const issues = issuesOf(c.message, c.document);
    if (c.want === 'valid') expect(issues).toBe('');
    else expect(issues).toMatch(c.want);
  });

  it.each(messageNames)('%s: $id, title and file name agree, the file is strict and self-contained', (message) => {
    const schema = schemaFile(message);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(`https://contrato.example.com/schemas/messages/${familyOf(message)}/${message}.schema.json`);
    expect(schema.title).toBe(message);
    expect(schema.additionalProperties).toBe(false);
    const refs = JSON.stringify(schema).match(/"\$ref":"[^"]*"/g) ?? [];
    expect(refs.filter((ref) => !ref.startsWith('"$ref":"#/$defs/'))).toEqual([]);
  });

  it('repeats each shared definition identically wherever it is used', () => {
    const byTitle = new Map<string, { text: string; file: string }>();
    const differing: string[] = [];
    for (const message of messageNames) {
      for (const definition of Object.values((schemaFile(message).$defs ?? {}) as Record<string, Schema>)) {
        const text = JSON.stringify(definition);
        const seen = byTitle.get(definition.title);
        if (seen && seen.text !== text) differing.push(`${definition.title}: ${seen.file} and ${message}`);
        else byTitle.set(definition.title, { text, file: message });
      }
    }
    expect(differing).toEqual([]);
  });
});
