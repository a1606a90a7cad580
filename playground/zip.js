// A minimal zip writer (stored entries only) and reader (stored + deflate),
// enough to download bundles and to open a zipped plugin source without a
// dependency. Both speak zip64, which an output root of more than 65,535
// files needs.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes) {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
const ZIP64_END_OF_CENTRAL = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EXTRA = 0x0001;
const UTF8_NAMES = 1 << 11;
// Made by Unix (3), spec 2.0: readers then take the high 16 bits of the
// external attributes as the file mode, which carries the executable bit.
// An entry that needs zip64 says spec 4.5, the first with it.
const MADE_BY_UNIX = (3 << 8) | 20;
const MADE_BY_UNIX_ZIP64 = (3 << 8) | 45;
const VERSION = 20;
const VERSION_ZIP64 = 45;
const MODE_FILE = 0o100644;
const MODE_EXECUTABLE = 0o100755;
// Fields past these hold 0xffff / 0xffffffff and the real value moves to a
// zip64 field; below them the zip is the classic format, byte for byte.
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;
// 1980-01-01 00:00, the earliest DOS date: a fixed time keeps a zip of the
// same files byte-identical from one download to the next.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/**
 * entries: [{path, bytes: Uint8Array, executable?}] -> the bytes of a zip of
 * stored entries. Zip64 records are written where a count, size or offset
 * does not fit the classic fields (more than 65,535 entries, 4 GiB or more);
 * `forceZip64` writes them for every entry and the end record regardless.
 */
export function writeZip(entries, { forceZip64 = false } = {}) {
  const encoder = new TextEncoder();
  const parts = [];
  const centrals = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.path);
    const crc = crc32(entry.bytes);
    const size = entry.bytes.length;
    const bigSize = forceZip64 || size >= MAX_32;
    const bigOffset = forceZip64 || offset >= MAX_32;

    // Local header: a zip64 extra holds both sizes when they do not fit.
    const localExtra = bigSize ? zip64Extra([size, size]) : new Uint8Array(0);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, LOCAL_HEADER, true);
    local.setUint16(4, bigSize || bigOffset ? VERSION_ZIP64 : VERSION, true);
    local.setUint16(6, UTF8_NAMES, true);
    local.setUint16(8, 0, true);
    local.setUint16(10, DOS_TIME, true);
    local.setUint16(12, DOS_DATE, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, bigSize ? MAX_32 : size, true);
    local.setUint32(22, bigSize ? MAX_32 : size, true);
    local.setUint16(26, name.length, true);
    local.setUint16(28, localExtra.length, true);
    parts.push(new Uint8Array(local.buffer), name, localExtra, entry.bytes);

    // Central header: the zip64 extra holds, in this order, the sizes and the
    // offset that do not fit.
    const centralExtra = bigSize || bigOffset ? zip64Extra([...(bigSize ? [size, size] : []), ...(bigOffset ? [offset] : [])]) : new Uint8Array(0);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, CENTRAL_HEADER, true);
    central.setUint16(4, bigSize || bigOffset ? MADE_BY_UNIX_ZIP64 : MADE_BY_UNIX, true);
    central.setUint16(6, bigSize || bigOffset ? VERSION_ZIP64 : VERSION, true);
    central.setUint16(8, UTF8_NAMES, true);
    central.setUint16(10, 0, true);
    central.setUint16(12, DOS_TIME, true);
    central.setUint16(14, DOS_DATE, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, bigSize ? MAX_32 : size, true);
    central.setUint32(24, bigSize ? MAX_32 : size, true);
    central.setUint16(28, name.length, true);
    central.setUint16(30, centralExtra.length, true);
    central.setUint32(38, ((entry.executable ? MODE_EXECUTABLE : MODE_FILE) << 16) >>> 0, true);
    central.setUint32(42, bigOffset ? MAX_32 : offset, true);
    centrals.push(new Uint8Array(central.buffer), name, centralExtra);
    offset += 30 + name.length + localExtra.length + size;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const count = entries.length;
  const tail = [];
  const zip64End = forceZip64 || count > MAX_16 || centralSize >= MAX_32 || offset >= MAX_32;
  if (zip64End) {
    const record = new DataView(new ArrayBuffer(56));
    record.setUint32(0, ZIP64_END_OF_CENTRAL, true);
    record.setBigUint64(4, 44n, true); // the record's size after this field
    record.setUint16(12, MADE_BY_UNIX_ZIP64, true);
    record.setUint16(14, VERSION_ZIP64, true);
    record.setUint32(16, 0, true); // this disk
    record.setUint32(20, 0, true); // the disk the central directory starts on
    record.setBigUint64(24, BigInt(count), true);
    record.setBigUint64(32, BigInt(count), true);
    record.setBigUint64(40, BigInt(centralSize), true);
    record.setBigUint64(48, BigInt(offset), true);
    const locator = new DataView(new ArrayBuffer(20));
    locator.setUint32(0, ZIP64_LOCATOR, true);
    locator.setUint32(4, 0, true);
    locator.setBigUint64(8, BigInt(offset + centralSize), true);
    locator.setUint32(16, 1, true); // disks in all
    tail.push(new Uint8Array(record.buffer), new Uint8Array(locator.buffer));
  }
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, END_OF_CENTRAL, true);
  end.setUint16(8, Math.min(count, MAX_16), true);
  end.setUint16(10, Math.min(count, MAX_16), true);
  end.setUint32(12, Math.min(centralSize, MAX_32), true);
  end.setUint32(16, Math.min(offset, MAX_32), true);
  return concat([...parts, ...centrals, ...tail, new Uint8Array(end.buffer)]);
}

