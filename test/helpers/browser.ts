/**
 * A Chromium for the browser tests that needs no root and downloads nothing but npm packages:
 * `CHROMIUM_PATH` when set; else a system Chromium at one of the usual places; else the headless
 * Chromium that `npm ci` brought inside @sparticuz/chromium. `CONTRATO_BROWSER=npm` skips the system
 * ones, so CI proves the path of a fresh machine that has no browser at all.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const systemLocations = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
];

// Without the background-networking flags Chromium keeps dialling hosts this closed network refuses.
const launchArgs = [
  '--headless=new',
  '--no-sandbox',
  '--no-zygote',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedBrowser {
  readonly browser: Browser;
  /** Where the binary came from, for the test log. */
  readonly source: string;
}

async function findExecutable(): Promise<{ path: string; source: string }> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!existsSync(chosen))
      throw new Error(`CHROMIUM_PATH=${chosen} does not exist; unset it to use the Chromium of the npm package @sparticuz/chromium`);
    return { path: chosen, source: `CHROMIUM_PATH (${chosen})` };
  }
  if (process.env.CONTRATO_BROWSER !== 'npm') {
    const system = systemLocations.find((location) => existsSync(location));
    if (system) return { path: system, source: `system (${system})` };
  }
  // Unpacks its compressed binary and libraries into the system temp folder on first use (about 3 s).
  const { default: packaged } = await import('@sparticuz/chromium');
  return { path: await packaged.executablePath(), source: 'npm package @sparticuz/chromium' };
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  const { path, source } = await findExecutable();
  const browser = await chromium.launch({ executablePath: path, args: launchArgs });
  return { browser, source: `${source}, Chromium ${browser.version()}` };
}
