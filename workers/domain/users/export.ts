/**
 * The Excel export of the /manage-users lists: the users a list shows with its filters (status, search,
 * companies; or client and campus), every page, in the list's order, as one sheet in the reader's
 * language. The page's resource routes send it (xlsxResponse); the spec names no API call for it.
 */
import type { SheetSpec } from '../../platform/xlsx';
import { loadLanguages, translate } from '../../platform/i18n';
import type { ActorCtx } from '../context';
import type { CompanyUserListQuery, SchoolUserListQuery } from './schema';
import { exportUsers } from './lists';

const when = (d: Date | null) => (d ? d.toISOString().replace('T', ' ').slice(0, 16) : '');

export async function usersExportSheet(
  ctx: ActorCtx,
  family: 'company',
  query: CompanyUserListQuery,
  lang: string,
): Promise<SheetSpec>;
export async function usersExportSheet(
  ctx: ActorCtx,
  family: 'school',
  query: SchoolUserListQuery,
  lang: string,
): Promise<SheetSpec>;
export async function usersExportSheet(
  ctx: ActorCtx,
  family: 'company' | 'school',
  query: CompanyUserListQuery | SchoolUserListQuery,
  lang: string,
): Promise<SheetSpec> {
  await loadLanguages([lang]);
  const h = (key: string) => translate(lang, `users.${key}`);
  const rows =
    family === 'company'
      ? await exportUsers(ctx, 'company', query as CompanyUserListQuery)
      : await exportUsers(ctx, 'school', query as SchoolUserListQuery);
  // A school's own staff see their school's users only: no client column (as the list shows it).
  const belongsTo = family === 'company' ? 'companies' : ctx.actor.user_type === 'school' ? null : 'client';
  return {
    name: h(`tabs.${family}`),
    columns: [
      { header: h('fields.first_name'), key: 'first_name', width: 18 },
      { header: h('fields.last_name'), key: 'last_name', width: 18 },
      { header: h('fields.email'), key: 'email', width: 30 },
      { header: h('fields.phone_number'), key: 'phone', width: 18 },
      { header: h('fields.role'), key: 'role', width: 22 },
      { header: h('fields.member_type'), key: 'type', width: 22 },
      ...(family === 'school' ? [{ header: h('fields.campus_access'), key: 'access', width: 18 }] : []),
      { header: h('fields.status'), key: 'status', width: 18 },
      { header: h('fields.invitation'), key: 'invitation', width: 14 },
      ...(belongsTo ? [{ header: h(`fields.${belongsTo}`), key: 'belongs_to', width: 30 }] : []),
      { header: h('fields.job_title'), key: 'job_title', width: 20 },
      { header: h('fields.department'), key: 'department', width: 20 },
      { header: h('fields.last_login'), key: 'last_login', width: 18 },
    ],
    rows: rows.map((r) => ({
      first_name: r.first_name,
      last_name: r.last_name,
      email: r.email,
      phone: r.phone_number ? `${r.phone_country ?? ''} ${r.phone_number}`.trim() : '',
      role: r.role ?? '',
      type: [r.member_type ? h(`member_types.${r.member_type}`) : null, r.is_master_user ? h('master') : null]
        .filter(Boolean)
        .join(' · '),
      access: r.can_access_all_campuses ? h('all_campuses') : h('chosen_campuses'),
      status: [h(`statuses.${r.status}`), r.suspended ? h('statuses.suspended') : null]
        .filter(Boolean)
        .join(' · '),
      invitation: r.invitation ? h(`invitation_states.${r.invitation}`) : '',
      belongs_to: r.belongs_to ?? '',
      job_title: r.job_title ?? '',
      department: r.department ?? '',
      last_login: when(r.last_login_at),
    })),
  };
}
