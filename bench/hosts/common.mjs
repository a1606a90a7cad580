// Reads a source folder into the file list every JS binding's `build` takes,
// then times `build` alone: the in-memory figure, the same as the Rust one.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export function readSource(dir) {
  const files = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push({ path: relative(dir, path).split("\\").join("/"), bytes: new Uint8Array(readFileSync(path)) });
    }
  };
  walk(dir);
  return files;
}

export function medianMs(runs, job) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    job();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
