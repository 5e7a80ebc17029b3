/**
 * The sandbox's memory is bounded under hostile bodies (issue 27, item 4). A sandbox of every interface runs in
 * a child process, compiled as a deployment runs it (fixtures/memory-sandbox.ts bundled with esbuild, reporting
 * its RSS every 50 ms). This test sends it, twice, a 50 MB body streamed without a length, four 11 MB bodies (two
 * declared, two streamed; to the image upload and to JSON operations), seven JSON bodies nested 100 000 deep and
 * the malformed multipart forms, while a second client keeps reading a charge and times each answer. The child's
 * RSS stays under 300 MB throughout and is under 150 MB 10 s after, no collection forced, and every answer
 * of the second client comes within 1 s. The figures are printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import {
  authorization,
  bodyProbes,
  createOnboarding,
  goodUpload,
  malformedMultipart,
  nestedJson,
  type RawRequest,
  rawRequest,
} from './hostile.js';

const mebibyte = 1024 * 1024;
const limits = { peakBytes: 300 * mebibyte, afterBytes: 150 * mebibyte, latencyMs: 1000, settleMs: 10_000 };

let child: ChildProcess;
let url = '';
const samples: { at: number; rss: number }[] = [];
/** When the child reported a major collection (mark-compact) of its heap. */
const collections: number[] = [];
const majorCollections = (since: number) => collections.filter((at) => at >= since).length;

let scratch = '';

beforeAll(async () => {
  // Compiled, as a deployment runs it: tsx's loader thread alone adds some 40 MB of RSS a deployment never has.
  scratch = mkdtempSync(join(tmpdir(), 'contrato-memory-'));
  const script = join(scratch, 'memory-sandbox.mjs');
  await build({
    entryPoints: [join(projectRoot, 'test/sandbox/fixtures/memory-sandbox.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // The one module of the sandbox that finds files beside itself (the bundled specs, ../../generated).
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(projectRoot, 'src/checks/registry.ts')).href) },
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
  });
  child = spawn(process.execPath, [script], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.on('message', (message: { url?: string; rss?: number; majorCollection?: boolean }) => {
    if (message.url) url = message.url;
    // Bounded: one sample per 50 ms of a run that lasts well under a minute.
    if (message.rss !== undefined && samples.length < 5000) samples.push({ at: performance.now(), rss: message.rss });
    if (message.majorCollection && collections.length < 5000) collections.push(performance.now());
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the sandbox child did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the sandbox child exited (${code}) before it started`)));
    const check = setInterval(() => {
      if (!url) return;
      clearInterval(check);
      clearTimeout(timer);
      resolve();
    }, 20);
  });
}, 40_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.send('stop');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const megabytes = (bytes: number) => `${(bytes / mebibyte).toFixed(1)} MB`;

/**
 * The attack mix, each request on its own connection: the large bodies go to the form upload (the largest
 * limit) and to JSON operations, half of them declaring their length, half streaming without one.
 */
function attackMix(auth: Record<string, Record<string, string>>, onboardingId: string): (RawRequest & { url: string })[] {
  const upload = {
    url: `${url}/accounts/api/v2/onboarding/${onboardingId}/images`,
    method: 'POST',
    headers: { ...auth.accounts, 'content-type': goodUpload.contentType },
  };
  const json = (index: number) => {
    const probe = bodyProbes[index % bodyProbes.length]!;
    return { url: `${url}${probe.path}`, method: probe.method, headers: { ...auth[probe.document], 'content-type': 'application/json' } };
  };
  const eleven = Buffer.alloc(11 * mebibyte, 0x20);
  return [
    { ...upload, stream: 50 * mebibyte },
    { ...upload, body: eleven },
    { ...upload, stream: 11 * mebibyte },
    { ...json(0), body: eleven },
    { ...json(1), stream: 11 * mebibyte },
    ...Array.from({ length: 7 }, (_, index) => ({ ...json(index), body: nestedJson(100_000) })),
    ...malformedMultipart().map(({ contentType, body }) => ({
      ...upload,
      headers: { ...auth.accounts, 'content-type': contentType },
      body: Buffer.from(body, 'latin1'),
    })),
  ];
}

describe('the sandbox under hostile bodies, in a child process', () => {
  it('keeps its RSS under 300 MB, is under 150 MB 10 s after, and answers a concurrent client within 1 s', async () => {
    const auth: Record<string, Record<string, string>> = {};
    for (const { document } of bodyProbes) auth[document] = await authorization(url, document);
    const onboardingId = await createOnboarding(`${url}/accounts/api/v2`, auth.accounts ?? {});
    const upload = await rawRequest(`${url}/accounts/api/v2/onboarding/${onboardingId}/images`, {
      method: 'POST',
      headers: { ...auth.accounts, 'content-type': goodUpload.contentType },
      body: Buffer.from(goodUpload.body, 'latin1'),
    });
    expect(upload.status).toBe(200);
    const baseline = samples.at(-1)!.rss;

    // The concurrent client: one cheap read at a time (a charge that does not exist, 404), timed.
    let attacking = true;
    const latencies: number[] = [];
    const statuses = new Set<number>();
    const reader = (async () => {
      for (let round = 0; round < 5000 && attacking; round += 1) {
        const started = performance.now();
        const answer = await fetch(`${url}/pix/cob/memoryTestTxidThatIsNeverMade01`, { headers: { ...auth.pix } });
        await answer.arrayBuffer();
        latencies.push(performance.now() - started);
        statuses.add(answer.status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const attackStarted = performance.now();
    const outcomes: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      const requests = attackMix(auth, onboardingId);
      const answers = await Promise.all(
        requests.map(({ url: target, ...request }) => rawRequest(target, { ...request, timeoutMs: 30_000 })),
      );
      outcomes.push(...answers.map((answer) => answer.status));
    }
    const attackEnded = performance.now();
    // settleMs more, the client still calling; the RSS then is the figure "after".
    await new Promise((resolve) => setTimeout(resolve, limits.settleMs));
    const after = samples.at(-1)!.rss;
    attacking = false;
    await reader;

    const during = samples.filter(({ at }) => at >= attackStarted && at <= attackEnded + 1000);
    const peak = Math.max(...samples.filter(({ at }) => at >= attackStarted).map(({ rss }) => rss));
    const slowest = Math.max(...latencies);
    console.log(
      `memory: baseline ${megabytes(baseline)}, peak ${megabytes(peak)} (limit ${megabytes(limits.peakBytes)}), ` +
        `${megabytes(after)} ${limits.settleMs / 1000} s after the attack (limit ${megabytes(limits.afterBytes)}; ` +
        `${majorCollections(attackEnded)} major collections by V8 meanwhile, none forced); attack ${Math.round(attackEnded - attackStarted)} ms, ` +
        `${outcomes.length} hostile requests answered ${[...new Set(outcomes)].sort().join('/')}; concurrent client: ${latencies.length} answers, ` +
        `slowest ${Math.round(slowest)} ms (limit ${limits.latencyMs} ms)`,
    );
    expect(during.length).toBeGreaterThan(0);
    expect(new Set(outcomes)).toEqual(new Set([400, 413]));
    expect([...statuses]).toEqual([404]);
    expect(peak).toBeLessThan(limits.peakBytes);
    expect(after).toBeLessThan(limits.afterBytes);
    expect(slowest).toBeLessThan(limits.latencyMs);
  }, 90_000);
});
