/** A port that was free a moment ago on 127.0.0.1, for servers (Prism) that cannot bind port 0 themselves. */
export { freeLoopbackPort as freePort } from '../../src/cli/ports.js';
