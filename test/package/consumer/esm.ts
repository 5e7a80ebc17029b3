/** The consumer as an ES module ("type": "module", module NodeNext): top-level await, a JSON import with its attribute. */
import pixSpec from 'contrato/specs/pix.json' with { type: 'json' };
import { callEverything } from './calls.js';

const results = await callEverything();
results.specs = pixSpec.info.title;
results.format = typeof require === 'undefined' ? 'esm' : 'cjs';
console.log(JSON.stringify(results));
