#!/usr/bin/env node
// Writes `optionalDependencies` into a copy of the main package.json: every
// platform package of npm/ at the main package's version. Only the published
// package names them: in this repository npm would look them up in the lock
// file, before they exist on the registry.
// Usage: node release/optional-dependencies.mjs [PACKAGE_DIR] (default: this package, in place).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The main package.json with its platform packages as optional dependencies. */
export function withOptionalDependencies(pkg) {
  const platforms = fs.readdirSync(path.join(pkgDir, 'npm')).sort()
  const names = platforms.map((p) => JSON.parse(fs.readFileSync(path.join(pkgDir, 'npm', p, 'package.json'), 'utf8')).name)
  return { ...pkg, optionalDependencies: Object.fromEntries(names.map((name) => [name, pkg.version])) }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = path.join(process.argv[2] ?? pkgDir, 'package.json')
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8'))
  fs.writeFileSync(file, `${JSON.stringify(withOptionalDependencies(pkg), null, 2)}\n`)
}
