/**
 * contrato/sandbox as a user's tests use it: startSandbox hands back the address of every document and every
 * credential the definitions seed; its control client reaches every verb of the control plane and of every
 * module's table; a refusal is one line naming the verb, the status and the reason; close() leaves no port
 * listening and no timer keeping a process alive (a child that starts, works and closes exits by itself);
 * mutual TLS; and the guide's vitest suite runs as printed against this checkout's sources.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { writeDevCertificates } from '../../src/cli/dev-certs.js';
import { generateTxid } from '../../src/formats/pix.js';
import { interfaces } from '../../src/interfaces.js';
import { createPixClient, createPixNotificationHandler, type PixClient } from '../../src/pix/index.js';
import { sandboxClientOf } from '../../src/runtime/definition.js';
import {
  connectSandbox,
  type Sandbox,
  type SandboxControl,
  SandboxControlError,
  startSandbox,
  type VerbName,
} from '../../src/sandbox/index.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import { defaultSandboxCredentials } from '../../src/sandbox/tokens.js';
import { definitions } from '../helpers/interfaces.js';
import { freePort } from '../helpers/ports.js';
import { type Receiver, startReceiver } from '../helpers/sandbox.js';
import { contratoImportsOf, sandboxGuideSuite, testCountOf } from '../package/guide-suite.js';

const run = promisify(execFile);
const key = 'cobrancas@sandbox.example.com';
const charge = { calendario: { expiracao: 3600 }, valor: { original: '12.00' }, chave: key };
const seed = `library-${Date.now()}`;
let sandbox: Sandbox;
let pix: PixClient;
let receiver: Receiver;
const handled: string[] = [];
/** A Pix client of the sandbox with the credential its samples use, no retries unless a test plans them. */
const pixClient = () => createPixClient({ baseUrl: sandbox.urlOf('pix'), ...sandbox.credentialOf('pix'), retry: { maxRetries: 0 } });

beforeAll(async () => {
  console.log(`sandbox seed: ${seed}`);
  sandbox = await startSandbox({ seed, strict: true });
  pix = pixClient();
  const handler = createPixNotificationHandler({ onPix: async (paid) => void handled.push(paid.endToEndId) });
  receiver = await startReceiver((request, response) => void handler(request, response));
}, 60_000);
afterAll(async () => {
  await pix?.close();
  await receiver?.close();
  expect(sandbox?.drifts()).toEqual([]);
  await sandbox?.close();
});

/** The SandboxControlError `call` was refused with. */
async function refusal(call: Promise<unknown>): Promise<SandboxControlError> {
  const error = await call.then(
    () => expect.fail('the control plane did not refuse'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SandboxControlError);
  return error as SandboxControlError;
}

describe('what startSandbox hands back', () => {
  it('the base URL of every document of the definitions, as the control plane lists them', async () => {
    const status = await sandbox.control.status();
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Object.keys(sandbox.urls)).toEqual(interfaces.map((info) => info.name));
    for (const info of interfaces) {
      expect(sandbox.urlOf(info.name)).toBe(`${sandbox.url}${info.sandboxPrefix}`);
      expect(status.interfaces[info.name]?.url).toBe(sandbox.urls[info.name]);
    }
    expect(status.seed).toBe(seed);
  });

  it('every credential the sandbox accepts, by interface, and the one each interface samples with', async () => {
    expect(Object.values(sandbox.credentials).flat()).toEqual(expect.arrayContaining(defaultSandboxCredentials()));
    expect(Object.values(sandbox.credentials).flat()).toHaveLength(defaultSandboxCredentials().length);
    for (const definition of definitions)
      expect(sandbox.credentialOf(definition.name)).toEqual({
        clientId: sandboxClientOf(definition).clientId,
        clientSecret: 'sandbox-secret',
      });
    // The credential works: the client gets a token with it and is answered.
    expect(await pix.cob.list({ query: { inicio: '2001-01-01T00:00:00Z', fim: '2001-01-02T00:00:00Z' } })).toMatchObject({ cobs: [] });
  });

  it.each([
    {
      given: 'a document the sandbox does not serve',
      call: () => sandbox.urlOf('nothing'),
      want: /^urlOf: the sandbox serves no document nothing; it serves accounts, /,
    },
    {
      given: 'an interface that does not exist',
      call: () => sandbox.credentialOf('nothing'),
      want: /^credentialOf: no interface nothing; the interfaces are /,
    },
    {
      given: 'a credential the interface does not seed',
      call: () => sandbox.credentialOf('pix', 'someone'),
      want: /^credentialOf: pix has no credential someone; it has sandbox-pix$/,
    },
  ])('refuses $given in one line naming the known ones', ({ call, want }) => {
    expect(call).toThrow(want);
  });
});

