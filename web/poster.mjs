// poster.mjs: where the embed's poster puts a scenario's boxes, before any wasm: the canvas's
// own layout (wasm/view's ComputeLang, layout.go) written again in JavaScript, so that the
// poster shows the picture the canvas draws when the reader presses play, at the same places
// and sizes. It needs the widths of the canvas's font, which lbscope build puts in the page
// with the named scenarios (#lbscope-posters, posters.go). The pure part of embed.js,
// unit-tested in scripts/webtest; a browser test compares it with the canvas's layout().
//
// A change to layout.go's arithmetic is a change here too: TestBrowserEmbedPosterIsTheCanvas
// fails until both agree.

const GLYPH_H = 13;
const HEADER_H = GLYPH_H;
const PRODUCER_H = GLYPH_H + 5;
const TITLE_H = GLYPH_H + 2;
const METER_H = GLYPH_H + 2;
const BROKER_PAD = 3;
const CONSUMER_G = 4;
const TALL_H = 2 * GLYPH_H + 8;
const COMPACT_H = GLYPH_H + 5;
const MAX_CELL_W = 140;
const MAX_CELL_H = 46;
const CELL_ASPECT = 1.75;
const SWATCH_W = 10;
const RING_R = 5;
export const PRESENT_ZOOM = 1.5;

const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);

// textWidth is the width of s in the canvas's font: text.ascii[code − 32] for printable
// ASCII, text.other for anything else (the ideographs' advance).
export function textWidth(text, s) {
  let n = 0;
  for (const ch of String(s)) {
    const c = ch.codePointAt(0);
    n += c >= 32 && c < 127 && text.ascii ? text.ascii[c - 32] || 0 : text.other || 0;
  }
  return n;
}

