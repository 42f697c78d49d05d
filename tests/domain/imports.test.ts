import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../workers/domain/errors';
import { parseCsv, decodeText, detectDelimiter } from '../../workers/domain/imports/csv';
import { checkSheetFile, readSheet } from '../../workers/domain/imports/files';
import { readCentralDirectory } from '../../workers/platform/zip';
import {
  diceCoefficient,
  matchHeader,
  normaliseHeader,
  rememberedMapping,
  suggestMapping,
  toMapping,
} from '../../workers/domain/imports/matching';
import {
  CountryIndex,
  guessDateOrder,
  normaliseGender,
  normaliseType,
  parseDate,
  readRow,
  sourceCells,
  sourceHeaders,
} from '../../workers/domain/imports/normalise';
import { mappingErrors } from '../../workers/domain/imports/service';
import { BASE_COUNTRIES as COUNTRIES } from '../../drizzle/seed/countries';
import { csvOf, deflateRaw, fileOf, rawZip, storedEntry, xlsxOf } from '../support/sheets';
import { pdfBytes, zipBytes } from '../support/files';

/** The field error message a file check refuses with. */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  const e = await run().then(
    () => null,
    (x) => x,
  );
  expect(e).toBeInstanceOf(ValidationFailed);
  expect((e as ValidationFailed).errors[0]!.key).toBe('file');
  return (e as ValidationFailed).errors[0]!.message;
}

const read = async (file: File) => readSheet(await checkSheetFile(file));
const HEADER = ['First Name', 'Last Name', 'Date of Birth'];

