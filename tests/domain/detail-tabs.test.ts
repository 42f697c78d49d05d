import { describe, expect, it } from 'vitest';
import type { Actor } from '../../workers/domain/access/actor';
import {
  CLIENT_DETAIL_TABS,
  CLIENT_LIST_TAB_ACTIONS,
  clientActionsFor,
  clientBulkActionsFor,
  clientTabsFor,
  contractClientOf,
} from '../../workers/domain/clients/tabs';
import { ValidationFailed } from '../../workers/domain/errors';
import { CAMPUS_TABS, campusTabsFor } from '../../workers/domain/campuses/tabs';

function actorWith(permissions: string[]): Actor {
  return {
    user_id: 1,
    public_id: 'u1',
    email: 'someone@demo.test',
    first_name: 'Some',
    last_name: 'One',
    user_type: 'company',
    roles: [{ slug: 'custom', name: 'custom' }],
    permissions: new Set(permissions),
    companies: [],
    selected_company_id: null,
    client_id: null,
    campus_ids: null,
    landing_page: 'clients',
    preferred_lang: 'en',
    session_id: null,
    holds_other_region_token: false,
    api_key_id: null,
    support_admin_id: null,
  };
}

const reader = actorWith(['read_client', 'read_campus']);

describe('client page tabs', () => {
  it('gives a client reader the profile, contacts, billing, addresses, campuses and notes only', () => {
    expect(clientTabsFor(reader)).toEqual([
      'profile',
      'contacts',
      'billing',
      'addresses',
      'campuses',
      'notes',
    ]);
  });

  it('adds users, service agreements and logs with their permissions, and the money tabs to who may read invoices or the client’s billing, in page order', () => {
    const all = actorWith([
      'read_client',
      'read_user',
      'read_campus',
      'read_service_agreement',
      'read_client_log',
      'read_invoice',
    ]);
    expect(clientTabsFor(all)).toEqual([...CLIENT_DETAIL_TABS]);
    expect(clientTabsFor(actorWith(['read_client', 'read_client_user']))).toContain('users');
    const money = ['receivables', 'payments', 'invoices', 'transactions'];
    expect(clientTabsFor(reader)).not.toContain('invoices');
    expect(clientTabsFor(actorWith(['read_client', 'read_client_billing']))).toEqual(
      expect.arrayContaining(money),
    );
  });

  it('offers the status moves the client’s status allows, and delete, to whoever may make them', () => {
    const manager = actorWith(['read_client', 'update_client', 'archive_client', 'delete_client']);
    expect(clientActionsFor(manager, 'active')).toEqual(['archive', 'delete']);
    expect(clientActionsFor(manager, 'archived')).toEqual(['reactivate', 'delete', 'request_onboarding']);
    expect(clientActionsFor(manager, 'pending_onboarding')).toContain('activate');
    expect(clientActionsFor(reader, 'active')).toEqual([]);
  });

  it('offers on each tab of the client list only its bulk actions the user may take', () => {
    const archiver = actorWith(['read_client', 'archive_client']);
    expect(clientBulkActionsFor(archiver, 'active')).toEqual(['archive']);
    expect(clientBulkActionsFor(archiver, 'archived')).toEqual(['reactivate']);
    const all = actorWith(['read_client', 'update_client', 'archive_client', 'delete_client']);
    expect(clientBulkActionsFor(all, 'onboarding')).toEqual([...CLIENT_LIST_TAB_ACTIONS.onboarding]);
  });
});

describe('"Add contract…" from the client list', () => {
  it('opens the new service agreement of the one client selected, and refuses any other selection', () => {
    expect(contractClientOf({ ids: ['c1'] })).toBe('c1');
    for (const selection of [{ ids: ['c1', 'c2'] }, { all_matching: true as const }]) {
      let refusal: unknown;
      try {
        contractClientOf(selection);
      } catch (e) {
        refusal = e;
      }
      expect(refusal).toBeInstanceOf(ValidationFailed);
      expect((refusal as ValidationFailed).errors).toEqual([
        { key: 'ids', message: 'clients.bulk.add_contract_one' },
      ]);
    }
  });
});

describe('campus page tabs', () => {
  it('shows the contracts, invoices and users tabs only to who may read contracts, invoices and users', () => {
    expect(campusTabsFor(reader)).toEqual(
      CAMPUS_TABS.filter((t) => t !== 'contracts' && t !== 'invoices' && t !== 'users'),
    );
    expect(
      campusTabsFor(actorWith(['read_campus', 'read_contract', 'read_invoice', 'read_client_user'])),
    ).toEqual([...CAMPUS_TABS]);
    expect(campusTabsFor(actorWith(['read_campus', 'read_school_user']))).toContain('users');
  });
});
