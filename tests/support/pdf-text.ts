/**
 * The text of a PDF as a reader's copy-and-paste gives it, for the PDFs our Worker writes: each page's
 * content stream is read for its text operators (`Tf` to choose a font, `Tj` / `TJ` to show glyphs), and
 * each font's ToUnicode map turns glyph ids back into characters. Works in workerd (domain tests) and
 * Node (browser tests). Texts drawn one after another are joined without a separator. A name that prints as boxes (a glyph missing from the font) reads back as
 * nothing, so the check is real. Not a general PDF text extractor: it reads what pdf-lib writes.
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  decodePDFRawStream,
} from '@cantoo/pdf-lib';

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join('');

function hexToString(hex: string): string {
  let out = '';
  for (let i = 0; i + 4 <= hex.length; i += 4) out += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  return out;
}

/** A ToUnicode CMap: glyph code (hex) to text. */
function parseCMap(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      map.set(m[1].toLowerCase(), hexToString(m[2]));
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const from = parseInt(m[1], 16);
      const to = parseInt(m[2], 16);
      const width = m[1].length;
      if (m[3].startsWith('[')) {
        const items = [...m[3].matchAll(/<([0-9a-fA-F]+)>/g)].map((x) => hexToString(x[1]));
        for (let c = from; c <= to; c++) map.set(c.toString(16).padStart(width, '0'), items[c - from] ?? '');
      } else {
        const base = parseInt(m[3].slice(1, -1), 16);
        for (let c = from; c <= to; c++)
          map.set(c.toString(16).padStart(width, '0'), String.fromCodePoint(base + (c - from)));
      }
    }
  return map;
}

function streamText(doc: PDFDocument, value: unknown): string {
  const obj = value instanceof PDFRef ? doc.context.lookup(value) : value;
  if (obj instanceof PDFRawStream) return latin1(decodePDFRawStream(obj).decode());
  if (obj instanceof PDFArray)
    return obj
      .asArray()
      .map((v) => streamText(doc, v))
      .join('\n');
  return '';
}

/** The text of every page, one string per page (runs of one font joined as drawn). */
export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return doc.getPages().map((page) => {
    const fonts = new Map<string, Map<string, string>>();
    const resources = page.node.Resources();
    const fontDict = resources?.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const [name, ref] of fontDict?.entries() ?? []) {
      const font = doc.context.lookup(ref, PDFDict);
      const toUnicode = font.get(PDFName.of('ToUnicode'));
      fonts.set(name.asString(), toUnicode ? parseCMap(streamText(doc, toUnicode)) : new Map());
    }
    const content = streamText(doc, page.node.get(PDFName.of('Contents')));
    let current = new Map<string, string>();
    let out = '';
    for (const m of content.matchAll(/(\/[^\s/]+)\s+[\d.]+\s+Tf|<([0-9a-fA-F]*)>\s*Tj|\[([^\]]*)\]\s*TJ/g)) {
      if (m[1]) current = fonts.get(m[1]) ?? new Map();
      else if (m[2] !== undefined || m[3] !== undefined) {
        const hexes = m[2] !== undefined ? [m[2]] : [...m[3].matchAll(/<([0-9a-fA-F]*)>/g)].map((x) => x[1]);
        for (const hex of hexes)
          for (let i = 0; i + 4 <= hex.length; i += 4)
            out += current.get(hex.slice(i, i + 4).toLowerCase()) ?? '';
      }
    }
    return out;
  });
}