// naturalCompare orders ids as route.NaturalCompare does: runs of digits by their value.
export function naturalCompare(a, b) {
  let i = 0, j = 0;
  const digit = (c) => c >= 48 && c <= 57;
  while (i < a.length && j < b.length) {
    if (digit(a.charCodeAt(i)) && digit(b.charCodeAt(j))) {
      const si = i, sj = j;
      while (i < a.length && digit(a.charCodeAt(i))) i++;
      while (j < b.length && digit(b.charCodeAt(j))) j++;
      const na = a.slice(si, i).replace(/^0+/, ""), nb = b.slice(sj, j).replace(/^0+/, "");
      if (na.length !== nb.length) return na.length < nb.length ? -1 : 1;
      if (na !== nb) return na < nb ? -1 : 1;
      continue;
    }
    if (a[i] !== b[j]) return a[i] < b[j] ? -1 : 1;
    i++;
    j++;
  }
  if (a.length - i !== b.length - j) return a.length - i < b.length - j ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

// consumerLabel is the text on a consumer's box (view.ConsumerLabel).
export function consumerLabel(id, mark) {
  return id.length <= 8 ? id : mark + ":" + id.slice(0, 5) + "~";
}

function fit(text, s, w) {
  if (textWidth(text, s) <= w) return s;
  const chars = [...s];
  let end = 0;
  for (let k = 1; k <= chars.length; k++) {
    if (textWidth(text, chars.slice(0, k).join("") + "~") > w) break;
    end = k;
  }
  return end ? chars.slice(0, end).join("") + "~" : "";
}

function brokerLabel(text, name, w) {
  if (textWidth(text, name) <= w) return name;
  const i = Math.max(...["-", "_", "@", "."].map((c) => name.lastIndexOf(c)));
  if (i >= 0 && textWidth(text, name.slice(i + 1)) <= w) return name.slice(i + 1);
  return fit(text, name, w);
}

// posterLayout lays shape ({brokers: [{name, queues}], consumers: [{id}], producers: [{id,
// rate}]}) out in a stage of w × h CSS pixels at zoom CSS pixels per layout unit, for the
// words of lang: {zoom, header, producers, brokers, cells, consumers, consumerMode, cellText,
// marks}, every rectangle {x, y, w, h} in layout units.
export function posterLayout(shape, w, h, text, lang, zoom) {
  zoom = zoom > 0 ? zoom : 1;
  const W = w / zoom, H = h / zoom;
  const ids = shape.consumers.map((c) => c.id).sort(naturalCompare);
  const short = ids.every((id) => id.length <= 3 && /^[\x00-\x7f]*$/.test(id));
  const marks = {};
  ids.forEach((id, i) => { marks[id] = { index: i, label: short ? id : String(i + 1) }; });
  const l = { zoom, header: null, producers: [], brokers: [], cells: [], consumers: [], consumerMode: 0, cellText: false, marks, cellW: 0, cellH: 0 };
  const pad = W < 600 || H < 400 ? 4 : 8;
  const inner = { x: pad, y: pad, w: W - 2 * pad, h: H - 2 * pad };
  if (inner.w <= 0 || inner.h <= 0) return l;
  let y = inner.y;
  l.header = { x: inner.x, y, w: inner.w, h: HEADER_H };
  y += HEADER_H + 4;
  const producers = shape.producers || [];
  if (producers.length) {
    layoutProducers(l, text, producers, { x: inner.x, y, w: inner.w, h: PRODUCER_H });
    y += PRODUCER_H + 10;
  }
  const rest = { x: inner.x, y, w: inner.w, h: inner.y + inner.h - y };
  const consH = layoutConsumers(l, text, ids, rest, lang);
  const gap = consH === 0 ? 0 : clamp(0.08 * H, 14, 48);
  layoutBrokers(l, text, shape.brokers, { x: inner.x, y, w: inner.w, h: rest.h - consH - gap });
  return l;
}

function layoutProducers(l, text, ps, r) {
  const labels = ps.map((p) => p.id + " " + p.rate + "/s");
  let total = labels.reduce((n, s) => n + textWidth(text, s) + 10 + CONSUMER_G, 0);
  let w = 0;
  if (total - CONSUMER_G > r.w) {
    w = (r.w + CONSUMER_G) / ps.length - CONSUMER_G;
    total = r.w + CONSUMER_G;
  }
  let x = r.x + (r.w - (total - CONSUMER_G)) / 2;
  ps.forEach((p, i) => {
    const bw = w === 0 ? textWidth(text, labels[i]) + 10 : w;
    l.producers.push({ id: p.id, label: labels[i], x, y: r.y, w: Math.max(bw, 1), h: r.h });
    x += bw + CONSUMER_G;
  });
}

function layoutConsumers(l, text, ids, r, lang) {
  const n = ids.length;
  if (n === 0) return 0;
  let labelW = 0;
  for (const id of ids) labelW = Math.max(labelW, textWidth(text, consumerLabel(id, l.marks[id].label)));
  // The widest status word of lang, "stopped" included (no consumer has restarted at 00:00).
  const statusW = (text.status && text.status[lang === "zh" ? "zh" : "en"]) || 0;
  const modes = [
    { kind: 0, w: Math.max(labelW, statusW) + 8, h: TALL_H, maxFrc: 0.34 },
    { kind: 1, w: labelW + 8 + SWATCH_W, h: COMPACT_H, maxFrc: 0.42 },
  ];
  const rowsOf = (w) => Math.ceil(n / Math.max(1, Math.floor((r.w + CONSUMER_G) / (w + CONSUMER_G))));
  let chosen = null;
  for (const m of modes) {
    if (m.w > r.w) continue;
    if (rowsOf(m.w) * (m.h + CONSUMER_G) - CONSUMER_G <= m.maxFrc * r.h) {
      chosen = m;
      break;
    }
  }
  if (!chosen) {
    chosen = { kind: 2, w: 3, h: 3 };
    for (let size = 16; size >= 3; size--) {
      const w = Math.min(size * 1.4, r.w);
      if (rowsOf(w) * (size + 2) - 2 <= 0.42 * r.h) {
        chosen = { kind: 2, w, h: size };
        break;
      }
    }
  }
  l.consumerMode = chosen.kind;
  const g = chosen.kind === 2 ? 2 : CONSUMER_G;
  const perRow = Math.max(1, Math.floor((r.w + g) / (chosen.w + g)));
  const rows = Math.ceil(n / perRow);
  const height = rows * (chosen.h + g) - g;
  const top = r.y + r.h - height;
  ids.forEach((id, i) => {
    const row = Math.floor(i / perRow), col = i % perRow;
    const inRow = Math.min(perRow, n - row * perRow);
    const rowW = inRow * (chosen.w + g) - g;
    l.consumers.push({ id, x: r.x + (r.w - rowW) / 2 + col * (chosen.w + g), y: top + row * (chosen.h + g), w: chosen.w, h: chosen.h });
  });
  return height;
}

function cellGap(cw, ch) {
  return Math.min(cw, ch) < 8 ? 1 : 2;
}

function layoutBrokers(l, text, brokers, r) {
  const n = brokers.length;
  if (n === 0 || r.w <= 0 || r.h <= 0) return;
  const qmax = Math.max(1, ...brokers.map((b) => b.queues));
  const bgap = 6;
  let best = { score: -1 };
  for (let bc = n; bc >= 1; bc--) {
    const br = Math.ceil(n / bc);
    const bw = (r.w - (bc - 1) * bgap) / bc;
    const bh = (r.h - (br - 1) * bgap) / br;
    const iw = bw - 2 * BROKER_PAD, ih = bh - TITLE_H - 2 * BROKER_PAD;
    if (iw <= 0 || ih <= 0) continue;
    for (let qc = 1; qc <= qmax; qc++) {
      const qr = Math.ceil(qmax / qc);
      const g = cellGap(iw / qc, ih / qr);
      let cw = (iw - (qc - 1) * g) / qc;
      let ch = (ih - (qr - 1) * g) / qr;
      if (cw < 2 || ch < 2) continue;
      cw = Math.min(cw, MAX_CELL_W);
      ch = Math.min(ch, MAX_CELL_H);
      const score = Math.min(cw / CELL_ASPECT, ch);
      if (score > best.score + 1e-9) best = { bc, qc, cw, ch, score };
    }
  }
  if (best.score < 0) return;
  const { bc, qc } = best;
  const qr = Math.ceil(qmax / qc);
  const br = Math.ceil(n / bc);
  const g = cellGap(best.cw, best.ch);
  const cw = Math.floor(best.cw), ch = Math.floor(best.ch);
  const contentW = qc * cw + (qc - 1) * g + 2 * BROKER_PAD;
  const share = (r.w - (bc - 1) * bgap) / bc;
  let nameW = 0;
  for (const b of brokers) nameW = Math.max(nameW, textWidth(text, b.name) + textWidth(text, "+6000") + 2 * BROKER_PAD + 2 * RING_R + 10);
  const bw = Math.max(contentW, Math.min(share, nameW));
  let bh = TITLE_H + 2 * BROKER_PAD + qr * ch + (qr - 1) * g;
  let meter = 0;
  if (br * (bh + METER_H) + (br - 1) * bgap <= r.h) {
    meter = METER_H;
    bh += meter;
  }
  const gapX = bc > 1 ? clamp((r.w - bc * bw) / (bc - 1), bgap, 48) : bgap;
  const gridW = bc * bw + (bc - 1) * gapX;
  const gridH = br * bh + (br - 1) * bgap;
  const x0 = r.x + (r.w - gridW) / 2;
  const y0 = r.y + Math.max(0, (r.h - gridH) / 2);
  l.cellW = cw;
  l.cellH = ch;
  l.cellText = cw >= textWidth(text, "c64") + 2 && ch >= GLYPH_H;
  brokers.forEach((b, i) => {
    const row = Math.floor(i / bc), col = i % bc;
    const box = { name: b.name, label: brokerLabel(text, b.name, bw - 2 * BROKER_PAD - 12), x: x0 + col * (bw + gapX), y: y0 + row * (bh + bgap), w: bw, h: bh, meter };
    l.brokers.push(box);
    const cx0 = box.x + (box.w - contentW) / 2 + BROKER_PAD;
    for (let q = 0; q < b.queues; q++) {
      const c = Math.floor(q / qr), rw = q % qr; // column-major, as the canvas reads a broker
      l.cells.push({ queue: b.name + ":" + q, broker: b.name, x: cx0 + c * (cw + g), y: box.y + TITLE_H + meter + BROKER_PAD + rw * (ch + g), w: cw, h: ch });
    }
  });
}
