/**
 * Company users, school users and invitations: inviting, the invitation link's states, the
 * approval of users a school adds, suspending and archiving (sessions end at once), declining and
 * deleting, and the granting rule (nobody gives a role beyond their own permissions or of another family).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { campuses, clients, invitations, outbox, sessions, users } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { loadActor } from '../../workers/domain/access/actor';
import { getInvitation } from '../../workers/domain/auth/service';
import { createSession, resolveActor } from '../../workers/domain/auth/sessions';
import { Forbidden, NotFound, ValidationFailed } from '../../workers/domain/errors';
import {
  companyUserListSchema,
  companyUserSchema,
  schoolUserListSchema,
  schoolUserSchema,
} from '../../workers/domain/users/schema';
import {
  activateUser,
  approveSchoolUser,
  archiveUser,
  declineUser,
  deleteUser,
  getUser,
  inviteCompanyUser,
  inviteSchoolUser,
  listCompanyUsers,
  listSchoolUsers,
  resendInvitation,
  revokeInvitation,
  suspendSchoolUser,
  unsuspendSchoolUser,
  updateCompanyUser,
  updateSchoolUser,
  userMoves,
} from '../../workers/domain/users/service';
import { usersExportSheet } from '../../workers/domain/users/export';
import { buildWorkbook, loadExcel } from '../../workers/platform/xlsx';
import { translate } from '../../workers/platform/i18n';
import type { ActorCtx } from '../../workers/domain/context';
import { actorCtx, db, DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS, userByEmail } from '../support/world';

let admin: ActorCtx;
let senior: ActorCtx;
let master: ActorCtx;
let accountManager: ActorCtx;
let oakwood: { id: number; public_id: string };
let north: { id: number; public_id: string };
let south: { id: number; public_id: string };
let seq = 0;

beforeAll(async () => {
  await seedUk();
  admin = await actorCtx(DEMO_ACCOUNTS.admin);
  senior = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  master = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
  accountManager = await actorCtx(DEMO_ACCOUNTS.accountManager);
  [oakwood] = await db().select().from(clients).where(eq(clients.name, 'Oakwood International School'));
  [north] = await db().select().from(campuses).where(eq(campuses.name, 'Oakwood North Campus'));
  [south] = await db().select().from(campuses).where(eq(campuses.name, 'Oakwood South Campus'));
}, SETUP_TIMEOUT_MS);

const email = (who: string) => `${who}-${++seq}@users.test`;

function schoolInput(over: Record<string, unknown> = {}) {
  return schoolUserSchema.parse({
    first_name: 'Pat',
    last_name: 'Pupil',
    email: email('school'),
    member_type: 'employee',
    roles: ['school_employee'],
    client: oakwood.public_id,
    campuses: [north.public_id],
    ...over,
  });
}

function companyInput(over: Record<string, unknown> = {}) {
  return companyUserSchema.parse({
    first_name: 'Cara',
    last_name: 'Colleague',
    email: email('company'),
    member_type: 'employee',
    roles: ['finance'],
    companies: [admin.actor.companies[0].public_id],
    ...over,
  });
}

/** The token of the newest invitation link sent to an address, read from the outbox as the person would. */
async function linkTokenFor(address: string): Promise<string> {
  const rows = await db().select().from(outbox).where(eq(outbox.recipient, address));
  const last = rows.filter((r) => r.template === 'invitation').at(-1);
  const match = last?.body_text.match(/token=([\w-]+)/);
  if (!match) throw new Error(`No invitation sent to ${address}`);
  return match[1];
}

