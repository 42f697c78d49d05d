/**
 * Writing a ZIP into R2 from files already in R2 (client-zip, stored entries): the length is predicted,
 * so R2 takes the stream as it comes and no file is held in memory. Used by the jobs that hand over many
 * documents as one download (the insureds' documents, the invoices).
 */
import { makeZip, predictLength } from 'client-zip';

export interface StoredZipEntry {
  /** The name inside the ZIP (folders with '/'). */
  name: string;
  /** Its R2 key. */
  key: string;
  size: number;
  lastModified: Date;
}

/** Writes the entries, read one after another from the bucket, as one ZIP object at `key`. Answers its size. */
export async function writeZipToBucket(
  bucket: R2Bucket,
  key: string,
  fileName: string,
  entries: readonly StoredZipEntry[],
): Promise<number> {
  const length = predictLength(
    entries.map((e) => ({ name: e.name, size: e.size, lastModified: e.lastModified })),
  );
  async function* files() {
    for (const e of entries) {
      const object = await bucket.get(e.key);
      if (!object) throw new Error(`A document is missing from storage: ${e.key}`);
      yield { name: e.name, size: e.size, lastModified: e.lastModified, input: object.body };
    }
  }
  const sized = new FixedLengthStream(length);
  const piping = makeZip(files()).pipeTo(sized.writable);
  await Promise.all([
    bucket.put(key, sized.readable, {
      httpMetadata: { contentType: 'application/zip' },
      customMetadata: { name: fileName },
    }),
    piping,
  ]);
  return Number(length);
}
