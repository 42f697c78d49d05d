/**
 * CSV as RFC 4180 says (quoted fields with "" inside, line breaks inside quotes, CRLF or LF), with what
 * spreadsheet programs add in practice: a byte-order mark, UTF-16 ("Unicode text"), Windows-1252 from
 * an older Excel "CSV" save, and ; or tab as the separator where the comma is the decimal mark.
 */

export class CsvError extends Error {}

/** The text of a CSV file: UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The separator of a CSV: whichever of , ; or tab appears most in its first line (outside quotes). */
export function detectDelimiter(text: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length && i < 64 * 1024; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  const best = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
  return best[1] > 0 ? best[0] : ',';
}

/**
 * Parses CSV text into rows of fields. A quote that is never closed is an error (the rest of the file
 * would silently become one cell). A quote inside an unquoted field is kept as a character.
 */
export function parseCsv(text: string, delimiter = detectDelimiter(text)): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  const n = text.length;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < n) {
    const ch = text[i];
    if (ch === '"' && field === '') {
      // A quoted field: runs to the closing quote; "" is one quote.
      let j = i + 1;
      let value = '';
      for (;;) {
        const close = text.indexOf('"', j);
        if (close < 0) throw new CsvError('Unterminated quoted field');
        value += text.slice(j, close);
        if (text[close + 1] === '"') {
          value += '"';
          j = close + 2;
          continue;
        }
        j = close + 1;
        break;
      }
      field = value;
      // Anything between the closing quote and the separator is kept (lenient, like spreadsheet programs).
      while (j < n && text[j] !== delimiter && text[j] !== '\n' && text[j] !== '\r') field += text[j++];
      i = j;
      continue;
    }
    if (ch === delimiter) {
      endField();
      i++;
    } else if (ch === '\n' || ch === '\r') {
      endRow();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      // Plain run of characters up to the next special one.
      let j = i;
      while (j < n && text[j] !== delimiter && text[j] !== '\n' && text[j] !== '\r') j++;
      field += text.slice(i, j);
      i = j;
    }
  }
  if (field !== '' || row.length) endRow();
  return rows;
}
