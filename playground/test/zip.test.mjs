// The page's zip writer and reader under Node: classic zips stay classic,
// zip64 appears exactly where the classic fields overflow, and Python's
// zipfile and Info-ZIP's unzip accept both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readZip, writeZip } from "../zip.js";

const encoder = new TextEncoder();
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;

function entries(count) {
  return Array.from({ length: count }, (_, i) => ({
    path: `files/${String(i).padStart(6, "0")}.txt`,
    bytes: encoder.encode(i % 7 === 0 ? "" : `file ${i}\n`),
    executable: i % 5 === 0,
  }));
}

/** Runs a command on `bytes` written to a scratch file; returns {status, stdout, stderr}. */
function check(bytes, command, args) {
  const dir = mkdtempSync(join(tmpdir(), "plugforge-zip-"));
  try {
    const file = join(dir, "test.zip");
    writeFileSync(file, bytes);
    return spawnSync(command, [...args, file], { encoding: "utf8", maxBuffer: 64 << 20 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function assertValid(bytes, count) {
  const python = check(bytes, "python3", ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(len(z.namelist()))"]);
  assert.equal(python.status, 0, python.stderr);
  assert.equal(Number(python.stdout.trim()), count, "python's zipfile sees every entry");
  const unzip = check(bytes, "unzip", ["-tqq"]);
  assert.equal(unzip.status, 0, `unzip -t: ${unzip.stdout}${unzip.stderr}`);
}

const view = (bytes) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const hasZip64End = (bytes) => view(bytes).getUint32(bytes.length - 22 - 20, true) === ZIP64_LOCATOR;

async function assertRoundTrip(bytes, written) {
  const read = await readZip(bytes);
  assert.equal(read.length, written.length);
  for (let i = 0; i < written.length; i++) {
    assert.equal(read[i].path, written[i].path);
    assert.deepEqual(read[i].bytes, written[i].bytes, `${written[i].path}: bytes`);
    assert.equal(read[i].executable, written[i].executable, `${written[i].path}: executable bit`);
  }
}

test("a small zip is the classic format, deterministic, and reads back", async () => {
  const written = entries(20);
  const bytes = writeZip(written);
  assert.deepEqual(writeZip(written), bytes, "the same files give the same bytes");
  assert.ok(!hasZip64End(bytes), "no zip64 record below the limits");
  const v = view(bytes);
  assert.equal(v.getUint32(bytes.length - 22, true), 0x06054b50);
  assert.equal(v.getUint16(bytes.length - 22 + 10, true), 20);
  assertValid(bytes, 20);
  await assertRoundTrip(bytes, written);
});

test("more than 65,535 entries write the zip64 end record and locator", async () => {
  const written = entries(70_000);
  const bytes = writeZip(written);
  assert.ok(hasZip64End(bytes), "zip64 locator right before the end record");
  const v = view(bytes);
  const end = bytes.length - 22;
  assert.equal(v.getUint16(end + 10, true), 0xffff, "the classic count says: see zip64");
  const record = Number(v.getBigUint64(end - 20 + 8, true));
  assert.equal(v.getUint32(record, true), ZIP64_END);
  assert.equal(v.getBigUint64(record + 32, true), 70_000n, "the zip64 record holds the real count");
  assert.equal(v.getUint32(0, true), 0x04034b50);
  assert.equal(v.getUint16(4, true), 20, "entries that fit keep the classic headers");
  assertValid(bytes, 70_000);
  await assertRoundTrip(bytes, written);
  assert.deepEqual(writeZip(written), bytes, "deterministic");
});

test("zip64 extra fields on every entry (as sizes or offsets past 4 GiB need) read back and are valid", async () => {
  const written = entries(30);
  const bytes = writeZip(written, { forceZip64: true });
  const v = view(bytes);
  assert.equal(v.getUint32(18, true), 0xffffffff, "the local header's size moved to its zip64 extra");
  assert.equal(v.getUint16(28, true), 20, "a zip64 extra with both sizes");
  assert.ok(hasZip64End(bytes));
  assertValid(bytes, 30);
  await assertRoundTrip(bytes, written);
});

test("damaged zips are refused with a reason", async () => {
  const bytes = writeZip(entries(3));
  await assert.rejects(readZip(bytes.subarray(0, bytes.length - 30)), /not a zip file/);
  const damaged = bytes.slice();
  // Entry 0 is empty, so entry 1's data starts after two headers and names.
  damaged[2 * (30 + "files/000000.txt".length)] ^= 0xff;
  await assert.rejects(readZip(damaged), /CRC-32/);
  const noHeader = bytes.slice();
  noHeader[0] ^= 0xff;
  await assert.rejects(readZip(noHeader), /no local header/);
});