describe('file checks', () => {
  it("says 'File cannot be empty.' for an empty file, and for a CSV of blanks", async () => {
    expect(await refusal(() => read(fileOf(new Uint8Array(), 'a.csv')))).toBe('imports.errors.empty');
    expect(await refusal(() => read(fileOf(' \r\n \r\n', 'a.csv')))).toBe('imports.errors.empty');
  });

  it("refuses a file over 10 MB with 'File cannot be larger than 10MB'", async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x41);
    expect(await refusal(() => read(fileOf(big, 'big.csv')))).toBe('validation.file_too_large|{"size":10}');
  });

  it('checks the type by content, not by name: a PDF called .csv, a Word file and an old .xls are refused', async () => {
    expect(await refusal(() => read(fileOf(pdfBytes(), 'applicants.csv')))).toBe('imports.errors.format');
    const docx = zipBytes({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' });
    expect(await refusal(() => read(fileOf(docx, 'applicants.xlsx')))).toBe('imports.errors.format');
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(await refusal(() => read(fileOf(xls, 'applicants.xls')))).toBe('imports.errors.format');
    const binary = new Uint8Array(2000).map((_, i) => (i * 7) % 256);
    expect(await refusal(() => read(fileOf(binary, 'applicants.csv')))).toBe('imports.errors.format');
  });

  it("says 'Uploaded file has incorrect format.' when name and content disagree; the content decides only without an extension", async () => {
    const xlsx = await xlsxOf([HEADER, ['Ana', 'Silva', '01/02/2008']]);
    const csv = csvOf([HEADER, ['Ana', 'Silva', '01/02/2008']]);
    expect(await refusal(() => read(fileOf(xlsx, 'applicants.csv')))).toBe('imports.errors.format');
    expect(await refusal(() => read(fileOf(csv, 'applicants.xlsx')))).toBe('imports.errors.format');
    expect(await refusal(() => read(fileOf('First Name,Last Name\nAna,Silva\n', 'roster.xlsx')))).toBe(
      'imports.errors.format',
    );
    expect(await refusal(() => read(fileOf(csv, 'applicants.txt')))).toBe('imports.errors.format');
    expect((await read(fileOf(csv, 'applicants.CSV'))).headers).toEqual(HEADER);
    expect((await read(fileOf(xlsx, 'Applicants.XLSX'))).rows).toHaveLength(1);
    expect((await read(fileOf(csv, 'applicants'))).rows).toHaveLength(1);
    expect((await read(fileOf(xlsx, 'applicants'))).rows).toHaveLength(1);
  });

  it("says 'Uploaded file cannot be parsed.' for a damaged spreadsheet and an unterminated CSV quote", async () => {
    const xlsx = await xlsxOf([HEADER, ['Ana', 'Silva', '01/02/2008']]);
    expect(await refusal(() => read(fileOf(xlsx.subarray(0, xlsx.length - 40), 'a.xlsx')))).toBe(
      'imports.errors.parse',
    );
    const broken = zipBytes({ '[Content_Types].xml': '<Types', 'xl/workbook.xml': '<<not xml' });
    expect(await refusal(() => read(fileOf(broken, 'a.xlsx')))).toBe('imports.errors.parse');
    expect(await refusal(() => read(fileOf('First Name,Last Name\n"Ana,Silva\n', 'a.csv')))).toBe(
      'imports.errors.parse',
    );
  });

  it('says "Couldn\'t find any applicants in the given file." for a header row alone', async () => {
    expect(await refusal(() => read(fileOf(csvOf([HEADER]), 'a.csv')))).toBe('imports.errors.no_applicants');
    expect(await refusal(async () => read(fileOf(await xlsxOf([HEADER]), 'a.xlsx')))).toBe(
      'imports.errors.no_applicants',
    );
  });

  it('refuses 5001 applicants with the limit in the message, and takes 5000', async () => {
    const rows = (n: number) => [
      HEADER,
      ...Array.from({ length: n }, (_, i) => [`A${i}`, 'Silva', '01/02/2008']),
    ];
    expect(await refusal(() => read(fileOf(csvOf(rows(5001)), 'a.csv')))).toBe(
      'imports.errors.too_many|{"count":5001,"max":5000}',
    );
    expect((await read(fileOf(csvOf(rows(5000)), 'a.csv'))).rows).toHaveLength(5000);
  });

  it('refuses a zip bomb before exceljs sees it: a directory declaring too much, too many entries, a lying size', async () => {
    const types = storedEntry('[Content_Types].xml', '<Types/>');
    // The central directory declares 200 MB.
    const declared = rawZip([
      types,
      { ...storedEntry('xl/workbook.xml', '<x/>'), declaredSize: 200 * 1024 * 1024 },
    ]);
    expect(await refusal(() => read(fileOf(declared, 'a.xlsx')))).toBe('imports.errors.too_big_unpacked');
    // 1001 entries.
    const many = rawZip([
      types,
      ...Array.from({ length: 1001 }, (_, i) => storedEntry(`xl/media/${i}.xml`, 'x')),
    ]);
    expect(await refusal(() => read(fileOf(many, 'a.xlsx')))).toBe('imports.errors.too_big_unpacked');
    // 20 MB of zeros deflated to a few KB, declared as 100 bytes: caught while counting the inflated bytes.
    const zeros = await deflateRaw(new Uint8Array(20 * 1024 * 1024));
    const lying = rawZip([
      types,
      { name: 'xl/worksheets/sheet1.xml', data: zeros, method: 8, declaredSize: 100 },
    ]);
    expect(zeros.length).toBeLessThan(100_000);
    expect(await refusal(() => read(fileOf(lying, 'a.xlsx')))).toBe('imports.errors.too_big_unpacked');
  });

  it('cuts a cell of megabytes to 1000 characters (a database row cannot hold it; its field reports the length)', async () => {
    const sheet = await read(fileOf(csvOf([HEADER, ['Ana', 'x'.repeat(3_000_000), '01/02/2008']]), 'a.csv'));
    expect(sheet.rows[0]!.cells[1]).toHaveLength(1000);
  });

  it('reads the central directory of a real .xlsx', async () => {
    const entries = readCentralDirectory(await xlsxOf([HEADER, ['Ana', 'Silva', '01/02/2008']]), 1000);
    expect(Array.isArray(entries) && entries.some((e) => e.name === 'xl/workbook.xml')).toBe(true);
  });

  it('reads date cells as YYYY-MM-DD, skips a title row above the headers and blank rows', async () => {
    const xlsx = await xlsxOf(
      [
        HEADER,
        ['Ana', 'Silva', new Date(Date.UTC(2008, 1, 3))],
        [null, null, null],
        ['Rui', 'Costa', '04/05/2007'],
      ],
      { before: [['Oakwood intake, September'], []] },
    );
    const sheet = await read(fileOf(xlsx, 'a.xlsx'));
    expect(sheet.headers).toEqual(HEADER);
    expect(sheet.rows.map((r) => r.cells)).toEqual([
      ['Ana', 'Silva', '2008-02-03'],
      ['Rui', 'Costa', '04/05/2007'],
    ]);
    // Sheet row numbers: title 1, blank 2, header 3, Ana 4, blank 5, Rui 6.
    expect(sheet.rows.map((r) => r.n)).toEqual([4, 6]);
  });
});

