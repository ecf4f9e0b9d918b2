// poster.mjs: where the embed's poster puts a scenario's boxes, before any wasm: the canvas's
// own layout (wasm/view's ComputeLang, layout.go) written again in JavaScript, so that the
// poster shows the picture the canvas draws when the reader presses play, at the same places
// and sizes, with the same words on the consumers' boxes (ids.go, palette.go). It needs the
// widths of the canvas's font and of the words its layout makes room for (status words, a
// broker's latency label, the legend button), which lbscope build measures with wasm/view
// and puts in the page with the named scenarios (#lbscope-posters, posters.go). The pure part
// of embed.js, unit-tested in scripts/webtest; a browser test compares it with the canvas's
// layout() and palette().labels.
//
// Each function names the Go function it follows. A change to that arithmetic is a change
// here too: TestBrowserEmbedPosterIsTheCanvas fails until both agree.

// The spacing of layout.go (headerH … swatchW), card.go's meterH and draw.go's
// isolationRingRadius, in layout units.

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

// SHORT_ID, MAX_PART, SUFFIX_SLACK and ID_SEPARATORS are wasm/view's shortID, maxPart,
// suffixSlack and idSeparators (ids.go).
const SHORT_ID = 8;
const MAX_PART = 12;
const SUFFIX_SLACK = 4;
const ID_SEPARATORS = ".@#:-_/";

// bytes is the length of s in UTF-8, Go's len(s): what ids.go measures ids by.
const bytes = (s) => new TextEncoder().encode(s).length;

// distinctParts is view.DistinctParts (ids.go): for each id, the shortest part of it that
// tells it apart from the others ("~@4012" for 10.1.2.3@4012 beside 10.1.2.3@4013).
export function distinctParts(ids) {
  return ids.map((id, i) => distinctPart(ids, i));
}

// distinctPart is view's distinctPart, step for step.
function distinctPart(ids, i) {
  const id = ids[i];
  if (ids.length < 2 || bytes(id) <= SHORT_ID) return id;
  const bounds = [0]; // where the parts begin: the id's start, each separator, its end
  for (let k = 1; k < id.length; k++) if (ID_SEPARATORS.includes(id[k])) bounds.push(k);
  bounds.push(id.length);
  const unique = (w) => ids.every((other, j) => j === i || !other.includes(w));
  const len = (a, b) => bytes(id.slice(bounds[a], bounds[b]));
  const written = (a, b) => (a > 0 ? "~" : "") + id.slice(bounds[a], bounds[b]) + (b < bounds.length - 1 ? "~" : "");
  const last = bounds.length - 1;
  let suffix = -1; // the shortest unique suffix
  for (let a = last - 1; a > 0; a--) {
    if (unique(id.slice(bounds[a]))) {
      suffix = a;
      break;
    }
  }
  let bestA = -1, bestB = -1; // the shortest unique part, the rightmost of equal length
  for (let a = 0; a < last; a++) {
    for (let b = a + 1; b <= last; b++) {
      const n = len(a, b);
      if (bestA >= 0 && n > len(bestA, bestB)) break;
      if (unique(id.slice(bounds[a], bounds[b]))) {
        if (bestA < 0 || n <= len(bestA, bestB)) [bestA, bestB] = [a, b];
        break;
      }
    }
  }
  if (suffix > 0) {
    const n = len(suffix, last);
    if (n <= MAX_PART && (bestA < 0 || n <= len(bestA, bestB) + SUFFIX_SLACK)) return written(suffix, last);
  }
  if (bestA < 0 || (bestA === 0 && bestB === last)) return id;
  return written(bestA, bestB);
}

// marksOf is view's marksOf (palette.go) for ids in natural order: each consumer's index
// (its colour), its label (what its cells carry: the id itself when every id is at most three
// printable ASCII characters, else its 1-based position) and the part of its id that tells it
// apart (DistinctParts).
export function marksOf(ids) {
  const short = ids.every((id) => id.length <= 3 && /^[\x20-\x7e]*$/.test(id));
  const parts = short ? ids : distinctParts(ids);
  const marks = {};
  ids.forEach((id, i) => { marks[id] = { index: i, label: short ? id : String(i + 1), part: parts[i] }; });
  return marks;
}

// consumerLabel is the text on a consumer's box (view.ConsumerLabel, layout.go): its id, or,
// when the id is long, its mark's label and the part of the id that tells it apart
// ("3 ~@4012").
export function consumerLabel(id, mark) {
  if (bytes(id) <= SHORT_ID || mark.label === id) return id;
  return mark.label + " " + (mark.part || id);
}

// fit is view.Fit (mesh.go).
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

// brokerLabel is view's brokerLabel (layout.go).
function brokerLabel(text, name, w) {
  if (textWidth(text, name) <= w) return name;
  const i = Math.max(...["-", "_", "@", "."].map((c) => name.lastIndexOf(c)));
  if (i >= 0 && textWidth(text, name.slice(i + 1)) <= w) return name.slice(i + 1);
  return fit(text, name, w);
}

