#!/usr/bin/env node
/** The `contrato` command line (the package's bin); `contrato --help` lists every command and option. */
import { runCli } from './program.js';

process.exitCode = await runCli(process.argv.slice(2));