describe('CSV', () => {
  it('parses RFC 4180: quotes, doubled quotes, line breaks in quotes, CRLF', () => {
    expect(parseCsv('a,"b ""x"", c","line\r\nbreak"\r\n1,2,3\r\n')).toEqual([
      ['a', 'b "x", c', 'line\r\nbreak'],
      ['1', '2', '3'],
    ]);
  });

  it('finds ; and tab separators, and reads Windows-1252 and UTF-16 text', () => {
    expect(detectDelimiter('First;Last;DOB\nA;B;C')).toBe(';');
    expect(detectDelimiter('First\tLast\nA\tB')).toBe('\t');
    expect(decodeText(new Uint8Array([0x4a, 0x6f, 0x73, 0xe9]))).toBe('José');
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe('A');
    expect(decodeText(new Uint8Array([0xff, 0xfe, 0x41, 0, 0x42, 0]))).toBe('AB');
  });
});

describe('header matching', () => {
  it('normalises case, spacing, accents and punctuation', () => {
    expect(normaliseHeader('  Date-of-Birth (DD/MM) ')).toBe('date of birth dd mm');
    expect(normaliseHeader('Passport #')).toBe('passport number');
    expect(normaliseHeader('Prénom')).toBe('prenom');
  });

  it('matches the template headers exactly, in any case and spacing', () => {
    expect(matchHeader('FIRST NAME')).toMatchObject({ target: 'first_name', source: 'exact' });
    expect(matchHeader('Trip  Start Date')).toMatchObject({ target: 'start_date', source: 'exact' });
    expect(matchHeader('country_of_residence')).toMatchObject({ target: 'residence_country_id' });
    expect(matchHeader('Mobile Number Country')).toMatchObject({ target: 'phone_country' });
    expect(matchHeader('Group Leader')).toMatchObject({ target: 'group_leader' });
  });

  it('matches synonyms', () => {
    const cases: Record<string, string> = {
      DOB: 'date_of_birth',
      'D.O.B.': 'date_of_birth',
      'Birth date': 'date_of_birth',
      Surname: 'last_name',
      'Family name': 'last_name',
      'Given name': 'first_name',
      'Passport No.': 'passport_number',
      Mobile: 'phone_number',
      'Arrival date': 'start_date',
      Start: 'start_date',
      Departure: 'end_date',
      End: 'end_date',
      Nationality: 'residence_country_id',
      'E-mail': 'email',
      Sex: 'gender',
    };
    for (const [header, target] of Object.entries(cases))
      expect(matchHeader(header).target, header).toBe(target);
  });

  it('matches the template headers of the other interface languages', () => {
    expect(matchHeader('Nachname').target).toBe('last_name');
  });

  it('matches near misses fuzzily and leaves unrelated headers alone', () => {
    expect(matchHeader('Date of Brith')).toMatchObject({ target: 'date_of_birth', source: 'fuzzy' });
    expect(matchHeader('Pasport Number')).toMatchObject({ target: 'passport_number', source: 'fuzzy' });
    expect(matchHeader('Frist name')).toMatchObject({ target: 'first_name', source: 'fuzzy' });
    expect(matchHeader('Dietary requirements').target).toBeNull();
    expect(matchHeader('Notes').target).toBeNull();
    expect(diceCoefficient('night', 'nacht')).toBeCloseTo(0.25);
  });

  it('gives each field to one column only: the best match wins', () => {
    const m = suggestMapping(['Surname', 'Last Name', 'DOB']);
    expect(m.map((x) => x.target)).toEqual([null, 'last_name', 'date_of_birth']);
  });

  it("offers this client's previous mapping first, including a column it ignored", () => {
    const previous = rememberedMapping(['Leader', 'Start', 'Ref'], {
      '0': null,
      '1': 'start_date',
      '2': 'student_number',
    });
    const m = suggestMapping(['ref', 'Start', 'LEADER', 'Family name'], previous);
    expect(m.map((x) => [x.target, x.source])).toEqual([
      ['student_number', 'previous'],
      ['start_date', 'previous'],
      [null, 'previous'],
      ['last_name', 'exact'],
    ]);
    expect(toMapping(m)).toEqual({ '0': 'student_number', '1': 'start_date', '2': null, '3': 'last_name' });
  });

  it('requires the applicant fields to be matched, each once', () => {
    const errors = mappingErrors(
      { '0': 'first_name', '1': 'first_name', '2': 'date_of_birth' },
      { destinationFromCampus: true },
    );
    expect(errors).toContainEqual({ key: 'columns[1]', message: 'imports.errors.matched_twice' });
    expect(errors.filter((e) => e.key === 'columns').map((e) => e.message)).toEqual([
      'imports.errors.missing.last_name',
      'imports.errors.missing.residence_country_id',
      'imports.errors.missing.start_date',
      'imports.errors.missing.end_date',
    ]);
    expect(mappingErrors({}, { destinationFromCampus: false }).map((e) => e.message)).toContain(
      'imports.errors.missing.destination_country_id',
    );
  });
});

