#!/usr/bin/env node
'use strict'
// `npx plugforge`: the same command line as the Rust binary (every verb,
// flag, message and exit code lives in the engine) over the local filesystem.
// exitCode rather than exit(): stdout may still be draining into a pipe.

const { runCli, nodeHost } = require('../lib/index.js')

process.exitCode = runCli(process.argv.slice(2), nodeHost)
