// node bench/hosts/wasm.mjs SRC TARGETS RUNS: median ms of the wasm build (pkg-node).
import { createRequire } from "node:module";
import { medianMs, readSource } from "./common.mjs";

const [src, targets, runs] = process.argv.slice(2);
const plugforge = createRequire(import.meta.url)("../../bindings-wasm/pkg-node/plugforge_wasm.js");
const files = readSource(src);
const options = { targets: targets.split(",").map((runtime) => ({ runtime })) };
console.log(medianMs(Number(runs), () => plugforge.build(files, options).free?.()).toFixed(1));
