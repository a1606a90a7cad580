// node bench/hosts/node-to-dir.mjs SRC OUT TARGETS: one whole build through the
// napi package (read, build, plan, write), what a `buildToDir` caller waits for.
import { createRequire } from "node:module";

const [src, out, targets] = process.argv.slice(2);
const { buildToDir } = createRequire(import.meta.url)("../../bindings-node/lib/host.js");
buildToDir(src, out, { targets: targets.split(",").map((runtime) => ({ runtime })) });
