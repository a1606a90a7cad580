// node bindings-wasm/pack.mjs OUT_DIR: assembles the npm package `@plugforge/wasm`
// from wasm-pack's two builds (scripts/test-wasm makes them), packs it with
// `npm pack` into OUT_DIR and prints the tarball's path.
//
//   web/   pkg-web as wasm-pack wrote it: browsers and bundlers (`await init()` first)
//   node/  pkg-node (CommonJS, the module loaded synchronously from its folder), and
//          index.mjs: the same exports for `import`, with the web build's `init` and
//          `initSync` (nothing left to do in Node), so one import line runs in both.
//
// The `exports` map picks node/ in Node and web/ everywhere else, each with its own typings.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const outDir = path.resolve(process.argv[2] ?? path.join(here, '..', 'target', 'wasm-package'))
const stage = path.join(outDir, 'package')
const builds = { web: path.join(here, 'pkg-web'), node: path.join(here, 'pkg-node') }

const built = JSON.parse(fs.readFileSync(path.join(builds.web, 'package.json'), 'utf8'))
fs.rmSync(stage, { recursive: true, force: true })
for (const [folder, from] of Object.entries(builds)) {
  fs.mkdirSync(path.join(stage, folder), { recursive: true })
  for (const file of ['plugforge_wasm.js', 'plugforge_wasm_bg.wasm', 'plugforge_wasm.d.ts']) {
    fs.copyFileSync(path.join(from, file), path.join(stage, folder, file))
  }
}
// The package is ESM; wasm-pack's Node glue is CommonJS.
fs.writeFileSync(path.join(stage, 'node', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`)

// Every export of the Node glue, named, so `import { build } from '@plugforge/wasm'` resolves.
const nodeGlue = createRequire(import.meta.url)(path.join(builds.node, 'plugforge_wasm.js'))
const names = Object.keys(nodeGlue).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default').sort()
fs.writeFileSync(
  path.join(stage, 'node', 'index.mjs'),
  `// The Node glue's exports for \`import\`, shaped like the web build: \`init\` and
// \`initSync\` exist so code written for browsers runs unchanged (in Node the
// module was loaded when this file was).
import { createRequire } from 'node:module'

const wasm = createRequire(import.meta.url)('./plugforge_wasm.js')

export const { ${names.join(', ')} } = wasm

export function initSync() {
  return wasm
}

export default async function init() {
  return wasm
}
`,
)

// Node's typings: the nodejs build's, which need no DOM library (the web build's `init`
// names fetch and WebAssembly types), and the two no-op init functions.
fs.writeFileSync(
  path.join(stage, 'node', 'index.d.mts'),
  `export * from './plugforge_wasm.js'

/** Nothing to do in Node (the module was loaded with this file): browser code runs unchanged. */
export function initSync(module?: unknown): unknown

/** Nothing to do in Node (the module was loaded with this file): browser code runs unchanged. */
export default function init(module_or_path?: unknown): Promise<unknown>
`,
)

const pkg = {
  name: '@plugforge/wasm',
  version: built.version,
  description: 'The plugforge engine as WebAssembly, for browsers and Node: one agent-plugin source in, each agent runtime\'s bundle out, as lists of files',
  license: built.license,
  type: 'module',
  exports: {
    '.': {
      node: {
        import: { types: './node/index.d.mts', default: './node/index.mjs' },
        require: { types: './node/plugforge_wasm.d.ts', default: './node/plugforge_wasm.js' },
      },
      types: './web/plugforge_wasm.d.ts',
      default: './web/plugforge_wasm.js',
    },
    './plugforge_wasm_bg.wasm': './web/plugforge_wasm_bg.wasm',
    './package.json': './package.json',
  },
  main: './node/plugforge_wasm.js',
  types: './web/plugforge_wasm.d.ts',
  files: ['web', 'node', 'README.md'],
  sideEffects: ['./web/plugforge_wasm.js'],
  keywords: ['agent', 'plugin', 'claude-code', 'codex', 'gemini', 'wasm'],
}
fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
fs.copyFileSync(path.join(here, 'README.md'), path.join(stage, 'README.md'))

const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8' })
const [{ filename }] = JSON.parse(packed)
console.log(path.join(outDir, filename))
