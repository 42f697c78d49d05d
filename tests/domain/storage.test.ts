import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../workers/domain/errors';
import {
  checkUpload,
  cleanFileName,
  contentDisposition,
  deleteFile,
  fileKey,
  fileResponse,
  getFile,
  putFile,
  sniffContentType,
  sniffFileKind,
} from '../../workers/platform/storage';
import {
  docxBytes,
  exeBytes,
  fileOf,
  jpgBytes,
  pdfBytes,
  pngBytes,
  xlsxBytes,
  zipBytes,
} from '../support/files';

async function uploadError(
  file: unknown,
  allowed: Parameters<typeof checkUpload>[1]['allowed'],
  maxMb?: number,
) {
  try {
    await checkUpload(file, { field: 'file', allowed, maxMb });
  } catch (e) {
    if (e instanceof ValidationFailed) return e.errors[0];
    throw e;
  }
  return null;
}

describe('file type by content', () => {
  it('recognises pdf, png, jpg, docx and xlsx by their bytes', () => {
    expect(sniffFileKind(pdfBytes())).toBe('pdf');
    expect(sniffFileKind(pngBytes())).toBe('png');
    expect(sniffFileKind(jpgBytes())).toBe('jpg');
    expect(sniffFileKind(docxBytes())).toBe('docx');
    expect(sniffFileKind(xlsxBytes())).toBe('xlsx');
    expect(sniffContentType(pdfBytes())).toBe('application/pdf');
  });

  it('does not accept a zip that is not an Office file, nor an executable', () => {
    expect(sniffFileKind(zipBytes({ 'notes.txt': 'hello' }))).toBeNull();
    expect(sniffFileKind(exeBytes())).toBeNull();
  });

  it('judges by content, not by the name: an executable named .pdf is refused', async () => {
    const error = await uploadError(fileOf(exeBytes(), 'policy.pdf', 'application/pdf'), ['pdf', 'png']);
    expect(error).toEqual({ key: 'file', message: 'files.type_not_allowed|{"types":"pdf, png"}' });
  });
});

describe('upload limits', () => {
  it('refuses a file over the limit with "File cannot be larger than {n}MB"', async () => {
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(pdfBytes());
    const error = await uploadError(fileOf(big, 'big.pdf'), ['pdf'], 1);
    expect(error?.message).toBe('validation.file_too_large|{"size":1}');
  });

  it('refuses an empty file and a missing file', async () => {
    expect((await uploadError(fileOf(new Uint8Array(), 'empty.pdf'), ['pdf']))?.message).toBe('files.empty');
    expect((await uploadError(null, ['pdf']))?.message).toBe('validation.required');
    expect((await uploadError('text', ['pdf']))?.message).toBe('validation.required');
  });

  it('accepts an allowed file and keeps its name without any path', async () => {
    const checked = await checkUpload(fileOf(pdfBytes(), 'C:\\Users\\me\\Policy "wording".pdf'), {
      field: 'file',
      allowed: ['pdf'],
    });
    expect(checked.kind).toBe('pdf');
    expect(checked.contentType).toBe('application/pdf');
    expect(checked.name).toBe('Policy wording.pdf');
  });
});

describe('R2 objects', () => {
  it('stores, reads back, downloads with its name and deletes an object', async () => {
    const bytes = pdfBytes('round trip');
    const key = fileKey('tests/abc', 'Résumé de garantie.pdf');
    expect(key).toMatch(/^tests\/abc\/[0-9a-z]{14}-R-sum-de-garantie\.pdf$/);
    await putFile(env.FILES, key, { bytes, contentType: 'application/pdf', name: 'Résumé de garantie.pdf' });

    const read = await getFile(env.FILES, key);
    expect(read?.contentType).toBe('application/pdf');
    expect(new TextDecoder().decode(read!.bytes)).toContain('round trip');

    const response = await fileResponse(env.FILES, key, { name: 'Résumé de garantie.pdf' });
    expect(response?.headers.get('content-disposition')).toBe(
      `attachment; filename="R_sum_ de garantie.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20de%20garantie.pdf`,
    );
    expect(response?.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new TextDecoder().decode(await response!.arrayBuffer())).toContain('round trip');

    await deleteFile(env.FILES, key);
    expect(await getFile(env.FILES, key)).toBeNull();
    expect(await fileResponse(env.FILES, key, { name: 'x.pdf' })).toBeNull();
    await deleteFile(env.FILES, key); // deleting again is not an error
  });

  it('cleans names for headers', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('')).toBe('file');
    expect(contentDisposition('a"b.pdf')).toContain('filename="ab.pdf"');
  });
});
