import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { addresses, contacts } from '../../drizzle/schema';
import { addressesSchema, contactsSchema } from '../../workers/domain/contacts/schema';
import {
  addressForLog,
  contactsForLog,
  readAddresses,
  readContacts,
  replaceAddresses,
  replaceContacts,
} from '../../workers/domain/contacts/service';
import { formatMessage } from '../../workers/platform/i18n';
import { runBatch } from '../../workers/platform/db';
import { countryId } from '../../drizzle/seed/builders';
import { db, seedUk } from '../support/world';

const person = { first_name: 'Jane', last_name: 'Doe', email: 'jane@school.test' };

/** The English messages of a failed parse, by field path. */
function errorsOf(result: {
  success: boolean;
  error?: { issues: { path: (string | number)[]; message: string }[] };
}) {
  expect(result.success).toBe(false);
  const out: Record<string, string[]> = {};
  for (const i of result.error!.issues) (out[i.path.join('.')] ??= []).push(formatMessage(i.message));
  return out;
}

describe('contact-type rules (spec 001 s.5)', () => {
  it('allows a job title only for initial, secondary and accounting contacts', () => {
    const ok = contactsSchema.safeParse({
      initial: { ...person, job_title: 'Principal' },
      accounting: { ...person, job_title: 'Bursar' },
      secondary: [{ ...person, job_title: 'Deputy' }],
    });
    expect(ok.success).toBe(true);
    const errors = errorsOf(
      contactsSchema.safeParse({
        owner: { ...person, job_title: 'Owner' },
        custom: [{ ...person, job_title: 'Driver' }],
      }),
    );
    expect(errors['owner.job_title']).toEqual([
      'A job title is only kept for initial, secondary and accounting contacts.',
    ]);
    expect(errors['custom.0.job_title']).toBeDefined();
  });

  it('allows a department only for initial and secondary contacts', () => {
    expect(
      contactsSchema.safeParse({
        initial: { ...person, department: 'Admissions' },
        secondary: [{ ...person, department: 'Finance' }],
      }).success,
    ).toBe(true);
    const errors = errorsOf(
      contactsSchema.safeParse({
        accounting: { ...person, department: 'Finance' },
        owner: { ...person, department: 'Board' },
      }),
    );
    expect(errors['accounting.department']).toEqual([
      'A department is only kept for initial and secondary contacts.',
    ]);
    expect(errors['owner.department']).toBeDefined();
  });

  it('offers the master-user option only to owner and secondary contacts', () => {
    const ok = contactsSchema.safeParse({
      owner: { ...person, is_master_user: true },
      secondary: [{ ...person, is_master_user: 'on' }],
    });
    expect(ok.success).toBe(true);
    expect(ok.data!.owner!.is_master_user).toBe(true);
    expect(ok.data!.secondary[0].is_master_user).toBe(true);
    const errors = errorsOf(
      contactsSchema.safeParse({
        initial: { ...person, is_master_user: true },
        accounting: { ...person, is_master_user: true },
      }),
    );
    expect(errors['initial.is_master_user']).toEqual([
      'Only owner and secondary contacts can be master users.',
    ]);
    expect(errors['accounting.is_master_user']).toBeDefined();
  });

  it('takes several contacts only of the custom and secondary types', () => {
    const ok = contactsSchema.safeParse({
      secondary: [person, { ...person, first_name: 'Tom' }, { ...person, first_name: 'Ann' }],
      custom: [person, { ...person, first_name: 'Bob' }],
    });
    expect(ok.success).toBe(true);
    expect(ok.data!.secondary).toHaveLength(3);
    for (const type of ['owner', 'initial', 'accounting']) {
      const errors = errorsOf(
        contactsSchema.safeParse({ [type]: [person, { ...person, first_name: 'Tom' }] }),
      );
      expect(errors[type]).toEqual(['Only one contact of this type is allowed.']);
    }
  });

  it('requires a name and an email for owner, secondary and accounting contacts', () => {
    const errors = errorsOf(
      contactsSchema.safeParse({
        owner: { first_name: 'Jane', last_name: '', email: '' },
        accounting: { first_name: '', last_name: 'Doe' },
        secondary: [{ first_name: 'Ann', last_name: 'Lee' }],
      }),
    );
    expect(errors['owner.last_name']).toEqual(['This field is required']);
    expect(errors['owner.email']).toEqual(['Email address is required.']);
    expect(errors['accounting.first_name']).toEqual(['This field is required']);
    expect(errors['secondary.0.email']).toEqual(['Email address is required.']);
    // An initial or custom contact may be kept without an email.
    expect(
      contactsSchema.safeParse({
        initial: { first_name: 'A', last_name: 'B' },
        custom: [{ first_name: 'C', last_name: 'D' }],
      }).success,
    ).toBe(true);
  });

  it('refuses digits in names and needs a phone number and its country together', () => {
    const errors = errorsOf(
      contactsSchema.safeParse({
        owner: { ...person, first_name: 'J4ne', phone_number: '7700900123' },
        accounting: { ...person, phone_country: 'GB' },
        initial: { ...person, phone_country: 'GB', phone_number: '12' },
      }),
    );
    expect(errors['owner.first_name']).toEqual(['Name has invalid characters']);
    expect(errors['owner.phone_country']).toEqual(['This field is required']);
    expect(errors['accounting.phone_number']).toEqual(['This field is required']);
    expect(errors['initial.phone_number']).toEqual(['Phone number must be 3 to 18 digits.']);
  });

  it('limits job title and department to 100 characters', () => {
    const errors = errorsOf(
      contactsSchema.safeParse({
        initial: { ...person, job_title: 'x'.repeat(101), department: 'y'.repeat(101) },
      }),
    );
    expect(errors['initial.job_title']).toEqual(['Maximum allowed number of characters "100" exceeded.']);
    expect(errors['initial.department']).toBeDefined();
  });

  it('treats an entirely empty slot as no contact, and keeps errors on the slot a person filled', () => {
    const blank = { first_name: '', last_name: '', email: '', phone_country: '', phone_number: '' };
    const ok = contactsSchema.safeParse({ owner: blank, secondary: [blank, person, blank] });
    expect(ok.success).toBe(true);
    expect(ok.data!.owner).toBeUndefined();
    expect(ok.data!.secondary).toHaveLength(1);
    const errors = errorsOf(contactsSchema.safeParse({ secondary: [blank, { first_name: 'Ann' }] }));
    expect(Object.keys(errors).every((k) => k.startsWith('secondary.1.'))).toBe(true);
  });
});

