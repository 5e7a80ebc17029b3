/**
 * The README as a user runs it: in a new folder outside the checkout, where contrato is installed (a
 * package in node_modules whose entry points are this checkout's sources, and its `contrato` bin), the
 * README's shell commands run first (`npx contrato dev-certs`), then each `<!-- readme-example -->` block,
 * exactly as printed, in its own process against a sandbox this test started on a free port (the address of
 * each interface in the variable its example reads), every answer checked strictly against the contract. Each must type-check, exit 0, print what it says and write nothing
 * on stderr. No file the README does not create is put in the folder.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../scripts/lib.js';
import { sandboxModules } from '../src/sandbox/modules.js';
import type { RunningSandbox } from '../src/sandbox/server.js';
import { addressVariableOf, describedDefinitions } from './helpers/interfaces.js';
import { installContrato, tsxLoader } from './helpers/checkout-package.js';
import { startSeeded } from './helpers/sandbox.js';

const run = promisify(execFile);
const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
const examples = [...readme.matchAll(/<!-- readme-example: ([a-z-]+) -->\n```ts\n([\s\S]*?)```/g)].map((match) => ({
  name: match[1]!,
  code: match[2]!,
}));
const shellCommands = [...readme.matchAll(/<!-- readme-shell: ([a-z-]+) -->\n```sh\n([\s\S]*?)```/g)].flatMap((match) =>
  match[2]!.split('\n').filter((line) => line.trim() !== ''),
);
/** The variables the examples read their addresses from, and the interface each one names. */
const addressVariables = Object.fromEntries(
  describedDefinitions().map((definition) => [addressVariableOf(definition.name), definition.name]),
);
const userFolder = mkdtempSync(join(tmpdir(), 'contrato-readme-'));
let sandbox: RunningSandbox;
const environment: Record<string, string> = {};

beforeAll(async () => {
  installContrato(userFolder);
  sandbox = await startSeeded('readme', sandboxModules);
  for (const [variable, name] of Object.entries(addressVariables)) environment[variable] = sandbox.urlOf(name);
}, 120_000);
afterAll(async () => {
  // Every answer the examples got is checked against the contract.
  expect(sandbox.drifts()).toEqual([]);
  await sandbox.stop();
  rmSync(userFolder, { recursive: true, force: true });
});

const userEnvironment = (): NodeJS.ProcessEnv => ({
  ...process.env,
  ...environment,
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
});

describe('README', () => {
  it('has an example for each interface and for the events, and the certificate command', () => {
    // The interfaces the interface specification describes; one it does not (a fixture's) needs no example here.
    expect(examples.map((example) => example.name)).toEqual([...describedDefinitions().map((definition) => definition.name), 'events']);
    expect(shellCommands).toEqual(['npx contrato dev-certs']);
    // Each address variable is read by an example, so the examples do reach the sandbox of this test.
    for (const variable of Object.keys(addressVariables)) expect(readme).toContain(`process.env.${variable} ??`);
  });

  it('shell commands run in a new folder and create what the examples need', async () => {
    for (const command of shellCommands) {
      const { stderr } = await run('sh', ['-c', command], { cwd: userFolder, env: userEnvironment(), timeout: 60_000 });
      expect(stderr.replace(/npm warn[^\n]*\n/g, '')).toBe('');
    }
    expect(readdirSync(userFolder).sort()).toEqual([
      'dev-ca-key.pem',
      'dev-ca.pem',
      'node_modules',
      'package.json',
      'participant-key.pem',
      'participant.pem',
      'participant.pfx',
      'server-key.pem',
      'server.pem',
    ]);
  }, 90_000);

  it("examples type-check under the project's strict settings", async () => {
    const checkFolder = mkdtempSync(join(tmpdir(), 'contrato-readme-types-'));
    try {
      installContrato(checkFolder);
      for (const example of examples) writeFileSync(join(checkFolder, `${example.name}.mts`), example.code);
      const tsconfig = {
        extends: join(projectRoot, 'tsconfig.json'),
        compilerOptions: { noEmit: true, typeRoots: [join(projectRoot, 'node_modules/@types')] },
        include: ['*.mts'],
        exclude: [],
      };
      writeFileSync(join(checkFolder, 'tsconfig.json'), JSON.stringify(tsconfig));
      const checked = await run(process.execPath, [
        fileURLToPath(import.meta.resolve('typescript/bin/tsc')),
        '-p',
        join(checkFolder, 'tsconfig.json'),
      ]).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      expect(checked.stdout).toBe('');
    } finally {
      rmSync(checkFolder, { recursive: true, force: true });
    }
  }, 120_000);

  it.each(examples.map((example) => [example.name, example] as const))(
    '%s runs as printed against the sandbox',
    async (_name, example) => {
      const file = join(userFolder, `${example.name}.mts`);
      writeFileSync(file, example.code);
      const { stdout, stderr } = await run(process.execPath, ['--import', tsxLoader, file], {
        cwd: userFolder,
        env: userEnvironment(),
        timeout: 60_000,
      });
      expect(stderr).toBe('');
      const want: Record<string, RegExp> = {
        accounts: /^wallet \d+ PENDING_VERIFICATION\nwallets on ETH: 1\norder [0-9a-f-]{36} APPROVED\n$/,
        pix: /^charge \w{32} ATIVA 00020101021226\d\d0014br\.gov\.bcb\nnow CONCLUIDA paid by E\d{8}\d{12}\w{11}\n$/,
        // What other participants sent comes before or after the answer to the payment; a cursor is saved.
        messages:
          /^(?=[\s\S]*\nsave cursor \S+\n)sent (E00360305\d{12}\w{11})\n(?:(?:received [\w.]+|save cursor \S+)\n)*received pacs\.002\n(?:(?:received [\w.]+|save cursor \S+)\n)*$/,
        'core-banking':
          /^fee rule [0-9a-f-]{36} weight \d+\n(account \d+\n)+refused before sending: \/body\/name must have at least 1 character/,
        events: /paid invoice 90215\nacknowledged with 200/,
      };
      expect(stdout).toMatch(want[example.name]!);
    },
    90_000,
  );
});