describe('value normalisation', () => {
  const today = '2026-11-21';

  it('reads dates in both day/month orders, two-digit years, ISO dates, month names and Excel serials', () => {
    expect(parseDate('05/09/2026', 'dmy', today)).toBe('2026-09-05');
    expect(parseDate('05/09/2026', 'mdy', today)).toBe('2026-05-09');
    expect(parseDate('5.9.26', 'dmy', today)).toBe('2026-09-05');
    expect(parseDate('3/4/64', 'dmy', today)).toBe('1964-04-03');
    expect(parseDate('2026-9-5', 'dmy', today)).toBe('2026-09-05');
    expect(parseDate('2026-09-05T00:00:00.000Z', 'mdy', today)).toBe('2026-09-05');
    expect(parseDate('5 Sep 2026', 'mdy', today)).toBe('2026-09-05');
    expect(parseDate('September 5, 2026', 'dmy', today)).toBe('2026-09-05');
    expect(parseDate('46270', 'dmy', today)).toBe('2026-09-05');
    expect(parseDate('26/09/05', 'ymd', today)).toBe('2026-09-05');
  });

  it('keeps what cannot be a date: 31 February, 13th month, words', () => {
    expect(parseDate('31/02/2026', 'dmy', today)).toBeNull();
    expect(parseDate('01/13/2026', 'dmy', today)).toBeNull();
    expect(parseDate('soon', 'dmy', today)).toBeNull();
  });

  it('guesses the day/month order from the values, DD/MM when nothing tells', () => {
    expect(guessDateOrder(['01/02/2026', '25/12/2026'])).toBe('dmy');
    expect(guessDateOrder(['12/25/2026', '01/02/2026'])).toBe('mdy');
    expect(guessDateOrder(['01/02/2026', 'x'])).toBeNull();
  });

  it('normalises genders and applicant types, keeping anything unknown as typed', () => {
    expect(normaliseGender('Non-binary')).toBe('non_binary');
    expect(normaliseGender('M')).toBe('male');
    expect(normaliseGender(' female ')).toBe('female');
    expect(normaliseGender('Prefer not to say')).toBe('prefer_not_to_respond');
    expect(normaliseGender('Martian')).toBe('Martian');
    expect(normaliseType('Group Leader')).toBe('group_leader');
    expect(normaliseType('immediate-family')).toBe('immediate_family');
    expect(normaliseType('IMMEDIATE  FAMILY')).toBe('immediate_family');
    expect(normaliseType(' Student ')).toBe('student');
    expect(normaliseType('Teacher')).toBe('group_leader');
    expect(normaliseType('Alien')).toBe('Alien');
  });

  const countries = new CountryIndex(
    COUNTRIES.map((c, i) => ({
      id: i + 1,
      name: c.name,
      abbreviation: c.abbreviation,
      code: c.code,
      dial_code: c.dial_code,
    })),
  );
  const idOf = (code: string) => COUNTRIES.findIndex((c) => c.abbreviation === code) + 1;

  it('finds countries by name, 2- and 3-letter code, common names and nationalities', () => {
    expect(countries.find('France')?.id).toBe(idOf('FR'));
    expect(countries.find('fr')?.id).toBe(idOf('FR'));
    expect(countries.find('ESP')?.id).toBe(idOf('ES'));
    expect(countries.find('UK')?.id).toBe(idOf('GB'));
    expect(countries.find('united kingdom')?.id).toBe(idOf('GB'));
    expect(countries.find('Chinese')?.id).toBe(idOf('CN'));
    expect(countries.find('Türkiye')?.id).toBe(idOf('TR'));
    expect(countries.find('Turkey')?.id).toBe(idOf('TR'));
    expect(countries.find('Atlantis')).toBeNull();
    expect(countries.byPhone('+44 7700 900123')).toMatchObject({
      country: { abbreviation: 'GB' },
      rest: '7700900123',
    });
  });

  it('reads a row by the mapping: Group Leader Yes makes a group leader, unknown countries stay as typed', () => {
    const headers = sourceHeaders([
      'Type',
      'First',
      'Surname',
      'DOB',
      'Nationality',
      'Start',
      'End',
      'Group Leader',
      'Mobile',
      'Sex',
      'Notes',
    ]);
    const rc = {
      mapping: {
        '0': 'type',
        '1': 'first_name',
        '2': 'last_name',
        '3': 'date_of_birth',
        '4': 'residence_country_id',
        '5': 'start_date',
        '6': 'end_date',
        '7': 'group_leader',
        '8': 'phone_number',
        '9': 'gender',
        '10': null,
      } as const,
      headers,
      dateOrder: 'dmy' as const,
      countries,
      defaultDestinationId: idOf('GB'),
      today,
    };
    const leaderCells = [
      'Student',
      'Jo',
      'Bloggs',
      '03/04/1980',
      'Spain',
      '01/09/2027',
      '20/09/2027',
      'Yes',
      '+44 7700 900123',
      'F',
      'vegan',
    ];
    const leader = readRow(leaderCells, rc);
    expect(leader.raw).toEqual({
      type: 'group_leader',
      first_name: 'Jo',
      last_name: 'Bloggs',
      date_of_birth: '1980-04-03',
      residence_country_id: idOf('ES'),
      destination_country_id: idOf('GB'),
      start_date: '2027-09-01',
      end_date: '2027-09-20',
      phone_country: 'GB',
      phone_number: '7700900123',
      gender: 'female',
    });
    expect(sourceCells(leaderCells, rc.headers)).toMatchObject({ Notes: 'vegan', Surname: 'Bloggs' });
    const student = readRow(
      [
        'student',
        'Al',
        'Bo',
        '31/02/2010',
        'Atlantis',
        '01/09/2027',
        '20/09/2027',
        'jo@school.test',
        '',
        '',
        '',
      ],
      rc,
    );
    expect(student.raw).toMatchObject({
      date_of_birth: '31/02/2010',
      residence_country_id: 'Atlantis',
      type: 'student',
    });
    expect(student.leaderRef).toBe('jo@school.test');
  });
});
