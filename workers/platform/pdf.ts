/**
 * PDF documents made inside the Worker (@cantoo/pdf-lib with @cantoo/fontkit), written with an embedded
 * Unicode font so that any name prints as it is spelled (Łukasz, Seán, Zoë, 王芳).
 *
 * The fonts are static assets (public/fonts, Noto Sans, SIL Open Font License), never part of the
 * JavaScript bundle: Noto Sans in per-script files (latin, latin-ext, greek, cyrillic; regular and bold)
 * and Noto Sans SC in about a hundred small per-range files, of which a document loads only those its
 * characters need. public/fonts/manifest.json says which code points each file covers (the
 * unicode-range of its @font-face). Files are fetched once per isolate; each document embeds
 * a subset of the glyphs it uses, so a card with a Chinese name stays a few tens of kilobytes.
 */
import type { PDFDocument, PDFFont, PDFPage, RGB } from '@cantoo/pdf-lib';

// The PDF library and fontkit (about 1.5 MB of JavaScript, whose module set-up decompresses fontkit's
// Unicode tables and pdf-lib's standard font metrics) are loaded by the first document an isolate
// writes, never at the Worker's start: every import of them is a type import or this dynamic one.
let library: Promise<{ PDFDocument: typeof PDFDocument; fontkit: unknown }> | null = null;
function loadLibrary() {
  if (!library) {
    library = Promise.all([import('@cantoo/pdf-lib'), import('@cantoo/fontkit')]).then(([lib, kit]) => ({
      PDFDocument: lib.PDFDocument,
      fontkit: kit.default,
    }));
    library.catch(() => (library = null));
  }
  return library;
}

/** A colour as pdf-lib's `rgb()` makes it (components 0 to 1), without loading the library. */
export function rgb(red: number, green: number, blue: number): RGB {
  for (const c of [red, green, blue])
    if (!(c >= 0 && c <= 1)) throw new RangeError(`A colour component must be 0 to 1, not ${c}`);
  return { type: 'RGB', red, green, blue } as unknown as RGB;
}

type Ranges = [number, number][];
interface FontManifest {
  regular: Record<string, Ranges>;
  bold: Record<string, Ranges>;
  cjk: Record<string, Ranges>;
}
export type FontWeight = 'regular' | 'bold';

/** Reads a static asset's bytes (the Worker's ASSETS binding). */
export type AssetReader = (path: string) => Promise<Uint8Array>;

