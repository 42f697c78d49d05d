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
import fontkit from '@cantoo/fontkit';
import { PDFDocument, type PDFFont } from '@cantoo/pdf-lib';

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
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.registerFontkit(fontkit);
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
    const fallback = fileFor(this.m, weight, 0x20)!;
    const parts: { name: string; text: string }[] = [];
    for (const ch of text) {
      const name = fileFor(this.m, weight, ch.codePointAt(0)!) ?? fallback;
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
