/**
 * The sandbox against the Prism mocks, in one run: seconds from spawning each until it prints "all ready"
 * (`contrato sandbox` with every module, `contrato mock` with every interface), and requests per second on
 * the same GET /cob/{txid} at 20 concurrent calls, both servers in processes of their own and the load from
 * this one. Ratios are what to read: this machine is noisy.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../scripts/lib.js';

const readyLimitMs = 180_000;
const concurrency = 20;

/** Spawns `contrato <args>` and resolves once it printed "all ready", with its output and the seconds it took. */
function startUntilReady(args: string[]): Promise<{ child: ChildProcess; output: string; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args, '--port', '0'], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`contrato ${args.join(' ')} was not ready within ${readyLimitMs} ms:\n${output}`));
    }, readyLimitMs);
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!/all ready in/.test(output)) return;
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      resolve({ child, output, seconds: (performance.now() - started) / 1000 });
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Requests per second of `total` GETs of `url`, `concurrency` at a time, from bench/load.mjs in a process of its own. */
function requestsPerSecond(url: string, headers: Record<string, string>, total: number): number {
  const run = spawnSync(
    process.execPath,
    [join(projectRoot, 'bench/load.mjs'), url, String(total), String(concurrency), JSON.stringify(headers)],
    {
      cwd: projectRoot,
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  if (run.status !== 0) throw new Error(`the load generator failed:\n${run.stderr}`);
  return Number(run.stdout.trim());
}

async function sandboxCharge(base: string): Promise<{ url: string; headers: Record<string, string> }> {
  const basic = Buffer.from('sandbox-pix:sandbox-secret').toString('base64');
  const token = (await (
    await fetch(`${base}/pix/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
  ).json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token.access_token}` };
  const txid = 'benchsandbox0000000000000000001';
  const created = await fetch(`${base}/pix/cob/${txid}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ calendario: {}, valor: { original: '10.00' }, chave: 'cobrancas@sandbox.example.com' }),
  });
  if (created.status !== 201) throw new Error(`the sandbox refused the bench charge: ${created.status} ${await created.text()}`);
  return { url: `${base}/pix/cob/${txid}`, headers };
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

export async function benchSandbox(total = 10_000) {
  const sandbox = await startUntilReady(['sandbox']);
  const prism = await startUntilReady(['mock']);
  try {
    const sandboxBase = /^sandbox \(stateful\)\s+(http:\/\/\S+)/m.exec(sandbox.output)?.[1];
    const prismPix = /^mock {2}pix\s+(http:\/\/\S+)/m.exec(prism.output)?.[1];
    if (!sandboxBase || !prismPix) throw new Error(`addresses not found in:\n${sandbox.output}\n${prism.output}`);
    const charge = await sandboxCharge(sandboxBase);
    const sandboxRate = requestsPerSecond(charge.url, charge.headers, total);
    const prismRate = requestsPerSecond(`${prismPix}/cob/benchsandbox0000000000000000001`, { authorization: 'Bearer any' }, total);
    return {
      readySeconds: round2(sandbox.seconds),
      prismReadySeconds: round2(prism.seconds),
      requestsPerSecond: Math.round(sandboxRate),
      prismRequestsPerSecond: Math.round(prismRate),
      throughputVsPrism: round2(sandboxRate / prismRate),
    };
  } finally {
    await Promise.all([stop(sandbox.child), stop(prism.child)]);
  }
}
