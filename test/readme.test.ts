/**
 * The README's examples, run as a user would copy them: each `<!-- readme-example: name -->` block is
 * written to a file (imports of `contrato/…` pointed at this checkout, the mock ports at mocks this test
 * started on ephemeral ports) and run in its own process; it must exit 0 and print what it says.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../scripts/lib.js';
import { startMock, type RunningServer } from '../src/cli/servers.js';
import { interfaces } from '../src/interfaces.js';
import { createTestPki, type TestPki } from './helpers/certificates.js';
import { freePort } from './helpers/ports.js';

const run = promisify(execFile);
const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
const examples = [...readme.matchAll(/<!-- readme-example: ([a-z-]+) -->\n```ts\n([\s\S]*?)```/g)].map((match) => ({ name: match[1]!, code: match[2]! }));
const scratch = join(projectRoot, 'test-artifacts/readme');
const mockUrls = new Map<number, string>();
const mocks: RunningServer[] = [];
let pki: TestPki;

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true });
  pki = createTestPki();
  for (const info of interfaces.filter((i) => i.name !== 'pix-location')) {
    const mock = await startMock(info.name, await freePort());
    mocks.push(mock);
    mockUrls.set(info.mockPort, mock.url);
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(mocks.map((mock) => mock.stop()));
  pki?.dispose();
});

/** The example as a module of this checkout: package imports to source files, documented ports to the test's mocks. */
function localized(code: string): string {
  return code
    .replace(/from 'contrato\/([a-z-]+)'/g, (_m, subpath: string) => `from '${join(projectRoot, 'src', subpath, 'index.js')}'`)
    .replace(/http:\/\/127\.0\.0\.1:(\d{4})/g, (original, port: string) => mockUrls.get(Number(port)) ?? original);
}

describe('README examples', () => {
  it('has one for each interface and for the events', () => {
    expect(examples.map((example) => example.name)).toEqual(['accounts', 'pix', 'messages', 'core-banking', 'events']);
  });

  it('type-check under the project\'s strict settings', async () => {
    for (const example of examples) writeFileSync(join(scratch, `${example.name}.mts`), localized(example.code));
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ extends: join(projectRoot, 'tsconfig.json'), compilerOptions: { noEmit: true }, include: ['*.mts'], exclude: [] }));
    const checked = await run(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', join(scratch, 'tsconfig.json')]).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(checked.stdout).toBe('');
  }, 120_000);

  it.each(examples.map((example) => [example.name, example] as const))('%s runs against the mocks', async (_name, example) => {
    const file = join(scratch, `${example.name}.mts`);
    writeFileSync(file, localized(example.code));
    const pfx = join(scratch, 'participant.pfx');
    writeFileSync(pfx, pki.clientPfx);
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', file], { cwd: projectRoot, env: { ...process.env, CONTRATO_PFX: pfx, CONTRATO_PFX_PASSPHRASE: pki.pfxPassphrase }, timeout: 60_000 });
    expect(stderr.replace(/npm warn[^\n]*\n/g, '')).toBe('');
    const want: Record<string, RegExp> = {
      accounts: /wallets on ETH: \d+\norder [0-9a-f-]{36} \w+/,
      pix: /charge \w+ \w+/,
      messages: /sent E00360305\d{12}\w{11}\n[\s\S]*received \d+ messages/,
      'core-banking': /fee rule [0-9a-f-]{36}[\s\S]*refused before sending: \/body\/name must have at least 1 character/,
      events: /paid invoice 90215\nacknowledged with 200/,
    };
    expect(stdout).toMatch(want[example.name]!);
  }, 90_000);
});
