// node bench/hosts/node.mjs SRC TARGETS RUNS: median ms of the napi build.
// Each Build is freed once timed, as wasm.mjs frees the wasm one and the Rust
// loop drops its output: a synchronous loop gives V8 no turn to finalize it.
import { createRequire } from "node:module";
import { medianMs, readSource } from "./common.mjs";

const [src, targets, runs] = process.argv.slice(2);
const plugforge = createRequire(import.meta.url)("../../bindings-node/index.js");
const files = readSource(src);
const options = { targets: targets.split(",").map((runtime) => ({ runtime })) };
console.log(medianMs(Number(runs), () => plugforge.build(files, options).free()).toFixed(1));
