/**
 * The titles of interface B's problems: every error type the Pix documents declare (read from the generated
 * operation tables, per status) is answered with a title written for it in Portuguese, never one made from the
 * type's name ("Lote cob voperacao invalida."); the lotecobv refusals speak of the batch.
 */
import { describe, expect, it } from 'vitest';
import { operationTable as pixTable } from '../../generated/pix/operations.js';
import { operationTable as locationTable } from '../../generated/pix-location/operations.js';
import type { OperationInfo } from '../../src/runtime/contract.js';
import { SandboxProblem } from '../../src/sandbox/contract.js';
import { pixProblemTitles, pixProblems } from '../../src/sandbox/pix/problems.js';

/** Each declared type once, with a status it is declared for: from problemTypes.byStatus, else the operation's errorTypes. */
function declaredTypes(): { type: string; status: number }[] {
  const seen = new Map<string, number>();
  for (const info of [...Object.values(pixTable), ...Object.values(locationTable)] as OperationInfo[]) {
    for (const [status, types] of Object.entries(info.problemTypes.byStatus))
      for (const type of types) if (!seen.has(type)) seen.set(type, Number(status));
    for (const type of info.errorTypes) if (!seen.has(type)) seen.set(type, 400);
  }
  return [...seen].map(([type, status]) => ({ type, status }));
}

const where = { baseUrl: 'http://127.0.0.1:4010/pix', correlationId: '00000000-0000-4000-8000-000000000000' };

describe('the title of every declared Pix error type', () => {
  const cases = declaredTypes();

  it('reads more than forty declared types from the operation tables', () => {
    expect(cases.length).toBeGreaterThan(40);
  });

  it.each(cases)('$type ($status): a Portuguese sentence written for it', ({ type, status }) => {
    const answer = pixProblems.problem(new SandboxProblem(status, type, 'detalhe'), where);
    const title = (answer.body as { title: string }).title;
    expect(pixProblemTitles[type], `no title written for ${type}`).toBe(title);
    expect(title).toMatch(/^\p{Lu}.*\.$/u);
    // No piece of the type's name left as a word ("Solic rec operacao invalida.", "Cob rnao encontrado.").
    expect(title).not.toMatch(/\b(cob|cobr|cobv|rnao|solic|rec|vconsulta|voperacao)\b/i);
    // Portuguese words, accented where Portuguese accents them.
    expect(title).not.toMatch(/\b(invalid[ao]|operacao|requisicao|nao|servico)\b/i);
  });

  it.each([
    { type: 'LoteCobVOperacaoInvalida', want: /^Lote de cobranças com vencimento/ },
    { type: 'LoteCobVNaoEncontrado', want: /^Lote de cobranças com vencimento não encontrado\.$/ },
    { type: 'LoteCobVConsultaInvalida', want: /lotes de cobranças com vencimento/ },
    { type: 'SolicRecOperacaoInvalida', want: /^Solicitação de confirmação de recorrência/ },
  ])('$type speaks of what it refuses', ({ type, want }) => {
    expect(pixProblemTitles[type]).toMatch(want);
    expect(pixProblemTitles[type]).not.toMatch(/location/i);
  });
});
