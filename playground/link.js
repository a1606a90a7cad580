// The page's state in its address: `#s=` + base64url of the deflate-raw
// compressed JSON of the source files and the options, so a copied link
// opens the same source with the same options, and so the same output.

export const LINK_PREFIX = "#s=";
// Above this much source (before compression) no link is written: browsers
// cap addresses at about 2 MB, and compressing on every edit would lag.
export const LINK_SOURCE_LIMIT = 1 << 20;
const FORMAT = 1;

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

async function through(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/**
 * state: {name, example, files: [{path, bytes, executable}], options: {...}}
 * -> the fragment ("#s=...") for it.
 */
export async function linkState(state) {
  const json = JSON.stringify({
    v: FORMAT,
    name: state.name,
    example: state.example,
    files: state.files.map((f) => [f.path, toBase64Url(f.bytes), f.executable ? 1 : 0]),
    options: state.options,
  });
  const packed = await through(new TextEncoder().encode(json), new CompressionStream("deflate-raw"));
  return LINK_PREFIX + toBase64Url(packed);
}

/** The fragment of a link -> the state linkState encoded; null when it holds none; throws when it is damaged. */
export async function readLinkState(hash) {
  if (!hash.startsWith(LINK_PREFIX)) return null;
  let parsed;
  try {
    const json = await through(fromBase64Url(hash.slice(LINK_PREFIX.length)), new DecompressionStream("deflate-raw"));
    parsed = JSON.parse(new TextDecoder().decode(json));
  } catch (err) {
    throw new Error(`the link's source is damaged (${err.message})`);
  }
  if (parsed?.v !== FORMAT || !Array.isArray(parsed.files)) throw new Error("the link's source is of an unknown format");
  return {
    name: String(parsed.name ?? "linked source"),
    example: parsed.example,
    files: parsed.files.map(([path, data, executable]) => ({ path, bytes: fromBase64Url(data), executable: executable === 1 })),
    options: parsed.options ?? {},
  };
}