/** The reader of the Worker's static assets; fails when the binding is missing. */
export function assetReader(assets: Fetcher | undefined): AssetReader {
  return async (path) => {
    if (!assets) throw new Error('The ASSETS binding is missing: fonts cannot be read.');
    const response = await assets.fetch(`https://assets.local${path}`);
    if (!response.ok) throw new Error(`Static asset ${path}: ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}

// Per isolate: the manifest and the bytes of each font file. fontkit parses the (small) files again for
// each document: a parse shared between documents lost glyphs once a later document subset the same font
// (a letter vanished from the second certificate), so sharing it is not worth its few milliseconds.
let manifest: Promise<FontManifest> | null = null;
const files = new Map<string, Promise<Uint8Array>>();

function loadManifest(read: AssetReader): Promise<FontManifest> {
  manifest ??= read('/fonts/manifest.json')
    .then((b) => JSON.parse(new TextDecoder().decode(b)) as FontManifest)
    .catch((e) => {
      manifest = null;
      throw e;
    });
  return manifest;
}

function loadFile(read: AssetReader, name: string): Promise<Uint8Array> {
  let bytes = files.get(name);
  if (!bytes) {
    bytes = read(`/fonts/${name}`);
    bytes.catch(() => files.delete(name));
    files.set(name, bytes);
  }
  return bytes;
}

const covers = (ranges: Ranges, cp: number) => ranges.some(([a, b]) => cp >= a && cp <= b);

/** Basic Latin first: the file most text is in. */
function ordered(map: Record<string, Ranges>): [string, Ranges][] {
  return Object.entries(map).sort(([a], [b]) => rank(a) - rank(b));
}
const rank = (name: string) =>
  ['-latin-4', '-latin-7', '-latin-ext', '-greek', '-cyrillic'].findIndex((p) => name.includes(p)) + 1 || 9;

/** The font file that draws `cp` in `weight` (CJK in the regular weight only), or null when none does. */
function fileFor(m: FontManifest, weight: FontWeight, cp: number): string | null {
  for (const [name, ranges] of ordered(m[weight])) if (covers(ranges, cp)) return name;
  for (const [name, ranges] of Object.entries(m.cjk)) if (covers(ranges, cp)) return name;
  return null;
}

// The answers of fileFor per manifest, weight and code point (a long invoice asks for the same letters
// tens of thousands of times).
const fileMemo = new WeakMap<FontManifest, Record<FontWeight, Map<number, string | null>>>();
function fileForMemo(m: FontManifest, weight: FontWeight, cp: number): string | null {
  let memo = fileMemo.get(m);
  if (!memo) fileMemo.set(m, (memo = { regular: new Map(), bold: new Map() }));
  const known = memo[weight].get(cp);
  if (known !== undefined) return known;
  const name = fileFor(m, weight, cp);
  memo[weight].set(cp, name);
  return name;
}

/** A run of text drawn with one font. */
export interface TextRun {
  text: string;
  font: PDFFont;
}

/**
 * A PDF being written, with the fonts it needs: `runs(text, weight)` cuts a text into runs of one font
 * each (a file is fetched and embedded the first time a character needs it).
 */
export class PdfWriter {
  private embedded = new Map<string, Promise<PDFFont>>();
  private constructor(
    readonly doc: PDFDocument,
    private readonly read: AssetReader,
    private readonly m: FontManifest,
  ) {}

  static async create(read: AssetReader, info: { title: string; author: string; now: Date }) {
    const { PDFDocument, fontkit } = await loadLibrary();
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.registerFontkit(fontkit as Parameters<PDFDocument['registerFontkit']>[0]);
    doc.setTitle(info.title);
    doc.setAuthor(info.author);
    doc.setCreator(info.author);
    doc.setProducer(info.author);
    doc.setCreationDate(info.now);
    doc.setModificationDate(info.now);
    return new PdfWriter(doc, read, await loadManifest(read));
  }

  private font(name: string): Promise<PDFFont> {
    let font = this.embedded.get(name);
    if (!font) {
      font = loadFile(this.read, name).then((bytes) => this.doc.embedFont(bytes, { subset: true }));
      this.embedded.set(name, font);
    }
    return font;
  }

  /** The runs of `text`: consecutive characters drawn by the same font file. */
  async runs(text: string, weight: FontWeight = 'regular'): Promise<TextRun[]> {
    const fallback = fileForMemo(this.m, weight, 0x20)!;
    const parts: { name: string; text: string }[] = [];
    for (const ch of text) {
      const name = fileForMemo(this.m, weight, ch.codePointAt(0)!) ?? fallback;
      const last = parts[parts.length - 1];
      if (last && last.name === name) last.text += ch;
      else parts.push({ name, text: ch });
    }
    return Promise.all(parts.map(async (p) => ({ text: p.text, font: await this.font(p.name) })));
  }

  save(): Promise<Uint8Array> {
    return this.doc.save({ useObjectStreams: false });
  }
}

/** The width of runs at a size. */
export function runsWidth(runs: TextRun[], size: number): number {
  return runs.reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, size), 0);
}

// ---------------------------------------------------------------- direct content streams

/** A font's glyphs as written straight into a content stream: hex code and width per 1000 units. */
interface FastGlyph {
  hex: string;
  w: number;
}

interface SubsetEmbedder {
  font: {
    glyphForCodePoint(cp: number): { id: number; advanceWidth: number };
  };
  scale: number;
  subset: { includeGlyph(glyph: unknown): number };
  glyphs: unknown[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
}
interface StandardEmbedder {
  encoding: { encodeUnicodeCodePoint(cp: number): { code: number; name: string } };
  font: { getWidthOfGlyph(name: string): number | undefined };
}

/**
 * Text written straight into a page's content stream, one operator string per page, instead of
 * pdf-lib's drawText (which builds objects per call and lays every text out with fontkit: about 8 s for
 * an invoice of 5000 lines). An embedded font's characters are mapped through its cmap once each and
 * added to the document's subset as pdf-lib's own encoder does; widths are the glyphs' advance widths,
 * which is what pdf-lib measures too. No shaping: fit for the Latin, Greek, Cyrillic and CJK files the
 * fonts manifest holds (no script there needs contextual forms); a ligature (fi) prints as its letters.
 */
export class FastText {
  private glyphs = new Map<PDFFont, Map<number, FastGlyph>>();
  private keys = new Map<PDFFont, string>();
  private ops: string[] = [];
  private page: PDFPage | null = null;

  /** Starts writing on `page` (writes what was written on the previous page first). */
  begin(page: PDFPage) {
    this.flush();
    this.page = page;
  }

  private table(font: PDFFont): Map<number, FastGlyph> {
    let t = this.glyphs.get(font);
    if (!t) this.glyphs.set(font, (t = new Map()));
    return t;
  }

  private glyph(font: PDFFont, cp: number): FastGlyph {
    const t = this.table(font);
    let g = t.get(cp);
    if (g) return g;
    const e = (font as unknown as { embedder: SubsetEmbedder | StandardEmbedder }).embedder;
    if ('subset' in e) {
      const glyph = e.font.glyphForCodePoint(cp);
      const id = e.subset.includeGlyph(glyph);
      e.glyphs[id - 1] = glyph;
      e.glyphIdMap.set(glyph.id, id);
      e.glyphCache.invalidate();
      g = { hex: id.toString(16).padStart(4, '0'), w: glyph.advanceWidth * e.scale };
    } else {
      const { code, name } = e.encoding.encodeUnicodeCodePoint(cp);
      g = { hex: code.toString(16).padStart(2, '0'), w: e.font.getWidthOfGlyph(name) || 250 };
    }
    t.set(cp, g);
    return g;
  }

  /** The width of `text` in `font` at `size` (advance widths). */
  width(font: PDFFont, text: string, size: number): number {
    let w = 0;
    for (const ch of text) w += this.glyph(font, ch.codePointAt(0)!).w;
    return (w * size) / 1000;
  }

  /** The width of runs at a size. */
  runsWidth(runs: TextRun[], size: number): number {
    return runs.reduce((w, r) => w + this.width(r.font, r.text, size), 0);
  }

  /** Writes `text` in `font` with its baseline starting at (x, y), in the colour set by `color`. */
  draw(font: PDFFont, text: string, x: number, y: number, size: number, color: [number, number, number]) {
    let hex = '';
    for (const ch of text) hex += this.glyph(font, ch.codePointAt(0)!).hex;
    this.ops.push(
      `BT ${color.map(n).join(' ')} rg /${this.key(font)} ${n(size)} Tf ${n(x)} ${n(y)} Td <${hex}> Tj ET`,
    );
  }

  private key(font: PDFFont): string {
    let k = this.keys.get(font);
    if (!k) {
      k = this.page!.node.newFontDictionary(font.name, font.ref).asString().slice(1);
      this.keys.set(font, k);
    }
    return k;
  }

  /**
   * Adds what was written to the page as one content stream, compressed by the runtime's own deflate
   * (CompressionStream) rather than pdf-lib's JavaScript one; `done()` waits for every page's.
   */
  flush() {
    if (this.page && this.ops.length) {
      const page = this.page;
      const ctx = page.doc.context;
      const ref = ctx.nextRef();
      page.node.addContentStream(ref);
      const text = `q\n${this.ops.join('\n')}\nQ\n`;
      this.pending.push(
        deflate(new TextEncoder().encode(text)).then((bytes) =>
          ctx.assign(ref, ctx.stream(bytes, { Filter: 'FlateDecode' })),
        ),
      );
    }
    this.ops = [];
    this.keys.clear();
  }

  private pending: Promise<void>[] = [];

  /** Writes the last page and waits until every page's stream is in the document. */
  async done() {
    this.flush();
    await Promise.all(this.pending);
    this.pending = [];
  }
}

/** zlib deflate (PDF's FlateDecode) by the runtime. */
async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const out = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** A number as a content stream writes it (at most 3 decimals). */
const n = (v: number) => String(Math.round(v * 1000) / 1000);
