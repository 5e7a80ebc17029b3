/**
 * The observability guide's example as a user runs it: in a new folder where contrato (this checkout's
 * sources) and the two OpenTelemetry packages are installed, exactly as printed, against a sandbox this test
 * started (its address in the variable the example reads). It must exit 0, write nothing on stderr, and print
 * the spans the guide shows: a token request, three attempts of which two answered 503, then the call.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { installContrato, tsxLoader } from '../helpers/checkout-package.js';
import { addressVariableOf } from '../helpers/interfaces.js';
import { startSeeded } from '../helpers/sandbox.js';

const run = promisify(execFile);
const guide = readFileSync(join(projectRoot, 'docs/guides/observability.md'), 'utf8');
const example = /<!-- observability-example: trace -->\n```ts\n([\s\S]*?)```/.exec(guide)?.[1];
const userFolder = mkdtempSync(join(tmpdir(), 'contrato-observability-'));
let sandbox: RunningSandbox;

beforeAll(async () => {
  installContrato(userFolder);
  // The packages the guide tells the user to install: this checkout's copies, where npm would put them.
  symlinkSync(join(projectRoot, 'node_modules/@opentelemetry'), join(userFolder, 'node_modules/@opentelemetry'));
  sandbox = await startSeeded('observability', sandboxModules);
}, 120_000);
afterAll(async () => {
  expect(sandbox.drifts()).toEqual([]);
  await sandbox.stop();
  rmSync(userFolder, { recursive: true, force: true });
});

/** The values of `name: '…'` and of one attribute in the console exporter's output, span by span. */
function printed(stdout: string, attribute: string): { name: string; value: string | undefined }[] {
  return stdout
    .split(/\n(?=\{\n)/)
    .filter((span) => /\n {2}name: '/.test(span))
    .map((span) => ({
      name: /\n {2}name: '([^']+)'/.exec(span)![1]!,
      value: new RegExp(`'${attribute.replaceAll('.', '\\.')}': '?([^',\\n]+)`).exec(span)?.[1],
    }));
}

describe('the observability guide', () => {
  it('has its example', () => {
    expect(example).toBeDefined();
    expect(example).toContain(`process.env.${addressVariableOf('core-banking')} ??`);
  });

  it('prints the trace of a call retried twice after 503, as printed', { timeout: 60_000 }, async () => {
    const file = join(userFolder, 'trace.mts');
    writeFileSync(file, example!);
    const { stdout, stderr } = await run(process.execPath, ['--import', tsxLoader, file], {
      cwd: userFolder,
      env: { ...process.env, [addressVariableOf('core-banking')]: sandbox.urlOf('core-banking') },
      timeout: 45_000,
    });
    expect(stderr).toBe('');
    const attempt = 'GET /core-banking/fee-rules';
    expect(printed(stdout, 'http.response.status_code')).toEqual([
      { name: 'token', value: undefined },
      { name: attempt, value: '503' },
      { name: attempt, value: '503' },
      { name: attempt, value: '200' },
      { name: 'feeRules.list', value: '200' },
    ]);
    expect(printed(stdout, 'contrato.retry.reason').map((span) => span.value)).toEqual([undefined, undefined, '503', '503', undefined]);
    expect(printed(stdout, 'contrato.attempts').at(-1)!.value).toBe('3');
    expect(stdout).toMatch(/\nanswered 200 after 3 attempts\n$/);
  });
});
