/**
 * The notification bodies of the API Pix standard (`webhooks` of specs/pix): every example of the spec is
 * valid, and each schema has its valid and invalid given/want cases.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/lib.js';
import { checkPixNotification, type PixNotificationKind, pixNotificationKinds } from '../../../src/pix/notifications.js';

const bundle = JSON.parse(readFileSync(join(projectRoot, 'generated/pix/openapi.json'), 'utf8')) as {
  webhooks: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { examples: Record<string, { value: unknown }> } } } } }
  >;
};
const lines = (kind: PixNotificationKind, body: unknown) =>
  checkPixNotification(kind, body).map((issue) => `${issue.pointer}: ${issue.rule}`);

const received = { endToEndId: 'E18236120202611241432kR7mQ2xT9Lp', valor: '89.90', horario: '2026-11-24T14:32:08.214Z' };
const recurrence = {
  idRec: 'RR1314008820261105k7Q2mX9pL4a',
  status: 'APROVADA',
  atualizacao: [{ status: 'APROVADA', data: '2026-11-06T09:47:15.230Z' }],
};
const charge = {
  idRec: 'RR1314008820261105k7Q2mX9pL4a',
  txid: 'c0b7f3a91d24e6b8f0a5c7d2e9b4f61a',
  status: 'ATIVA',
  atualizacao: [{ status: 'ATIVA', data: '2026-11-20T14:09:02.511Z' }],
};

describe('Pix notification bodies', () => {
  it('the spec has the three notifications of the standard', () => {
    expect(Object.keys(bundle.webhooks).sort()).toEqual([...pixNotificationKinds].sort());
  });

  it.each(
    Object.entries(bundle.webhooks).flatMap(([kind, item]) =>
      Object.entries(item.post.requestBody.content['application/json'].examples).map(([name, example]) => ({
        kind,
        name,
        value: example.value,
      })),
    ),
  )('example $kind/$name is valid', ({ kind, value }) => {
    expect(lines(kind as PixNotificationKind, value)).toEqual([]);
  });

  it.each([
    { kind: 'pix', given: 'one Pix', body: { pix: [received] }, want: [] },
    { kind: 'pix', given: 'a Pix with an unknown member (section 9.3)', body: { pix: [{ ...received, novidade: 1 }] }, want: [] },
    { kind: 'pix', given: 'no pix list', body: {}, want: ['/pix: required'] },
    { kind: 'pix', given: 'an empty pix list', body: { pix: [] }, want: ['/pix: minItems'] },
    {
      kind: 'pix',
      given: 'a Pix without endToEndId',
      body: { pix: [{ valor: '1.00', horario: received.horario }] },
      want: ['/pix/0/endToEndId: required'],
    },
    { kind: 'pix', given: 'an amount without decimals', body: { pix: [{ ...received, valor: '89' }] }, want: ['/pix/0/valor: format'] },
    { kind: 'rec', given: 'one recurrence', body: { recs: [recurrence] }, want: [] },
    {
      kind: 'rec',
      given: 'a recurrence without its history',
      body: { recs: [{ idRec: recurrence.idRec, status: 'APROVADA' }] },
      want: ['/recs/0/atualizacao: required'],
    },
    {
      kind: 'rec',
      given: 'an idRec of 28 characters',
      body: { recs: [{ ...recurrence, idRec: recurrence.idRec.slice(1) }] },
      want: ['/recs/0/idRec: minLength', '/recs/0/idRec: format'],
    },
    {
      kind: 'rec',
      given: 'a cancellation without its code',
      body: {
        recs: [{ ...recurrence, encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', descricao: 'Plano encerrado.' } } }],
      },
      want: ['/recs/0/encerramento/cancelamento/codigo: required'],
    },
    { kind: 'cobr', given: 'one recurring charge', body: { cobsr: [charge] }, want: [] },
    {
      kind: 'cobr',
      given: 'an attempt without its endToEndId',
      body: { cobsr: [{ ...charge, tentativas: [{ dataLiquidacao: '2026-11-10', tipo: 'AGND', status: 'REJEITADA' }] }] },
      want: ['/cobsr/0/tentativas/0/endToEndId: required'],
    },
    {
      kind: 'pix',
      given: 'a refund without its status',
      body: {
        pix: [
          {
            ...received,
            devolucoes: [
              {
                id: 'DEV7731B',
                rtrId: 'D18236120202611241020a8Fj3kLm9Qw',
                valor: '20.00',
                horario: { solicitacao: '2026-11-24T10:20:11.034Z' },
              },
            ],
          },
        ],
      },
      want: ['/pix/0/devolucoes/0/status: required'],
    },
    { kind: 'cobr', given: 'a charge without txid', body: { cobsr: [{ ...charge, txid: undefined }] }, want: ['/cobsr/0/txid: required'] },
    { kind: 'cobr', given: 'the body of another kind', body: { recs: [recurrence] }, want: ['/cobsr: required'] },
  ])('$kind: $given -> $want', ({ kind, body, want }) => {
    expect(lines(kind as PixNotificationKind, JSON.parse(JSON.stringify(body)))).toEqual(want);
  });
});