describe('address rules', () => {
  const address = { address: '1 High Street', city: 'Oxford', postal_code: 'OX1 1AA', country_id: 1 };

  it('requires the mailing city when a mailing email is given', () => {
    const errors = errorsOf(
      addressesSchema.safeParse({
        mailing_address: { address: '1 High St', country_id: 1, email: 'post@school.test' },
      }),
    );
    expect(errors['mailing_address.city']).toEqual([
      'Mailing city is required when a mailing email is given.',
    ]);
    // The billing address has no such rule.
    expect(
      addressesSchema.safeParse({
        billing_address: { address: '1 High St', country_id: 1, email: 'a@b.test' },
      }).success,
    ).toBe(true);
  });

  it('checks city, postal code, department (1 to 150) and the phone pair', () => {
    const errors = errorsOf(
      addressesSchema.safeParse({
        billing_address: {
          ...address,
          city: 'Oxford 2',
          postal_code: 'OX1/1AA',
          department: 'd'.repeat(151),
          phone_number: '01865000000',
        },
      }),
    );
    expect(errors['billing_address.city']).toEqual([
      'City may only contain letters, spaces, commas, hyphens or periods (1 to 50).',
    ]);
    expect(errors['billing_address.postal_code']).toEqual(['Invalid postal code']);
    expect(errors['billing_address.department']).toEqual([
      'Maximum allowed number of characters "150" exceeded.',
    ]);
    expect(errors['billing_address.phone_country']).toEqual(['This field is required']);
  });

  it('needs the first line and the country of any address that is filled in, and none for an empty one', () => {
    const errors = errorsOf(addressesSchema.safeParse({ billing_address: { city: 'Oxford' } }));
    expect(errors['billing_address.address']).toEqual(['This field is required']);
    expect(errors['billing_address.country_id']).toEqual(['This field is required']);
    const empty = addressesSchema.safeParse({
      billing_address: { city: '', address: '' },
      mailing_address: {},
    });
    expect(empty.success).toBe(true);
    expect(empty.data).toEqual({ billing_address: undefined, mailing_address: undefined });
  });
});

