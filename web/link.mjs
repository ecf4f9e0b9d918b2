// link.mjs: a share link's fragment as the embed's poster reads it, before any wasm: the
// pure part of embed.js, unit-tested in scripts/webtest. The wasm checks a link properly
// when it opens it; here any doubt means null (the poster then draws the default).
//
// A link is "#s=1." and the base64url of the deflate-raw of {"scenario": {…}, "timeMs": …}.

// MAX_LINK is the longest payload read, in characters.
export const MAX_LINK = 65536;

// linkBytes is the compressed payload of a "#s=1.…" fragment, or null.
export function linkBytes(fragment) {
  const m = /^#s=1\.([A-Za-z0-9_-]+)$/.exec(String(fragment));
  if (!m || m[1].length > MAX_LINK) return null;
  let b64 = m[1].replace(/-/g, "+").replace(/_/g, "/");
  while (b64.length % 4) b64 += "=";
  try {
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  } catch (e) {
    return null; // a length no base64 has
  }
}

// posterShape is what the poster draws of a scenario: its title (a preset's name for the
// presets' titles, "shared" without one), brokers with at most 64 queues each, consumers,
// producers.
export function posterShape(sc) {
  if (!sc || typeof sc !== "object" || !Array.isArray(sc.brokers)) return null;
  const presets = { "Small cluster": "small", "Default cluster": "default", "Large cluster": "large" };
  return {
    title: sc.title ? presets[sc.title] || String(sc.title) : "shared",
    brokers: sc.brokers.map((b) => ({ name: String(b && b.name), queues: Math.max(0, Math.min(64, (b && b.queues) | 0)) })),
    consumers: (Array.isArray(sc.consumers) ? sc.consumers : []).map((c) => ({ id: String(c && c.id) })),
    producers: (Array.isArray(sc.producers) ? sc.producers : []).map((p) => ({ id: String(p && p.id), rate: Math.max(0, (p && p.rate) | 0) })),
  };
}

// linkShape is the poster's shape of a share link's scenario, or null.
export async function linkShape(fragment) {
  const bytes = linkBytes(fragment);
  if (!bytes || typeof DecompressionStream !== "function") return null;
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return posterShape(JSON.parse(await new Response(stream).text()).scenario);
  } catch (e) {
    return null;
  }
}