describe('the control client reaches every verb of the control plane', () => {
  it('pay, deliveries and resend: the charge is paid, notified once, and the resend is a duplicate', async () => {
    await pix.webhook.configure({ path: { chave: key }, body: { webhookUrl: `${receiver.url}/hooks` } });
    const txid = generateTxid();
    await pix.cob.replace({ path: { txid }, body: charge });
    const paid = await sandbox.control.pay(txid, { infoPagador: 'obrigado' });
    expect(paid).toMatchObject({ pix: { txid, valor: '12.00', infoPagador: 'obrigado' }, cob: { txid, status: 'CONCLUIDA' } });
    await vi.waitFor(() => expect(handled).toContain(paid.pix.endToEndId), { timeout: 5000 });
    const delivery = (await sandbox.control.deliveries()).find((each) => each.state === 'delivered');
    expect(delivery).toBeDefined();
    await sandbox.control.resend(delivery!.id);
    await vi.waitFor(
      async () => expect((await sandbox.control.deliveries()).find((each) => each.id === delivery!.id)?.attempts).toHaveLength(2),
      { timeout: 5000 },
    );
    expect(handled.filter((each) => each === paid.pix.endToEndId)).toHaveLength(1);
  });

  it('clock: the sandbox clock moves forward by the seconds asked, and speed is taken', async () => {
    const before = Date.parse((await sandbox.control.status()).clock);
    const moved = Date.parse((await sandbox.control.clock(120, { speed: 1 })).clock);
    expect(moved - before).toBeGreaterThanOrEqual(120_000);
    expect(moved - before).toBeLessThan(180_000);
  });

  it('fault and clearFaults: the next call of the operation meets the fault, a cleared plan meets nothing', async () => {
    const txid = generateTxid();
    await pix.cob.replace({ path: { txid }, body: charge });
    const planned = await sandbox.control.fault('cob.get', 'unavailable', { count: 1, retryAfterSeconds: 0 });
    expect(planned).toMatchObject({ operationId: 'cob.get', kind: 'unavailable', remaining: 1 });
    await expect(pix.cob.get({ path: { txid } })).rejects.toMatchObject({ status: 503 });
    expect(await pix.cob.get({ path: { txid } })).toMatchObject({ txid });
    await sandbox.control.fault('cob.get', 'unavailable', { count: 5 });
    expect((await sandbox.control.status()).faults).toHaveLength(1);
    await sandbox.control.clearFaults();
    expect((await sandbox.control.status()).faults).toEqual([]);
    expect(await pix.cob.get({ path: { txid } })).toMatchObject({ txid });
  });

  it.each(sandboxModules.flatMap((module) => Object.keys(module.controls ?? {}).map((verb) => `${module.document}/${verb}` as VerbName)))(
    'call(%s) reaches the verb: it answers, or refuses naming why (never "no verb")',
    async (verb) => {
      const answered = await sandbox.control.call(verb).then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      );
      if ('answer' in answered) expect(answered.answer).toBeTypeOf('object');
      else {
        expect(answered.error).toBeInstanceOf(SandboxControlError);
        const error = answered.error as SandboxControlError;
        expect(error.verb).toBe(verb);
        expect(error.message).not.toMatch(/has no verb|no interface/);
        expect(error.message).not.toContain('\n');
      }
    },
  );

  it('reset: the state, the deliveries and the faults are back to the seeded start, on another seed when given', async () => {
    const txid = generateTxid();
    await pix.cob.replace({ path: { txid }, body: charge });
    await sandbox.control.fault('cob.get', 'slow', { delayMs: 10 });
    const status = await sandbox.control.reset(`${seed}-again`);
    expect(status).toMatchObject({ seed: `${seed}-again`, faults: [] });
    expect(await sandbox.control.deliveries()).toEqual([]);
    // The callers' sessions outlive the reset: the same client, with the token it held, finds the charge gone.
    await expect(pix.cob.get({ path: { txid } })).rejects.toMatchObject({ status: 404 });
    expect((await sandbox.control.reset()).seed).toBe(seed);
  });
});

