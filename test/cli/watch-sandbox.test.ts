/**
 * The channel between a watch and its sandbox process: the child says where it listens in one IPC message,
 * `{ type: 'ready', url }` or `{ type: 'failed', message }`, and the watch believes that message only —
 * never the text the child prints (what a former version parsed with a regular expression).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { runSandboxChild } from '../../src/cli/watch-sandbox-child.js';
import { type SandboxChildMessage, SandboxProcess, sandboxChildMessage } from '../../src/cli/watch-sandbox.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-watch-sandbox-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('sandboxChildMessage', () => {
  it.each([
    { given: { type: 'ready', url: 'http://127.0.0.1:4010' }, want: { type: 'ready', url: 'http://127.0.0.1:4010' } },
    { given: { type: 'failed', message: 'listen EADDRINUSE' }, want: { type: 'failed', message: 'listen EADDRINUSE' } },
    { given: { type: 'ready' }, want: null },
    { given: { type: 'ready', url: 'sandbox (stateful) http://127.0.0.1:4010' }, want: null },
    { given: { type: 'failed' }, want: null },
    { given: 'sandbox (stateful) http://127.0.0.1:4010 ready', want: null },
    { given: null, want: null },
  ])('reads $given as $want', ({ given, want }) => {
    expect(sandboxChildMessage(given)).toEqual(want);
  });
});

describe('runSandboxChild (the child side)', () => {
  it('starts the sandbox and sends one ready message with the address it answers at', async () => {
    const sent: SandboxChildMessage[] = [];
    const child = await runSandboxChild(
      { host: '127.0.0.1', port: 0, snapshotFile: join(scratch, 'state.json') },
      (message) => sent.push(message),
      () => {},
    );
    try {
      expect(sent).toEqual([{ type: 'ready', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) }]);
      const url = (sent[0] as { url: string }).url;
      expect((await fetch(`${url}/_sandbox`)).status).toBe(200);
    } finally {
      await child?.stop();
    }
  });

  it('sends one failed message with the reason when the sandbox cannot listen', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const { port } = taken.address() as { port: number };
    const sent: SandboxChildMessage[] = [];
    try {
      const child = await runSandboxChild(
        { host: '127.0.0.1', port, snapshotFile: join(scratch, 'taken.json') },
        (message) => sent.push(message),
        () => {},
      );
      expect(child).toBeNull();
      expect(sent).toEqual([{ type: 'failed', message: expect.stringMatching(/EADDRINUSE/) }]);
    } finally {
      await new Promise((done) => taken.close(done));
    }
  });
});

/** A stand-in for the child: prints the lines the former watch parsed for the address, then runs `afterPrinting`. */
function fakeChild(name: string, afterPrinting: string): string {
  const file = join(scratch, `${name}.mjs`);
  const printed = 'sandbox (stateful)    http://127.0.0.1:1          ready in 0.1 s\\nall ready in 0.1 s — Ctrl-C to stop';
  writeFileSync(file, `console.log('${printed}');\n${afterPrinting}\n`);
  return file;
}
const staysUp = "process.on('disconnect', () => process.exit(0)); setInterval(() => {}, 1000);";

describe('SandboxProcess (the watch side)', () => {
  it.each([
    {
      given: 'a ready message after a misleading line',
      afterPrinting: `process.send({ type: 'ready', url: 'http://127.0.0.1:4321' }); ${staysUp}`,
      want: { url: 'http://127.0.0.1:4321' },
    },
    {
      given: 'messages of another kind before the ready one',
      afterPrinting: `process.send({ hello: true }); process.send({ type: 'ready', url: 'http://127.0.0.1:4322' }); ${staysUp}`,
      want: { url: 'http://127.0.0.1:4322' },
    },
    { given: 'the ready lines printed, no message, an exit', afterPrinting: 'process.exit(3);', want: { error: /ended \(exit 3\)/ } },
    {
      given: 'a failed message',
      afterPrinting: `process.send({ type: 'failed', message: 'no modules' }); ${staysUp}`,
      want: { error: /did not start: no modules/ },
    },
  ])(
    '$given: $want',
    async ({ given, afterPrinting, want }) => {
      const sandbox = new SandboxProcess(
        projectRoot,
        '127.0.0.1',
        0,
        join(scratch, 'fake.json'),
        fakeChild(given.replace(/\W+/g, '-'), afterPrinting),
      );
      try {
        if ('url' in want) {
          await sandbox.start();
          expect(sandbox.url).toBe(want.url);
        } else await expect(sandbox.start()).rejects.toThrow(want.error);
      } finally {
        await sandbox.stop();
      }
    },
    30_000,
  );
});
