#!/usr/bin/env node
// Puts vocabulary.d.cts into the WASI fallback's package (npm/wasm32-wasi):
// its typings, plugforge.wasi.d.cts, import the vocabulary's string unions
// from './vocabulary.cjs' as the main package's index.d.ts does (a .d.cts,
// CommonJS's typings in that "type": "module" package too), and
// `napi create-npm-dirs` lists only napi's own files there. Run after `napi
// artifacts` filled the package, before it is packed.
// Usage: node release/wasi-vocabulary.mjs [PACKAGE_DIR] (default: npm/wasm32-wasi of this package).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const VOCABULARY = 'vocabulary.d.cts'

/** The WASI package's package.json with the vocabulary among its files. */
export function withVocabulary(pkg) {
  return pkg.files.includes(VOCABULARY) ? pkg : { ...pkg, files: [...pkg.files, VOCABULARY] }
}

/** Copies the vocabulary into the WASI package folder `dir` and lists it in its package.json. */
export function addVocabulary(dir) {
  fs.copyFileSync(path.join(pkgDir, VOCABULARY), path.join(dir, VOCABULARY))
  const file = path.join(dir, 'package.json')
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8'))
  fs.writeFileSync(file, `${JSON.stringify(withVocabulary(pkg), null, 2)}\n`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  addVocabulary(process.argv[2] ?? path.join(pkgDir, 'npm', 'wasm32-wasi'))
}