// posterLayout lays shape ({brokers: [{name, queues}], consumers: [{id}], producers: [{id,
// rate}]}) out in a stage of w × h CSS pixels at zoom CSS pixels per layout unit, for the
// words of lang, as view.ComputeZoom and ComputeLang do: {zoom, header, producers, brokers
// (each with its meter row or null), cells, consumers, consumerMode, cellText, marks}, every
// rectangle {x, y, w, h} in layout units.
export function posterLayout(shape, w, h, text, lang, zoom) {
  zoom = zoom > 0 ? zoom : 1;
  const W = w / zoom, H = h / zoom;
  const ids = shape.consumers.map((c) => c.id).sort(naturalCompare);
  const marks = marksOf(ids);
  const l = { zoom, header: null, producers: [], brokers: [], cells: [], consumers: [], consumerMode: 0, cellText: false, marks, cellW: 0, cellH: 0 };
  const pad = W < 600 || H < 400 ? 4 : 8;
  const inner = { x: pad, y: pad, w: W - 2 * pad, h: H - 2 * pad };
  if (inner.w <= 0 || inner.h <= 0) return l;
  let y = inner.y;
  l.header = { x: inner.x, y, w: inner.w, h: HEADER_H };
  // The header's legend button (legend.go's legendButtonW), where the header has room for it.
  const legendW = ((text.legend && text.legend[lang === "zh" ? "zh" : "en"]) || 0) + 10;
  if (inner.w >= 4 * legendW) l.header.w -= legendW + 8;
  y += HEADER_H + 4;
  const producers = shape.producers || [];
  if (producers.length) {
    layoutProducers(l, text, producers, { x: inner.x, y, w: inner.w, h: PRODUCER_H });
    y += PRODUCER_H + 10;
  }
  const rest = { x: inner.x, y, w: inner.w, h: inner.y + inner.h - y };
  const consH = layoutConsumers(l, text, ids, rest, lang);
  const gap = consH === 0 ? 0 : clamp(0.08 * H, 14, 48);
  layoutBrokers(l, text, shape.brokers, { x: inner.x, y, w: inner.w, h: rest.h - consH - gap }, lang);
  return l;
}

// layoutProducers is view's layoutProducers (layout.go).
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

// layoutConsumers is view's layoutConsumers (layout.go), for a snapshot at 00:00: no consumer
// has restarted.
function layoutConsumers(l, text, ids, r, lang) {
  const n = ids.length;
  if (n === 0) return 0;
  let labelW = 0;
  for (const id of ids) labelW = Math.max(labelW, textWidth(text, consumerLabel(id, l.marks[id])));
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

// cellGap is view's cellGap (layout.go).
function cellGap(cw, ch) {
  return Math.min(cw, ch) < 8 ? 1 : 2;
}

// layoutBrokers is view's layoutBrokers (layout.go).
function layoutBrokers(l, text, brokers, r, lang) {
  const n = brokers.length;
  if (n === 0 || r.w <= 0 || r.h <= 0) return;
  const qmax = Math.max(1, ...brokers.map((b) => b.queues));
  const bgap = 6;
  // search is layoutBrokers' search: the fit with the largest readable cells when each block
  // gives meter units of its height to a meter row.
  const search = (meter) => {
    let best = { score: -1 };
    for (let bc = n; bc >= 1; bc--) {
      const br = Math.ceil(n / bc);
      const bw = (r.w - (bc - 1) * bgap) / bc;
      const bh = (r.h - (br - 1) * bgap) / br;
      const iw = bw - 2 * BROKER_PAD, ih = bh - TITLE_H - meter - 2 * BROKER_PAD;
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
    return best;
  };
  // The meter row is worth a little of the cells' size: they keep their labels, or 85% of it.
  let best = search(0);
  const m = search(METER_H);
  if (m.score >= 0 && (m.score >= 0.85 * best.score || (Math.floor(m.cw) >= textWidth(text, "c64") + 2 && Math.floor(m.ch) >= GLYPH_H))) best = m;
  if (best.score < 0) return;
  const { bc, qc } = best;
  const qr = Math.ceil(qmax / qc);
  const br = Math.ceil(n / bc);
  const g = cellGap(best.cw, best.ch);
  const cw = Math.floor(best.cw), ch = Math.floor(best.ch);
  const contentW = qc * cw + (qc - 1) * g + 2 * BROKER_PAD;
  const share = (r.w - (bc - 1) * bgap) / bc;
  let nameW = 0;
  // The name, a latency label ("+" and canvas.ms of 6000, whose width the page is given) and
  // the isolation ring side by side.
  const latencyW = (text.latency && text.latency[lang === "zh" ? "zh" : "en"]) || 0;
  for (const b of brokers) nameW = Math.max(nameW, textWidth(text, b.name) + latencyW + 2 * BROKER_PAD + 2 * RING_R + 10);
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
    const box = { name: b.name, label: brokerLabel(text, b.name, bw - 2 * BROKER_PAD - 12), x: x0 + col * (bw + gapX), y: y0 + row * (bh + bgap), w: bw, h: bh, meter: null };
    // The meter row under the title (BrokerBox.Meter), where the height spares one.
    if (meter > 0) box.meter = { x: box.x + BROKER_PAD, y: box.y + TITLE_H, w: bw - 2 * BROKER_PAD, h: meter };
    l.brokers.push(box);
    const cx0 = box.x + (box.w - contentW) / 2 + BROKER_PAD;
    for (let q = 0; q < b.queues; q++) {
      const c = Math.floor(q / qr), rw = q % qr; // column-major, as the canvas reads a broker
      l.cells.push({ queue: b.name + ":" + q, broker: b.name, x: cx0 + c * (cw + g), y: box.y + TITLE_H + meter + BROKER_PAD + rw * (ch + g), w: cw, h: ch });
    }
  });
}
