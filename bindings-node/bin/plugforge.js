#!/usr/bin/env node
'use strict'
// `npx plugforge`: the Rust command line itself (plugforge-cli, linked into
// the native module), over the same filesystem code as the `plugforge`
// binary, writing straight to this process's stdout and stderr.
// exitCode rather than exit(): stdout may still be draining into a pipe.

const { runCli } = require('../lib/index.js')

process.exitCode = runCli(process.argv.slice(2))
