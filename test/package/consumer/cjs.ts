/**
 * The consumer as CommonJS ("type": "commonjs", module node16): its imports compile to require(), which the
 * package answers with its .cjs entry points and their .d.cts declarations (no TS1479).
 */
import pixSpec = require('contrato/specs/pix.json');
import { callEverything } from './calls.js';

callEverything().then(
  (results) => {
    results.specs = pixSpec.info.title;
    results.format = typeof require === 'undefined' ? 'esm' : 'cjs';
    results.entry = require.resolve('contrato/formats').replace(/^.*\/node_modules\/contrato\//, '');
    console.log(JSON.stringify(results));
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
