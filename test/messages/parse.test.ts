/**
 * `parseMessage(name, value)`: a polled message read as the generated type of its name, checked by the
 * generated validator of the schema the message table names. Every named example of every message in the
 * spec parses; bad values of several messages throw a MessageValidationError (a ValidationError) naming
 * the pointer and the rule; unknown members pass as in any answer (section 9.3) unless refused; an unknown
 * name is a ConfigurationError. The result's type is checked by tsc (expectTypeOf).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../../scripts/lib.js';
import {
  ConfigurationError,
  createMessagesClient,
  type MessageName,
  type MessagePayloads,
  MessageValidationError,
  messageNames,
  messageTable,
  parseMessage,
  ValidationError,
} from '../../src/messages/index.js';
import { createTestPki } from '../helpers/certificates.js';
import { sendJson, startLoopbackServer } from '../helpers/loopback.js';

const examplesDir = join(projectRoot, 'specs/messages/examples');
const example = (message: string, name = 'minimal'): Record<string, unknown> =>
  (parse(readFileSync(join(examplesDir, message, `${name}.yaml`), 'utf8')) as { value: Record<string, unknown> }).value;

/** A failed parse's error. */
function failureOf(run: () => unknown): MessageValidationError {
  try {
    run();
  } catch (error) {
    return error as MessageValidationError;
  }
  return expect.unreachable('the parse must fail');
}

describe('parseMessage: a valid message', () => {
  const cases = messageNames.flatMap((message) =>
    readdirSync(join(examplesDir, message))
      .filter((file) => file.endsWith('.yaml'))
      .map((file) => ({ message, example: file.replace(/\.yaml$/, '') })),
  );

  it('has an example for every message of the table', () => {
    expect(new Set(cases.map((c) => c.message))).toEqual(new Set(Object.keys(messageTable)));
  });

  it.each(cases)('given the $example example of $message, want it back as it is', ({ message, example: name }) => {
    const value = example(message, name);
    expect(parseMessage(message, value)).toBe(value);
  });

  it('given a member the schema does not list, want it kept (answers are read tolerantly)', () => {
    const value = { ...example('pacs.002'), novoCampo: 'a member of a later version' };
    expect(parseMessage('pacs.002', value)).toEqual(value);
  });

  it('is typed by the message name', () => {
    const status = parseMessage('pacs.002', example('pacs.002'));
    expectTypeOf(status).toEqualTypeOf<MessagePayloads['pacs.002']>();
    expectTypeOf(status.situacaoDaTransacao).toEqualTypeOf<'ACSP' | 'RJCT'>();
    expectTypeOf(parseMessage('pain.013', example('pain.013'))).toEqualTypeOf<MessagePayloads['pain.013']>();
    expectTypeOf(parseMessage<MessageName>)
      .parameter(0)
      .toEqualTypeOf<MessageName>();
    // A name the table does not have is refused by the compiler too.
    // @ts-expect-error: not a message name
    expect(() => parseMessage('pacs.999', {})).toThrow(ConfigurationError);
  });
});

