// The import benchmark's pieces: the sheet a school sends, signing in, and one import timed from upload
// to review-ready. Used by import.mjs (figures) and profile-import.mjs (a CPU profile inside workerd).
import ExcelJS from 'exceljs';
import { lastPin } from './server.mjs';

export const ROWS = Number(process.env.BENCH_ROWS ?? 5000);

const day = (n) => new Date(Date.now() + n * 86_400_000);
const uk = (d) =>
  `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
const letters = (n) =>
  n < 26 ? 'abcdefghijklmnopqrstuvwxyz'[n] : letters(Math.floor(n / 26) - 1) + letters(n % 26);
const cap = (s) => s[0].toUpperCase() + s.slice(1);
const NATIONALITIES = ['France', 'ES', 'Italy', 'DE', 'Chinese', 'Japan', 'BR', 'Mexico', 'Korea', 'Türkiye'];

/** The sheet a school sends: its own headers, date cells and typed dates, 3 % bad rows. */
export async function benchSheet(rows = ROWS) {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('Intake 2027');
  ws.addRow([
    'Type',
    'Given name',
    'Surname',
    'D.O.B.',
    'Sex',
    'E-mail',
    'Personal email',
    'Mobile',
    'Passport No.',
    'Nationality',
    'Arrival date',
    'Departure',
    'Accommodation address',
    'Student ID',
    'Year of study',
    'Group Leader',
    'Group',
    'Dietary notes',
  ]);
  const start = day(30);
  const end = day(120);
  for (let i = 0; i < rows; i++) {
    const row = i + 2;
    const leader = i % 250 === 0;
    const family = !leader && i % 25 === 1;
    const values = [
      leader ? 'Group Leader' : family ? 'Immediate family' : 'Student',
      `${cap(letters(i % 700))}a`,
      `Family${cap(letters(Math.floor(i / 3)))}`,
      leader
        ? '03/04/1980'
        : i % 2
          ? new Date(Date.UTC(2008, i % 12, 1 + (i % 28)))
          : `${String(1 + (i % 28)).padStart(2, '0')}/06/2008`,
      i % 3 ? 'M' : 'Female',
      `applicant${row}@oakwood.test`,
      i % 5 ? '' : `home${row}@example.test`,
      `+44 7700 9${String(i).padStart(5, '0')}`,
      `P${1000000 + row}`,
      NATIONALITIES[i % NATIONALITIES.length],
      i % 2 ? start : uk(start),
      i % 2 ? end : uk(end),
      `${row} High Street, Oxford`,
      `S${row}`,
      String(1 + (i % 4)),
      leader ? 'Yes' : `leader${Math.floor(i / 250) * 250 + 2}@oakwood.test`,
      `Group ${Math.floor(i / 250) + 1}`,
      i % 9 ? '' : 'vegetarian',
    ];
    if (leader) values[5] = `leader${row}@oakwood.test`;
    // About 3 % bad rows: an impossible date, an unknown country, a name with digits.
    if (i % 97 === 5) values[3] = '31/02/2008';
    if (i % 89 === 7) values[9] = 'Atlantis';
    if (i % 101 === 9) values[1] = 'R2D2';
    ws.addRow(values);
  }
  for (const c of [4, 11, 12]) ws.getColumn(c).numFmt = 'dd/mm/yyyy';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function json(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${res.status}: ${text.slice(0, 300)}`);
  }
}

export async function signIn(base, email) {
  const headers = { 'content-type': 'application/json' };
  const body = { email, password: 'Demo-Passw0rd!' };
  await fetch(`${base}/api/company/auth/sign-in`, { method: 'POST', headers, body: JSON.stringify(body) });
  const pin = await lastPin(base, email);
  const answer = await json(
    await fetch(`${base}/api/company/auth/sign-in`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, pin }),
    }),
  );
  return answer.data.token;
}

/**
 * Upload → mapping → staging job → review ready; answers the milliseconds, their parts and the import.
 * The end is the server's own time of the moment the staging job finished (its clock is this machine's),
 * so the progress polls neither slow the single-threaded local Worker nor round the figure up to the
 * next poll; they come every 200 ms (the page polls every second).
 */
export async function importOnce(base, token, campus, contract, file) {
  const auth = { authorization: `Bearer ${token}` };
  const t0 = performance.now();
  const wall0 = Date.now();
  const parts = {};
  const form = new FormData();
  form.set('contract_id', contract);
  form.set('file', new Blob([file]), 'intake.xlsx');
  const up = await json(
    await fetch(`${base}/api/company/campuses/${campus}/policies/preview/batch`, {
      method: 'POST',
      headers: auth,
      body: form,
    }),
  );
  if (!up.data) throw new Error(JSON.stringify(up));
  parts.upload = performance.now() - t0;
  const imp = up.data.import;
  const columns = imp.headers.map((_, i) => imp.mapping[String(i)] ?? null);
  const started = await json(
    await fetch(`${base}/api/company/imports/${imp.id}/mapping`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ columns, date_order: 'dmy' }),
    }),
  );
  if (!started.data) throw new Error(JSON.stringify(started));
  parts.mapping = performance.now() - t0 - parts.upload;
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const p = (await json(await fetch(`${base}/api/company/imports/${imp.id}/progress`, { headers: auth })))
      .data.progress;
    if (p.status === 'failed') throw new Error(`Import failed: ${p.message}`);
    if (p.status === 'review' && p.finished_at) {
      const ms = Date.parse(p.finished_at) - wall0;
      parts.staging = ms - parts.upload - parts.mapping;
      return { ms, parts, view: { total: p.total, errors: p.errors } };
    }
  }
}

/** Signs the demo school's admin in; answers the token, its North campus and the campus's first contract. */
export async function orderPlace(base) {
  const token = await signIn(base, 'school.admin@demo.test');
  const auth = { authorization: `Bearer ${token}` };
  const campuses = await json(await fetch(`${base}/api/company/campuses/fetch?items=50`, { headers: auth }));
  const campus = campuses.data.campuses.items.find((c) => /North/.test(c.name));
  const contracts = await json(
    await fetch(`${base}/api/company/campuses/${campus.id}/contracts`, { headers: auth }),
  );
  return { token, campus: campus.id, contract: contracts.data.contracts.items[0].id };
}
