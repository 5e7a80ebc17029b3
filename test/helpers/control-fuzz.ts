/**
 * Random control-plane calls for the property test of the control plane (test/sandbox/control-plane-property
 * .test.ts): every verb of every module and the generic ones (clock, faults, resend, reset), each member
 * drawn from values the contract accepts, values it refuses (too long, badly formatted, unknown codes,
 * wrong types) and members no verb takes, aimed at the resources the test created. Drawn from a seeded
 * generator (test/helpers/seeded.ts), so a seed replays the same calls.
 */

/** What the test created for the verbs to act on. */
export interface ControlWorld {
  readonly cobs: readonly string[];
  readonly cobvs: readonly string[];
  readonly recs: readonly string[];
  readonly solicrecs: readonly string[];
  readonly cobrs: readonly string[];
  readonly accountInvoices: readonly number[];
  readonly wallets: readonly string[];
  readonly orders: readonly string[];
  readonly onboardings: readonly string[];
  readonly coreInvoices: readonly number[];
  readonly coreAccountId: number;
  /** A pacs.008 the messages sandbox accepts. */
  readonly payment: () => Record<string, unknown>;
}

export interface ControlCall {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

type Random = () => number;

/** Whatever JSON a member could be given. */
const anything: readonly unknown[] = [null, true, 0, -1, 1.5, 1e21, 'text', '', [], {}, { nested: 'x'.repeat(300) }];

export function controlFuzzer(random: Random, world: ControlWorld) {
  const integer = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[integer(0, list.length - 1)]!;
  const chance = (p: number): boolean => random() < p;

  /** Text of a random length and alphabet: letters, accents, emoji, control characters, a lone surrogate. */
  const text = (): string => {
    const alphabet = pick(['abc xyz', 'çãéõ ÁÉ', '😀👍', '\u0000\u001f\u007f', '\ud800', '<>&"\'\\/']);
    const length = pick([0, 1, 4, 5, 77, 78, 139, 140, 141, 400, 401, 5000, integer(0, 300)]);
    return Array.from({ length }, () => pick([...alphabet])).join('');
  };
  const textAmounts = ['10.50', '0.01', '25.90', '9999999999.99', '12345678901.00', '1.999', '-1.00', '0.00', '1e3', ' 1.00', ''];
  const numberAmounts = [10, 0.01, 249.9, 99_999_999.99, 100_000_000, -5, 0, 1.234, 1e21, 2 ** 53];

  /** A member's value: mostly one the contract accepts, often one it refuses, sometimes anything at all. */
  const value = (valid: readonly unknown[], hostile: readonly unknown[]): unknown => {
    const draw = random();
    return draw < 0.55 ? pick(valid) : draw < 0.9 ? pick(hostile) : pick(anything);
  };
  /** A body of the members given, each left out now and then, and a member no verb takes once in a while. */
  const body = (members: Record<string, () => unknown>, required: readonly string[] = []): Record<string, unknown> => {
    const built: Record<string, unknown> = {};
    for (const [name, draw] of Object.entries(members)) if (required.includes(name) || chance(0.7)) built[name] = draw();
    if (chance(0.08)) built[pick(['extra', 'infoPagadr', 'valorr', '__proto__x'])] = pick(anything);
    return built;
  };
  const idOf = <T>(known: readonly T[], unknown: readonly unknown[]): unknown =>
    known.length > 0 && chance(0.85) ? pick(known) : pick(unknown);

  const verbs: readonly (() => ControlCall)[] = [
    () => ({
      path: '/pix/pay',
      body: body(
        {
          txid: () => idOf([...world.cobs, ...world.cobvs], ['nada', 42]),
          valor: () => value(textAmounts.slice(0, 4), [...textAmounts.slice(4), ...numberAmounts]),
          infoPagador: () => value(['obrigado', 'Pedido 0087', 'x'.repeat(140)], [text(), text(), 42]),
        },
        ['txid'],
      ),
    }),
    () => ({
      path: '/pix/keys',
      body: body({ add: () => value(['novachave@example.com', '+5511999998888', '52998224725'], [text(), `${'a'.repeat(70)}@x.com`, 7]) }),
    }),
    () => ({
      path: '/pix/rec',
      body: body(
        {
          idRec: () => idOf(world.recs, ['RR9999901020260101abcdefghijk', 12]),
          status: () => value(['APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'], ['ATIVA', 'x']),
          jornada: () => value(['JORNADA_2', 'JORNADA_3', 'JORNADA_4'], ['JORNADA_1', 'AGUARDANDO_DEFINICAO', text()]),
          codigo: () => value(['AP13', 'AP14', 'SLDB', 'ACCL'], ['SLCR', 'ZZZZ', 'TOOLONG', text()]),
        },
        ['idRec', 'status'],
      ),
    }),
    () => ({
      path: '/pix/solicrec',
      body: body(
        {
          idSolicRec: () => idOf(world.solicrecs, ['SC9999901020260101abcdefghijk']),
          status: () => value(['ENVIADA', 'RECEBIDA', 'ACEITA', 'REJEITADA'], ['CANCELADA', 'x']),
          codigo: () => value(['AP13', 'AP14'], ['AP15', text()]),
        },
        ['idSolicRec', 'status'],
      ),
    }),
    () => ({
      path: '/pix/cobr',
      body: body(
        {
          txid: () => idOf(world.cobrs, ['nada']),
          status: () => value(['AGENDADA', 'PAGA', 'REJEITADA', 'EXPIRADA'], ['CONCLUIDA', 'x']),
          codigo: () => value(['AM02', 'AC05', 'AB10', 'MSUC'], ['MD06', 'XXXX', 'LONGER', text()]),
        },
        ['txid', 'status'],
      ),
    }),
    () => ({ path: pick(['/pix/account', '/pix/state', '/pix-location/jwks']), body: body({}) }),
    () => ({
      path: '/accounts/receive',
      body: body({
        amount: () => value(numberAmounts.slice(0, 4), numberAmounts.slice(4)),
        accountId: () => value([1001], [9999, 'x']),
        payerName: () => value(['Carlos Eduardo Lima', 'Zé'], [text(), 42]),
        remittanceInformation: () => value(['Pedido 10482', null], [text(), 42]),
      }),
    }),
    () => ({
      path: '/accounts/billet',
      body: body({
        amount: () => value([0, 10, 99_999_999.99], [100_000_000, -1]),
        dueInDays: () => value([0, 10, -5, 3000], [3001, 1.5]),
      }),
    }),
    () => ({ path: '/accounts/otp', body: body({ key: () => value(['cliente@example.com'], [text()]) }) }),
    () => ({
      path: '/accounts/payment',
      body: body({ idempotencyKey: () => value(['int0001'], [text()]), approve: () => value([true, false], ['yes']) }),
    }),
    () => ({
      path: '/accounts/payInvoice',
      body: body({ invoiceId: () => idOf(world.accountInvoices, [999_999, 'x']), via: () => value(['PIX', 'BOLETO'], ['CASH']) }, [
        'invoiceId',
      ]),
    }),
    () => ({ path: '/accounts/verifyWallet', body: body({ walletId: () => idOf(world.wallets, ['nada']) }, ['walletId']) }),
    () => ({
      path: pick(['/accounts/approveOrder', '/accounts/settleOrder', '/accounts/rejectOrder']),
      body: body({ orderId: () => idOf(world.orders, ['nada']) }, ['orderId']),
    }),
    () => ({
      path: '/accounts/rejectOrder',
      body: body({ orderId: () => idOf(world.orders, ['nada']), reason: () => value(['Fora da política', null], [text(), 42]) }, [
        'orderId',
      ]),
    }),
    () => ({
      path: '/accounts/onboardingStatus',
      body: body({ id: () => idOf(world.onboardings, ['nada']), status: () => value([0, 1, 2, 3, 4], [5, -1, 1.5, '1']) }, ['id']),
    }),
    () => ({
      path: pick(['/core-banking/payInvoice', '/core-banking/register']),
      body: body({ invoiceId: () => idOf(world.coreInvoices, [999_999]) }, ['invoiceId']),
    }),
    () => ({ path: '/core-banking/customers', body: body({ accountId: () => value([world.coreAccountId], [999_999, 'x']) }) }),
    () => ({
      path: '/messages/reject',
      body: body({
        code: () => value(['AM02', 'AC03', 'AB03'], ['XX99', '', text()]),
        message: () => value(['pacs.008', 'pacs.004', 'pain.013', 'camt.055'], ['pacs.999']),
        next: () => value([1, 3], [0, 1001, 1.5]),
      }),
    }),
    () => {
      const payment = world.payment();
      const mutated = chance(0.5)
        ? payment
        : { ...payment, [pick(Object.keys(payment))]: pick([text(), -1, '12345678901.00', null]), ...(chance(0.3) ? { extra: 1 } : {}) };
      return {
        path: '/messages/receive',
        body: body({ message: () => value(['pacs.008'], ['pacs.999']), body: () => mutated }, ['message', 'body']),
      };
    },
    () => ({
      path: '/clock',
      body: body({
        advanceSeconds: () => value([0, 1, 5, 60, 3600, 86_400], [-1, 366 * 86_400 + 1, 'x']),
        speed: () => value([1], [0, -1, 100_001]),
      }),
    }),
    () => ({
      path: '/faults',
      body: body(
        {
          operationId: () => value(['cob.get', 'keys.list', 'invoices.list', '*'], ['nada.get']),
          kind: () => value(['unavailable', 'rate-limited', 'reset-after-processing', 'slow'], ['explode']),
          count: () => value([1, 2], [0, 1001, 1.5]),
          retryAfterSeconds: () => value([0, 5], [-1, 1.5, 'x']),
          delayMs: () => value([0, 5], [-1, 200_000]),
        },
        ['operationId', 'kind'],
      ),
    }),
    () => ({ path: '/reset', body: { seed: pick([42, {}, [], true]) } }),
  ];

  return {
    /** The next call; a resend of one of `deliveryIds` (or of none) now and then. */
    next(deliveryIds: readonly string[]): ControlCall {
      if (chance(0.05)) return { path: `/deliveries/${encodeURIComponent(String(idOf(deliveryIds, ['d-nada'])))}/resend`, body: {} };
      return pick(verbs)();
    },
  };
}