describe('parseMessage: a bad value', () => {
  const cases: { given: string; message: MessageName; value: () => unknown; want: { pointer: string; rule: string; line: RegExp } }[] = [
    {
      given: 'a pacs.002 whose end-to-end id is not one',
      message: 'pacs.002',
      value: () => ({ ...example('pacs.002'), idFimAFimOriginal: 'E123' }),
      want: { pointer: '/idFimAFimOriginal', rule: 'format', line: /^ {2}\/idFimAFimOriginal: must be .*\(format e2eid; got "E123"\)$/ },
    },
    {
      given: 'a pacs.002 with a status the schema does not list',
      message: 'pacs.002',
      value: () => ({ ...example('pacs.002'), situacaoDaTransacao: 'PDNG' }),
      want: {
        pointer: '/situacaoDaTransacao',
        rule: 'enum',
        line: /^ {2}\/situacaoDaTransacao: must be one of "ACSP", "RJCT" \(enum; got "PDNG"\)$/,
      },
    },
    {
      given: 'a pacs.008 without its amount',
      message: 'pacs.008',
      value: () => {
        const { valor: _valor, ...rest } = example('pacs.008');
        return rest;
      },
      want: { pointer: '/valor', rule: 'required', line: /^ {2}\/valor: is required$/ },
    },
    {
      given: 'a pacs.008 with a negative amount',
      message: 'pacs.008',
      value: () => ({ ...example('pacs.008'), valor: -5 }),
      want: { pointer: '/valor', rule: 'exclusiveMinimum', line: /^ {2}\/valor: must be above 0 \(exclusiveMinimum; got -5\)$/ },
    },
    {
      given: 'a pain.013 whose amount is text',
      message: 'pain.013',
      value: () => ({ ...example('pain.013'), valor: '129.90' }),
      want: { pointer: '/valor', rule: 'type', line: /^ {2}\/valor: must be a number \(type; got "129\.90"\)$/ },
    },
    {
      given: 'a dict.create-key of a key type the directory does not have',
      message: 'dict.create-key',
      value: () => ({ ...example('dict.create-key'), KeyType: 'TWITTER' }),
      want: { pointer: '/KeyType', rule: 'enum', line: /^ {2}\/KeyType: must be one of .*\(enum; got "TWITTER"\)$/ },
    },
    {
      given: 'a camt.060 without the report it asks for',
      message: 'camt.060',
      value: () => ({}),
      want: { pointer: '/tipoConsulta', rule: 'required', line: /^ {2}\/tipoConsulta: is required$/ },
    },
    {
      given: 'a pacs.002 that is not an object',
      message: 'pacs.002',
      value: () => 'ACSP',
      want: { pointer: '', rule: 'type', line: /^ {2}\/: must be an object \(type; got "ACSP"\)$/ },
    },
  ];

  it.each(cases)('given $given, want a ValidationError naming $want.pointer and $want.rule', ({ message, value, want }) => {
    const error = failureOf(() => parseMessage(message, value()));
    expect(error).toBeInstanceOf(MessageValidationError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.messageName).toBe(message);
    expect(error.issues).toContainEqual(expect.objectContaining({ pointer: want.pointer, rule: want.rule }));
    const [headline, ...lines] = error.message.split('\n');
    expect(headline).toBe(`${message}: not a valid ${message} message`);
    expect(lines.some((line) => want.line.test(line))).toBe(true);
    // An error of no call: no undefined member, nothing attempted.
    expect(error.attempts).toBe(0);
    expect(JSON.stringify(error)).not.toMatch(/undefined/);
  });

  it('given a member the schema does not list and unknownMembers: refuse, want it named', () => {
    const error = failureOf(() => parseMessage('pacs.002', { ...example('pacs.002'), extra: 1 }, { unknownMembers: 'refuse' }));
    expect(error.issues).toEqual([expect.objectContaining({ pointer: '/extra', rule: 'additionalProperties' })]);
  });

  it('given a bad value that holds a CPF, want it masked in the error', () => {
    const error = failureOf(() => parseMessage('pacs.008', { ...example('pacs.008'), cpfCnpjUsuarioRecebedor: 52998224725 }));
    expect(error.issues).toContainEqual(expect.objectContaining({ pointer: '/cpfCnpjUsuarioRecebedor', rule: 'type' }));
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('52998224725');
  });

  it('given a name the table does not know, want a ConfigurationError listing the known ones', () => {
    expect(() => parseMessage('pacs.999' as MessageName, {})).toThrow(/unknown message pacs\.999; known: pacs\.002, /);
  });
});

describe('parseMessage on what poll() yields', () => {
  it('given a batch of a pacs.002 and a broken pacs.002, want the first typed and the second refused by pointer', async () => {
    const pki = createTestPki();
    const accepted = example('pacs.002');
    const broken = { ...accepted, idFimAFimOriginal: 42 };
    const server = await startLoopbackServer((request, response) => {
      if (request.path === '/login') return sendJson(response, 200, { token: 'svc-token-Jq8Lm2Nx5Vb7' });
      response.setHeader('svc-pull-next', 'c1');
      sendJson(response, 200, [accepted, broken]);
    });
    const client = createMessagesClient({
      baseUrl: server.url,
      login: { clientId: 'spi-padaria', clientSecret: 'exchange-secret' },
      tls: { cert: pki.client.cert, key: pki.client.key },
    });
    try {
      const stop = new AbortController();
      const read: unknown[] = [];
      for await (const batch of client.poll({ signal: stop.signal })) {
        for (const message of batch.messages) {
          try {
            read.push(parseMessage('pacs.002', message).situacaoDaTransacao);
          } catch (error) {
            read.push((error as MessageValidationError).issues.map((issue) => `${issue.pointer} ${issue.rule}`));
          }
        }
        stop.abort();
      }
      expect(read).toEqual(['ACSP', ['/idFimAFimOriginal type']]);
    } finally {
      await client.close();
      await server.close();
      pki.dispose();
    }
  });
});