async function refusal(run: Promise<unknown>): Promise<Error> {
  try {
    await run;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a refusal');
}

describe('inviting', () => {
  it('an administrator invites a school user: status invited, an email with a link that works', async () => {
    const input = schoolInput();
    const { id } = await inviteSchoolUser(admin, input);
    const user = await getUser(admin, 'school', id);
    expect(user.status).toBe('invited');
    expect(user.client?.name).toBe('Oakwood International School');
    expect(user.campuses.map((c) => c.name)).toEqual(['Oakwood North Campus']);
    expect(user.roles.map((r) => r.id)).toEqual(['school_employee']);
    expect(user.invitation?.state).toBe('pending');
    const token = await linkTokenFor(input.email);
    expect((await getInvitation(admin, token)).email).toBe(input.email);
  });

  it('invitations expire after 7 days and then say so', async () => {
    const input = companyInput();
    await inviteCompanyUser(admin, input);
    const token = await linkTokenFor(input.email);
    const later = { ...admin, now: new Date(admin.now.getTime() + 7 * 24 * 3600 * 1000 + 1000) };
    expect((await refusal(getInvitation(later, token))).message).toBe('auth.invitation_expired');
  });

  it('resending revokes the earlier link; revoking stops the newest; each says so', async () => {
    const input = companyInput();
    const { id } = await inviteCompanyUser(admin, input);
    const first = await linkTokenFor(input.email);
    await resendInvitation(admin, 'company', id);
    const second = await linkTokenFor(input.email);
    expect(second).not.toBe(first);
    expect((await refusal(getInvitation(admin, first))).message).toBe('auth.invitation_revoked');
    expect((await getInvitation(admin, second)).email).toBe(input.email);
    await revokeInvitation(admin, 'company', id);
    expect((await refusal(getInvitation(admin, second))).message).toBe('auth.invitation_revoked');
    expect((await getUser(admin, 'company', id)).invitation?.state).toBe('revoked');
    await expect(revokeInvitation(admin, 'company', id)).rejects.toBeInstanceOf(ValidationFailed);
  });

  it('a used link says it was used', async () => {
    const input = companyInput();
    const { id } = await inviteCompanyUser(admin, input);
    const token = await linkTokenFor(input.email);
    const user = await userByEmail(input.email);
    await db().update(invitations).set({ accepted_at: new Date() }).where(eq(invitations.user_id, user.id));
    expect((await refusal(getInvitation(admin, token))).message).toBe('auth.invitation_used');
    expect((await getUser(admin, 'company', id)).invitation?.state).toBe('accepted');
  });

  it('refuses an email address already in use', async () => {
    const err = await refusal(inviteCompanyUser(admin, companyInput({ email: DEMO_ACCOUNTS.finance })));
    expect(err).toBeInstanceOf(ValidationFailed);
    expect((err as ValidationFailed).errors[0]).toMatchObject({
      key: 'email',
      message: 'users.errors.email_taken',
    });
  });

  it('a school user needs campuses unless they may see all of them', () => {
    const parsed = schoolUserSchema.safeParse({ ...schoolInput(), campuses: [] });
    expect(parsed.success).toBe(false);
    expect(
      schoolUserSchema.safeParse({ ...schoolInput(), campuses: [], can_access_all_campuses: true }).success,
    ).toBe(true);
  });
});

describe('users a school adds wait for approval', () => {
  it('a master user adds a user of their own school: pending, no email until a company user approves', async () => {
    const input = schoolInput({ client: undefined });
    const { id } = await inviteSchoolUser(master, input);
    expect((await getUser(master, 'school', id)).status).toBe('pending');
    await expect(linkTokenFor(input.email)).rejects.toThrow();
    await expect(approveSchoolUser(master, id)).rejects.toBeInstanceOf(Forbidden);
    await approveSchoolUser(admin, id);
    expect((await getUser(admin, 'school', id)).status).toBe('invited');
    expect(await linkTokenFor(input.email)).toBeTruthy();
  });

  it('declining moves a user to the declined list; only from there is it deleted', async () => {
    const { id } = await inviteSchoolUser(master, schoolInput({ client: undefined }));
    await declineUser(admin, 'school', id);
    const declined = await listSchoolUsers(
      admin,
      schoolUserListSchema.parse({ status: 'declined', items: 100 }),
    );
    expect(declined.items.map((u) => u.id)).toContain(id);
    await deleteUser(admin, 'school', id);
    await expect(getUser(admin, 'school', id)).rejects.toBeInstanceOf(NotFound);
  });

  it('an active user cannot be deleted', async () => {
    const active = await userByEmail(DEMO_ACCOUNTS.campusEmployee);
    await expect(deleteUser(admin, 'school', active.public_id)).rejects.toBeInstanceOf(ValidationFailed);
  });

  it('declining a company user deletes them (catalogue: decline, which deletes)', async () => {
    const { id } = await inviteCompanyUser(admin, companyInput());
    await declineUser(admin, 'company', id);
    await expect(getUser(admin, 'company', id)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('suspending and archiving end sessions at once', () => {
  async function schoolUserWithSession() {
    const user = await buildUser(db(), {
      email: email('session'),
      first_name: 'Sam',
      last_name: 'Session',
      roles: ['school_employee'],
      clientId: oakwood.id,
      campusIds: [north.id],
    });
    const { token } = await createSession(db(), {
      userId: user.id,
      kind: 'web',
      stage: 'active',
      now: new Date(),
    });
    expect(await resolveActor(db(), token, new Date())).not.toBeNull();
    return { user, token };
  }

  it('the master user suspends their staff: sessions gone, the user cannot act; unsuspend lets them back', async () => {
    const { user, token } = await schoolUserWithSession();
    await suspendSchoolUser(master, user.public_id);
    expect(await db().select().from(sessions).where(eq(sessions.user_id, user.id))).toEqual([]);
    expect(await resolveActor(db(), token, new Date())).toBeNull();
    expect(await loadActor(db(), user.id)).toBeNull();
    await unsuspendSchoolUser(master, user.public_id);
    expect(await loadActor(db(), user.id)).not.toBeNull();
  });

  it('archiving ends sessions; activating lets them sign in again', async () => {
    const { user, token } = await schoolUserWithSession();
    await archiveUser(master, 'school', user.public_id);
    expect(await resolveActor(db(), token, new Date())).toBeNull();
    expect((await getUser(master, 'school', user.public_id)).status).toBe('archived');
    await activateUser(master, 'school', user.public_id);
    expect(await loadActor(db(), user.id)).not.toBeNull();
  });

  it('moves follow the state: no suspending an archived user, no archiving an invited one', () => {
    expect(userMoves({ status: 'archived', suspended: false }, 'school').suspend).toBe(false);
    expect(userMoves({ status: 'invited', suspended: false }, 'school').archive).toBe(false);
    expect(userMoves({ status: 'active', suspended: true }, 'school').unsuspend).toBe(true);
    expect(userMoves({ status: 'pending', suspended: false }, 'company').approve).toBe(false);
  });
});

describe('nobody grants more than they hold', () => {
  it('an administrator cannot give the senior admin role (it holds permissions they do not)', async () => {
    await expect(inviteCompanyUser(admin, companyInput({ roles: ['senior_admin'] }))).rejects.toBeInstanceOf(
      Forbidden,
    );
  });

  it('a company role never goes to a school user, nor a school role to a company user', async () => {
    await expect(inviteSchoolUser(admin, schoolInput({ roles: ['finance'] }))).rejects.toBeInstanceOf(
      Forbidden,
    );
    await expect(
      inviteCompanyUser(admin, companyInput({ roles: ['school_employee'] })),
    ).rejects.toBeInstanceOf(Forbidden);
  });

  it('an account manager may invite a school employee, not a school admin (delete_insured is beyond them)', async () => {
    await expect(
      inviteSchoolUser(accountManager, schoolInput({ roles: ['school_admin'] })),
    ).rejects.toBeInstanceOf(Forbidden);
    const { id } = await inviteSchoolUser(accountManager, schoolInput({ roles: ['school_employee'] }));
    expect((await getUser(accountManager, 'school', id)).roles.map((r) => r.id)).toEqual(['school_employee']);
  });

  it('an administrator cannot edit or archive the senior admin, and nobody changes themselves here', async () => {
    const seniorUser = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
    await expect(archiveUser(admin, 'company', seniorUser.public_id)).rejects.toBeInstanceOf(Forbidden);
    await expect(
      updateCompanyUser(admin, seniorUser.public_id, companyInput({ email: 'taken.over@users.test' })),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(archiveUser(senior, 'company', seniorUser.public_id)).rejects.toBeInstanceOf(Forbidden);
  });

  it('a campus-limited school user cannot give access to all campuses', async () => {
    const limited = await buildUser(db(), {
      email: email('limited.master'),
      first_name: 'Lim',
      last_name: 'Ited',
      roles: ['school_master_user'],
      clientId: oakwood.id,
      campusIds: [north.id],
    });
    const ctx = await actorCtx(limited.email);
    await expect(
      inviteSchoolUser(ctx, schoolInput({ client: undefined, campuses: [], can_access_all_campuses: true })),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(
      inviteSchoolUser(ctx, schoolInput({ client: undefined, campuses: [south.public_id] })),
    ).rejects.toBeInstanceOf(ValidationFailed);
  });
});

describe('editing and listing', () => {
  it('edits a school user: type, master flag, campuses and roles', async () => {
    const { id } = await inviteSchoolUser(admin, schoolInput());
    const before = await getUser(admin, 'school', id);
    const after = await updateSchoolUser(
      admin,
      id,
      schoolInput({
        email: before.email,
        member_type: 'admin',
        is_master_user: 'on',
        job_title: 'Head of Admissions',
        roles: ['school_admin'],
        campuses: [north.public_id, south.public_id],
      }),
    );
    expect(after).toMatchObject({
      member_type: 'admin',
      is_master_user: true,
      job_title: 'Head of Admissions',
    });
    expect(after.campuses.map((c) => c.name).sort()).toEqual([
      'Oakwood North Campus',
      'Oakwood South Campus',
    ]);
    expect(after.roles.map((r) => r.id)).toEqual(['school_admin']);
  });

  it('company users: active by default, narrowed by company', async () => {
    const all = await listCompanyUsers(senior, companyUserListSchema.parse({ items: 200 }));
    expect(all.items.every((u) => u.status === 'active' && !u.suspended)).toBe(true);
    expect(all.items.map((u) => u.email)).toContain(DEMO_ACCOUNTS.finance);
    const invited = await listCompanyUsers(
      senior,
      companyUserListSchema.parse({ status: 'invited', items: 200 }),
    );
    expect(invited.items.every((u) => u.status === 'invited')).toBe(true);
  });

  it('school users by campus: those given the campus and those with all campuses', async () => {
    const southOnly = await listSchoolUsers(
      admin,
      schoolUserListSchema.parse({ campuses: south.public_id, items: 200 }),
    );
    const emails = southOnly.items.map((u) => u.email);
    expect(emails).toContain(DEMO_ACCOUNTS.schoolAdmin);
    expect(emails).not.toContain(DEMO_ACCOUNTS.campusEmployee);
  });

  it('a school master user sees only their own school', async () => {
    const list = await listSchoolUsers(master, schoolUserListSchema.parse({ status: 'all', items: 500 }));
    const ids = new Set(
      (await db().select({ c: users.client_id, e: users.email }).from(users))
        .filter((u) => list.items.some((i) => i.email === u.e))
        .map((u) => u.c),
    );
    expect([...ids]).toEqual([oakwood.id]);
  });
});

/** The sheet as a person opens it: the workbook is built, then read back with exceljs. */
async function readBack(sheet: Awaited<ReturnType<typeof usersExportSheet>>) {
  const ExcelJS = await loadExcel();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await buildWorkbook([sheet]));
  const ws = book.worksheets[0];
  const rows: string[][] = [];
  ws.eachRow((row) => {
    const cells: string[] = [];
    for (let c = 1; c <= ws.columnCount; c++) cells.push(row.getCell(c).text);
    rows.push(cells);
  });
  return { name: ws.name, header: rows[0], body: rows.slice(1) };
}

describe('the Excel export of the users lists', () => {
  it('company users: the rows the list shows with its filters, every page, in the list order', async () => {
    const query = companyUserListSchema.parse({ status: 'active', items: 10 });
    const { name, header, body } = await readBack(await usersExportSheet(senior, 'company', query, 'en'));
    expect(name).toBe('Company users');
    expect(header).toEqual([
      'First name',
      'Last name',
      'Email',
      'Phone number',
      'Role',
      'User type',
      'Status',
      'Invitation',
      'Companies',
      'Job title',
      'Department',
      'Last sign-in',
    ]);
    const all = await listCompanyUsers(senior, companyUserListSchema.parse({ status: 'active', items: 500 }));
    expect(body.map((r) => r[2])).toEqual(all.items.map((u) => u.email));
    expect(body.every((r) => r[6] === 'Active')).toBe(true);
    const invited = await readBack(
      await usersExportSheet(senior, 'company', companyUserListSchema.parse({ status: 'invited' }), 'en'),
    );
    expect(invited.body.every((r) => r[6] === 'Invited')).toBe(true);
  });

  it("school users by client and campus, in the reader's language; a master user gets no client column", async () => {
    const query = schoolUserListSchema.parse({ clients: oakwood.public_id, campuses: south.public_id });
    const { name, header, body } = await readBack(await usersExportSheet(admin, 'school', query, 'en'));
    expect(name).toBe('School users');
    expect(header).toContain('Client');
    expect(header).toContain('Campus access');
    const french = await readBack(await usersExportSheet(admin, 'school', query, 'fr'));
    expect(french.name).toBe(translate('fr', 'users.tabs.school'));
    expect(french.header[0]).toBe(translate('fr', 'users.fields.first_name'));
    expect(french.body.length).toBe(body.length);
    const emails = body.map((r) => r[2]);
    expect(emails).toContain(DEMO_ACCOUNTS.schoolAdmin);
    expect(emails).not.toContain(DEMO_ACCOUNTS.campusEmployee);
    expect(body.every((r) => r[header.indexOf('Client')] === 'Oakwood International School')).toBe(true);

    const own = await readBack(
      await usersExportSheet(master, 'school', schoolUserListSchema.parse({ status: 'all' }), 'en'),
    );
    expect(own.header).not.toContain('Client');
    const ownList = await listSchoolUsers(master, schoolUserListSchema.parse({ status: 'all', items: 500 }));
    expect(own.body.map((r) => r[2])).toEqual(ownList.items.map((u) => u.email));
  });

  it("needs the list's read permission: a school master user cannot export the company users", async () => {
    await expect(
      usersExportSheet(master, 'company', companyUserListSchema.parse({}), 'en'),
    ).rejects.toBeInstanceOf(Forbidden);
  });
});
