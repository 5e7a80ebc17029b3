/**
 * The launcher watch on a process table described by each case: what it takes for npm's shell, and each
 * reason it asks the command to stop (signals.test.ts runs the real thing through npx, npm start and the bin).
 */
import { describe, expect, it } from 'vitest';
import { launcherStopReason, snapshotLauncher, type ProcessTable } from '../../src/cli/launcher.js';

interface Row {
  readonly parent: number;
  readonly commandLine: readonly string[];
  readonly wakeUps: number;
}

const tableOf = (rows: Record<number, Row>): ProcessTable => ({
  parentOf: (pid) => rows[pid]?.parent,
  commandLineOf: (pid) => rows[pid]?.commandLine,
  wakeUpsOf: (pid) => rows[pid]?.wakeUps,
});

const npmEnvironment = { npm_lifecycle_event: 'npx', npm_lifecycle_script: "'contrato'" };
const npmShell: Row = { parent: 10, commandLine: ['sh', '-c', "'contrato' sandbox --port 0"], wakeUps: 3 };

describe('snapshotLauncher', () => {
  it.each([
    {
      given: "npm's shell for this script",
      environment: npmEnvironment,
      row: npmShell,
      want: { parent: 20, npmShell: { npm: 10, wakeUps: 3 } },
    },
    { given: 'a shell, outside npm', environment: {}, row: npmShell, want: { parent: 20 } },
    {
      given: 'a shell running another script',
      environment: npmEnvironment,
      row: { ...npmShell, commandLine: ['sh', '-c', 'node other.js'] },
      want: { parent: 20 },
    },
    {
      given: 'a parent that is no shell',
      environment: npmEnvironment,
      row: { ...npmShell, commandLine: ['node', 'vitest'] },
      want: { parent: 20 },
    },
  ])('$given', ({ environment, row, want }) => {
    expect(snapshotLauncher(20, environment, tableOf({ 20: row }))).toEqual(want);
  });
});

describe('launcherStopReason', () => {
  const underShell = { parent: 20, npmShell: { npm: 10, wakeUps: 3 } };
  it.each([
    { given: 'all as it was', before: underShell, parent: 20, underNpm: true, row: npmShell, want: null },
    { given: 'the shell died (SIGTERM to npx)', before: underShell, parent: 1, underNpm: true, row: npmShell, want: /started it ended/ },
    {
      given: 'npm died, the shell stayed',
      before: underShell,
      parent: 20,
      underNpm: true,
      row: { ...npmShell, parent: 1 },
      want: /npm, which started it, ended/,
    },
    {
      given: 'the shell was woken (SIGINT to npx)',
      before: underShell,
      parent: 20,
      underNpm: true,
      row: { ...npmShell, wakeUps: 4 },
      want: /signal/,
    },
    { given: 'a new parent outside npm (nohup)', before: { parent: 20 }, parent: 1, underNpm: false, row: npmShell, want: null },
    { given: 'a new parent under npm', before: { parent: 20 }, parent: 1, underNpm: true, row: npmShell, want: /started it ended/ },
  ])('$given', ({ before, parent, underNpm, row, want }) => {
    const reason = launcherStopReason(before, parent, underNpm, tableOf({ 20: row }));
    if (want === null) expect(reason).toBeNull();
    else expect(reason).toMatch(want);
  });
});