describe('reading and replacing contacts and addresses inside the caller batch', () => {
  let gb: number;
  beforeAll(async () => {
    await seedUk();
    gb = await countryId(db(), 'GB');
  });
  const owner = { type: 'client' as const, id: 9001 };
  const other = { type: 'campus' as const, id: 9001 };

  it('replaces every contact of the owner and reads them back grouped, in order', async () => {
    const d = db();
    const first = contactsSchema.parse({
      owner: { ...person, is_master_user: true, phone_country: 'gb', phone_number: '7700 900123' },
      secondary: [
        { first_name: 'Sam', last_name: 'One', email: 'sam@school.test' },
        { first_name: 'Sue', last_name: 'Two', email: 'sue@school.test' },
      ],
    });
    await runBatch(d, [
      ...replaceContacts(d, owner, first, new Date()),
      ...replaceContacts(d, other, contactsSchema.parse({ initial: person }), new Date()),
    ]);
    const read = await readContacts(d, owner);
    expect(read.owner).toMatchObject({
      full_name: 'Jane Doe',
      is_master_user: true,
      phone_country: 'GB',
      phone_number: '7700900123',
    });
    expect(read.secondary.map((c) => c.first_name)).toEqual(['Sam', 'Sue']);
    expect(read.initial).toBeNull();

    await runBatch(d, replaceContacts(d, owner, contactsSchema.parse({ accounting: person }), new Date()));
    const again = await readContacts(d, owner);
    expect(again.owner).toBeNull();
    expect(again.secondary).toEqual([]);
    expect(again.accounting?.email).toBe('jane@school.test');
    // Another owner with the same id but another type is untouched.
    expect((await readContacts(d, other)).initial?.first_name).toBe('Jane');
  });

  it('is all or nothing with the caller: a failing statement in the batch leaves the old contacts', async () => {
    const d = db();
    const before = await readContacts(d, owner);
    await expect(
      runBatch(d, [
        ...replaceContacts(d, owner, contactsSchema.parse({ owner: person }), new Date()),
        // The caller's own change fails (a second billing address for one owner breaks the unique index).
        d.insert(addresses).values({ owner_type: 'client', owner_id: 1, kind: 'billing' }),
        d.insert(addresses).values({ owner_type: 'client', owner_id: 1, kind: 'billing' }),
      ]),
    ).rejects.toThrow();
    expect(await readContacts(d, owner)).toEqual(before);
    const rows = await d
      .select()
      .from(contacts)
      .where(and(eq(contacts.owner_type, 'client'), eq(contacts.owner_id, owner.id)));
    expect(rows).toHaveLength(1);
  });

  it('sets, changes and removes addresses; an empty address removes the row', async () => {
    const d = db();
    const input = addressesSchema.parse({
      billing_address: {
        address: '1 High Street',
        city: 'Oxford',
        postal_code: 'OX1 1AA',
        country_id: String(gb),
      },
      mailing_address: { address: 'PO Box 7', city: 'Oxford', email: 'post@school.test', country_id: gb },
    });
    await runBatch(d, replaceAddresses(d, owner, input, new Date()));
    const read = await readAddresses(d, owner);
    expect(read.billing_address).toMatchObject({
      city: 'Oxford',
      country_name: 'United Kingdom',
      postal_code: 'OX1 1AA',
    });
    expect(read.mailing_address?.email).toBe('post@school.test');
    expect(addressForLog(read.billing_address)).toContain('1 High Street');

    await runBatch(
      d,
      replaceAddresses(
        d,
        owner,
        addressesSchema.parse({ billing_address: input.billing_address }),
        new Date(),
      ),
    );
    const after = await readAddresses(d, owner);
    expect(after.mailing_address).toBeNull();
    expect(after.billing_address?.city).toBe('Oxford');
  });

  it('gives activity-log rows one comparable line per contact', () => {
    const log = contactsForLog(contactsSchema.parse({ owner: person, secondary: [person] }));
    expect(log.owner_contact).toBe('Jane Doe, jane@school.test');
    expect(log.secondary_contact_1).toBe('Jane Doe, jane@school.test');
    expect(log.initial_contact).toBeNull();
  });
});
