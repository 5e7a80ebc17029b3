/**
 * `contrato regenerate --watch` on a copy of specs/ (`--specs`), writing into a copy of generated/ (`--out`)
 * and a scratch site: a save of one core-banking file regenerates core-banking and its page only, prints
 * one line with its time, and tells the open pages to reload (the docs server's event stream); Ctrl-C
 * stops it and its regenerator. The sandbox it runs is restarted with its state kept.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { reloadPath } from '../../src/cli/watch-docs.js';
import { SandboxProcess } from '../../src/cli/watch-sandbox.js';
import { generateTxid } from '../../src/formats/pix.js';
import { createPixClient } from '../../src/pix/index.js';
import { freePort } from '../helpers/ports.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-watch-'));
const specs = join(scratch, 'specs');
const out = join(scratch, 'generated');
const site = join(scratch, 'site');
let watcher: ChildProcess;
let output = '';
afterAll(() => {
  if (watcher?.exitCode === null) watcher.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** Resolves once the watch's output matches `pattern` (after `from`), or fails after `limitMs`. */
function waitFor(pattern: RegExp, limitMs: number, from = 0): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const found = pattern.exec(output.slice(from));
      if (found) {
        clearInterval(poll);
        resolve(found);
      } else if (Date.now() - started > limitMs || watcher.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(`no ${pattern} within ${limitMs} ms (exit ${watcher.exitCode}):\n${output}`));
      }
    }, 50);
  });
}

const mtimes = (dir: string): Record<string, number> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => [relative(dir, join(entry.parentPath, entry.name)), statSync(join(entry.parentPath, entry.name)).mtimeMs]),
  );

/** Every process below `root` (its regenerator, its sandbox, their children), by the parent ids of /proc. */
function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // The fields after the command's closing parenthesis: state, then the parent id.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Ended meanwhile.
    }
  }
  const found: number[] = [];
  for (let frontier = [root]; frontier.length > 0; ) {
    frontier = [...parents].filter(([, parent]) => frontier.includes(parent)).map(([pid]) => pid);
    found.push(...frontier);
  }
  return found;
}
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('contrato regenerate --watch', () => {
  let docsUrl = '';
  let sandboxUrl = '';

  beforeAll(async () => {
    cpSync(join(projectRoot, 'specs'), specs, { recursive: true });
    cpSync(join(projectRoot, 'generated'), out, { recursive: true });
    watcher = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'regenerate', '--watch', '--specs', specs, '--out', out, '--site', site, '--port', '0'],
      { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    watcher.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    watcher.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await waitFor(/^watching .+ and the generator — Ctrl-C to stop$/m, 300_000);
    docsUrl = (await waitFor(/^docs\s+(http:\/\/\S+?)\/? /m, 1000))[1]!;
    sandboxUrl = (await waitFor(/^sandbox\s+(http:\/\/\S+) /m, 1000))[1]!;
  }, 320_000);

  it('serves the docs with the reload script on every page', async () => {
    const page = await fetch(`${docsUrl}/index.html`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<script src="${reloadPath}.js"></script>`);
    const script = await fetch(`${docsUrl}${reloadPath}.js`);
    expect(await script.text()).toContain('new EventSource');
  });

  it('a save of one core-banking file: one line, core-banking and its page only, and the open pages reload', async () => {
    const events = await fetch(`${docsUrl}${reloadPath}`);
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    const reader = events.body!.getReader();
    let stream = '';
    const rebuilt = (async () => {
      while (!/event: rebuilt\ndata: (.*)\n/.test(stream)) {
        const { value, done } = await reader.read();
        if (done) break;
        stream += new TextDecoder().decode(value);
      }
      return JSON.parse(/event: rebuilt\ndata: (.*)\n/.exec(stream)?.[1] ?? 'null') as string[] | null;
    })();

    const before = mtimes(out);
    const from = output.length;
    const file = join(specs, 'core-banking/paths/fee-rules.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('description: >-\n', 'description: >-\n    Saved while watching.\n'));
    const line = await waitFor(
      /^\d\d:\d\d:\d\d {2}regenerated core-banking; pages ([^\n;]*); sandbox restarted in ([\d.]+) s$/m,
      120_000,
      from,
    );
    expect(line[1]!.split(', ')).toContain('core-banking.html');
    expect(line[1]).not.toMatch(/accounts\.html|pix\.html|messages\.html|events\.html/);
    expect(await rebuilt).toContain('core-banking.html');
    await reader.cancel();
    // The sandbox was restarted where it was.
    expect((await fetch(`${sandboxUrl}/_sandbox`)).status).toBe(200);

    const changed = Object.entries(mtimes(out))
      .filter(([name, time]) => before[name] !== time)
      .map(([name]) => name);
    expect(changed.filter((name) => name !== 'manifest.json').every((name) => name.startsWith('core-banking/'))).toBe(true);
    expect(readFileSync(join(out, 'core-banking/openapi.json'), 'utf8')).toContain('Saved while watching.');
    // One line for the save, however many events the editor's write made.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(output.slice(from).match(/regenerated/g)).toHaveLength(1);
  }, 180_000);

  it('a broken spec gets one failure line, and the watch goes on', async () => {
    const from = output.length;
    const file = join(specs, 'core-banking/openapi.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/^paths:/m, 'paths: [unclosed'));
    await waitFor(/^\d\d:\d\d:\d\d {2}regeneration failed after [\d.]+ s: .+/m, 120_000, from);
    // Back to the text last regenerated: nothing to do, and the line says so.
    let next = output.length;
    writeFileSync(file, text);
    await waitFor(/^\d\d:\d\d:\d\d {2}nothing changed in [\d.]+ s$/m, 120_000, next);
    next = output.length;
    writeFileSync(file, text.replace(/^info:\n/m, 'info:\n  x-saved-after-a-failure: true\n'));
    await waitFor(/^\d\d:\d\d:\d\d {2}regenerated core-banking.* in [\d.]+ s$/m, 120_000, next);
  }, 300_000);

  it('Ctrl-C stops the watch, its regenerator and its sandbox', async () => {
    const children = descendantsOf(watcher.pid!);
    expect(children.length).toBeGreaterThanOrEqual(2);
    const exited = new Promise<number | null>((resolve) => watcher.once('exit', (code) => resolve(code)));
    watcher.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toMatch(/^stopping…$/m);
    const deadline = Date.now() + 10_000;
    while (children.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(children.filter(alive)).toEqual([]);
  }, 60_000);
});

describe('the sandbox of the watch', () => {
  it('restarts on the regenerated modules with its state kept', async () => {
    const port = await freePort();
    const sandbox = new SandboxProcess(projectRoot, '127.0.0.1', port, join(scratch, 'sandbox-state.json'));
    const txid = generateTxid();
    await sandbox.start();
    expect(sandbox.url).toBe(`http://127.0.0.1:${port}`);
    try {
      const client = () =>
        createPixClient({
          baseUrl: `${sandbox.url}/pix`,
          clientId: 'sandbox-pix',
          clientSecret: 'sandbox-secret',
          retry: { maxRetries: 0 },
        });
      const before = client();
      await before.cob.replace({
        path: { txid },
        body: { calendario: {}, valor: { original: '1.00' }, chave: 'cobrancas@sandbox.example.com' },
      });
      await before.close();
      await sandbox.stop();
      await sandbox.start();
      const after = client();
      expect(await after.cob.get({ path: { txid } })).toMatchObject({ txid, valor: { original: '1.00' } });
      await after.close();
    } finally {
      await sandbox.stop();
    }
  }, 120_000);
});