/** A zip64 extended-information extra field holding `values` as 8-byte numbers. */
function zip64Extra(values) {
  const view = new DataView(new ArrayBuffer(4 + 8 * values.length));
  view.setUint16(0, ZIP64_EXTRA, true);
  view.setUint16(2, 8 * values.length, true);
  values.forEach((value, i) => view.setBigUint64(4 + 8 * i, BigInt(value), true));
  return new Uint8Array(view.buffer);
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The bytes of a zip (zip64 too) -> [{path, bytes, executable}] for its files (folders dropped). Throws on what it cannot read. */
export async function readZip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfCentral(view);
  let count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const zip64 = findZip64End(view, end);
  if (zip64 !== null) {
    count = safeNumber(view.getBigUint64(zip64 + 32, true));
    at = safeNumber(view.getBigUint64(zip64 + 48, true));
  }
  const decoder = new TextDecoder();
  const files = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > view.byteLength || view.getUint32(at, true) !== CENTRAL_HEADER) {
      throw new Error("not a zip file: its central directory is damaged");
    }
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    let compressedSize = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const madeBy = view.getUint16(at + 4, true) >> 8;
    const mode = view.getUint32(at + 38, true) >>> 16;
    let localOffset = view.getUint32(at + 42, true);
    const path = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (size === MAX_32 || compressedSize === MAX_32 || localOffset === MAX_32) {
      const extra = zip64Field(view, at + 46 + nameLength, extraLength);
      if (extra === null) throw new Error(`${path}: damaged zip64 entry (no zip64 extra field)`);
      let next = 0;
      const take = () => {
        if (next + 8 > extra.length) throw new Error(`${path}: damaged zip64 entry (short zip64 extra field)`);
        const value = safeNumber(view.getBigUint64(extra.start + next, true));
        next += 8;
        return value;
      };
      if (size === MAX_32) size = take();
      if (compressedSize === MAX_32) compressedSize = take();
      if (localOffset === MAX_32) localOffset = take();
    }
    at += 46 + nameLength + extraLength + commentLength;
    if (path.endsWith("/")) continue;
    if (flags & 1) throw new Error(`${path}: encrypted zip entries are not supported`);
    if (localOffset + 30 > view.byteLength || view.getUint32(localOffset, true) !== LOCAL_HEADER) {
      throw new Error(`${path}: damaged zip entry (no local header)`);
    }
    const dataStart = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
    const data = bytes.subarray(dataStart, dataStart + compressedSize);
    const content = await inflate(path, method, data);
    if (content.length !== size || crc32(content) !== crc) {
      throw new Error(`${path}: damaged zip entry (size or CRC-32 does not match)`);
    }
    files.push({ path, bytes: content, executable: madeBy === 3 && (mode & 0o111) !== 0 });
  }
  return files;
}

function safeNumber(big) {
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error("not a zip file this page can read (a zip64 size past 2^53)");
  return Number(big);
}

/** The zip64 end-of-central-directory record's offset, from the locator right before the end record; null when there is none. */
function findZip64End(view, end) {
  const locator = end - 20;
  if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) return null;
  const record = safeNumber(view.getBigUint64(locator + 8, true));
  if (record + 56 > view.byteLength || view.getUint32(record, true) !== ZIP64_END_OF_CENTRAL) {
    throw new Error("not a zip file: its zip64 end of central directory record is damaged");
  }
  return record;
}

/** {start, length} of the zip64 extra field's data among the extra fields at `at`; null when absent. */
function zip64Field(view, at, length) {
  for (let i = at; i + 4 <= at + length; ) {
    const id = view.getUint16(i, true);
    const size = view.getUint16(i + 2, true);
    if (id === ZIP64_EXTRA) return { start: i + 4, length: size };
    i += 4 + size;
  }
  return null;
}

function findEndOfCentral(view) {
  // The record is 22 bytes plus a comment of at most 65535 bytes.
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= lowest; at--) {
    if (view.getUint32(at, true) === END_OF_CENTRAL) return at;
  }
  throw new Error("not a zip file (no end of central directory record)");
}

async function inflate(path, method, data) {
  if (method === 0) return data.slice();
  if (method !== 8) throw new Error(`${path}: zip compression method ${method} is not supported (only stored and deflate)`);
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