describe('a refusal is one line naming the verb, the status and the reason', () => {
  it.each([
    {
      given: 'an unknown verb',
      call: (control: SandboxControl) => control.call('pix/nothing'),
      want: /^sandbox pix\/nothing: 404 pix has no verb nothing; known: pay, keys, /,
    },
    {
      given: 'a member the contract refuses where it lands',
      call: (control: SandboxControl) => control.pay(generateTxid(), { valor: '100000000000.00' }),
      want: /^sandbox pix\/pay: 400 pix\/pay refused, nothing stored: valor must be an amount/,
    },
    {
      given: 'a charge that does not exist',
      call: (control: SandboxControl) => control.pay(generateTxid()),
      want: /^sandbox pix\/pay: 404 no charge has the txid /,
    },
    {
      given: 'a clock moved back',
      call: (control: SandboxControl) => control.clock(-5),
      want: /^sandbox clock: 400 advanceSeconds must be/,
    },
    {
      given: 'a fault on no operation',
      call: (control: SandboxControl) => control.fault('cob.nothing', 'unavailable'),
      want: /^sandbox fault: 400 operationId must name an operation/,
    },
    {
      given: 'a resend of no delivery',
      call: (control: SandboxControl) => control.resend('nothing'),
      want: /^sandbox resend: 404 no delivered webhook nothing/,
    },
    {
      given: 'a verb named without its interface',
      call: (control: SandboxControl) => control.call('pay' as VerbName),
      want: /^sandbox pay: a verb is named <interface>\/<verb>/,
    },
  ])('$given', async ({ call, want }) => {
    const error = await refusal(call(sandbox.control));
    expect(error.message).toMatch(want);
    expect(error.message).not.toContain('\n');
  });

  it('keeps the violations of a contract refusal for a program', async () => {
    const error = await refusal(sandbox.control.pay(generateTxid(), { valor: '100000000000.00' }));
    expect(error).toMatchObject({ verb: 'pix/pay', status: 400 });
    expect(error.violations).toEqual([expect.objectContaining({ pointer: '/valor', rule: 'format', place: 'pix#Pix/valor' })]);
  });

  it('connectSandbox: a client of a sandbox started elsewhere, one line when none answers, the origin only', async () => {
    const elsewhere = connectSandbox(`${sandbox.url}/`);
    expect((await elsewhere.status()).seed).toBe(seed);
    await elsewhere.close();
    const port = await freePort();
    const nobody = connectSandbox(`http://127.0.0.1:${port}`);
    expect((await refusal(nobody.status())).message).toBe(
      `sandbox status: no sandbox answers at http://127.0.0.1:${port} (ECONNREFUSED): start one, or give its address`,
    );
    await nobody.close();
    expect(() => connectSandbox(`${sandbox.url}/_sandbox`)).toThrow(/^sandbox connect: the address must be the sandbox's origin/);
  });
});

/** Whether something accepts connections on 127.0.0.1:`port`. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('close()', () => {
  it('leaves no port listening, and may be called again', async () => {
    const other = await startSandbox();
    const port = Number(new URL(other.url).port);
    expect(await listening(port)).toBe(true);
    await other.close();
    expect(await listening(port)).toBe(false);
    await other.close();
  });

  it('leaves no timer: a process that starts it, pays, schedules resends and a refund, then closes it, exits by itself', async () => {
    const work = mkdtempSync(join(tmpdir(), 'contrato-library-exit-'));
    try {
      const script = join(work, 'start-and-close.mts');
      const source = (path: string) => JSON.stringify(join(projectRoot, path));
      writeFileSync(
        script,
        [
          `import { startSandbox } from ${source('src/sandbox/index.ts')};`,
          `import { createPixClient } from ${source('src/pix/index.ts')};`,
          `const sandbox = await startSandbox({ speed: 1 });`,
          `const pix = createPixClient({ baseUrl: sandbox.urlOf('pix'), ...sandbox.credentialOf('pix') });`,
          // A receiver that is not there: the delivery fails and its resends are scheduled on the clock.
          `await pix.webhook.configure({ path: { chave: ${JSON.stringify(key)} }, body: { webhookUrl: 'http://127.0.0.1:${await freePort()}/hooks' } });`,
          `await pix.cob.replace({ path: { txid: 'exit0000000000000000000000000001' }, body: ${JSON.stringify(charge)} });`,
          `const { pix: paid } = await sandbox.control.pay('exit0000000000000000000000000001');`,
          `await pix.pixRefund.request({ path: { e2eid: paid.endToEndId, id: 'devolucao01' }, body: { valor: '1.00' } });`,
          `await sandbox.control.fault('cob.get', 'slow', { delayMs: 60000 });`,
          `await pix.close();`,
          `await sandbox.close();`,
          `console.log('closed');`,
        ].join('\n'),
      );
      const started = Date.now();
      const { stdout, stderr } = await run(process.execPath, ['--import', import.meta.resolve('tsx'), script], {
        cwd: work,
        timeout: 45_000,
      });
      expect({ stdout, stderr }).toEqual({ stdout: 'closed\n', stderr: '' });
      expect(Date.now() - started).toBeLessThan(45_000);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('mutual TLS', () => {
  it('serves HTTPS to callers with a certificate of its CA, the control client presenting the one it is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'contrato-library-tls-'));
    const file = (name: string) => readFileSync(join(dir, name));
    try {
      writeDevCertificates(dir);
      const secure = await startSandbox({
        tls: {
          cert: file('server.pem'),
          key: file('server-key.pem'),
          ca: file('dev-ca.pem'),
          client: { cert: file('participant.pem'), key: file('participant-key.pem') },
        },
      });
      try {
        expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        expect((await secure.control.status()).seed).toBe('contrato');
        // A caller without a certificate is refused in the handshake.
        await expect(fetch(`${secure.url}/_sandbox`)).rejects.toThrow();
      } finally {
        await secure.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the sandbox guide's vitest suite", () => {
  it('imports only contrato subpaths the package exports', () => {
    const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const subpaths = contratoImportsOf(sandboxGuideSuite().code).map((name) => `.${name.slice('contrato'.length)}`);
    expect(subpaths).toContain('./sandbox');
    expect(subpaths.filter((subpath) => !(subpath in manifest.exports))).toEqual([]);
  });

  it("runs as printed with vitest, contrato's subpaths leading to this checkout's sources", async () => {
    const suite = sandboxGuideSuite();
    const work = mkdtempSync(join(tmpdir(), 'contrato-guide-suite-'));
    try {
      mkdirSync(join(work, 'node_modules'));
      symlinkSync(join(projectRoot, 'node_modules/vitest'), join(work, 'node_modules/vitest'));
      const aliases = Object.fromEntries(
        contratoImportsOf(suite.code).map((name) => [name, join(projectRoot, 'src', name.slice('contrato'.length), 'index.ts')]),
      );
      writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'guide-suite', private: true, type: 'module' }));
      writeFileSync(join(work, 'vitest.config.mjs'), `export default { resolve: { alias: ${JSON.stringify(aliases)} } };\n`);
      writeFileSync(join(work, suite.file), suite.code);
      const vitest = join(projectRoot, 'node_modules/vitest/vitest.mjs');
      const { stdout } = await run(process.execPath, [vitest, 'run', suite.file], { cwd: work, timeout: 100_000 });
      // Colours stripped: the child inherits the parent's colour settings.
      const count = testCountOf(suite.code);
      expect(count).toBeGreaterThan(0);
      expect(stripVTControlCharacters(stdout)).toMatch(new RegExp(`Tests\\s+${count} passed \\(${count}\\)`));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});
