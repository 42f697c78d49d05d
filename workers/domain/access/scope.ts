import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  activityLogs,
  apiKeys,
  bankStatements,
  campuses,
  cancellationImports,
  clients,
  companies,
  contracts,
  conversations,
  partnerApplicants,
  invoices,
  policies,
  policyAmendments,
  productDocuments,
  products,
  policyRevisions,
  roles,
  serviceAgreements,
  userCompanies,
  users,
  webhookEndpoints,
} from '../../../drizzle/schema';
import { inJson } from '../../platform/db';
import { can, type Actor, type ActorCompany } from './actor';

/**
 * Tenant scope: every "what may this actor see" condition of the portal, and nowhere else
 * (tests/domain/scope-single-source.test.ts fails when another module builds one). Services filter
 * their queries with these, so a record of another tenant is never read: it answers "not found", not
 * "forbidden".
 *
 * One client rule:
 * - Company users see the clients of the companies they belong to, narrowed to the one chosen in the
 *   top bar ("all companies" = all of theirs). Every role alike: an account manager's "own clients" is
 *   a filter of the clients list (`ownClientsFilter`), not a wall (docs/decisions/roles-and-users.md).
 * - School users see their own client only, and only their campuses unless can_access_all_campuses.
 * - Student users see nothing through these (their own policies are scoped by user id).
 * Everything that belongs to a client (campuses, agreements, contracts, invoices) follows it.
 */

const NOTHING = sql`0 = 1`;

/** The company ids the actor is looking at right now. */
export function visibleCompanyIds(actor: Actor): number[] {
  const mine = actor.companies.map((c) => c.id);
  if (actor.user_type === 'company' && actor.selected_company_id !== null) {
    return mine.includes(actor.selected_company_id) ? [actor.selected_company_id] : [];
  }
  return mine;
}

/** The companies the actor is looking at right now (the top-bar choice), as the actor carries them. */
export function visibleCompanies(actor: Actor): ActorCompany[] {
  const ids = visibleCompanyIds(actor);
  return actor.companies.filter((c) => ids.includes(c.id));
}

/** Condition on a table's company column. */
export function companyScope(actor: Actor, companyColumn: SQLiteColumn): SQL {
  const ids = visibleCompanyIds(actor);
  return ids.length ? inJson(companyColumn, ids) : NOTHING;
}

/**
 * Condition on a row that belongs to a client (and so to a company).
 * School users: their client only. Company users: clients of their visible companies.
 */
export function clientScope(actor: Actor, cols: { clientId: SQLiteColumn; companyId: SQLiteColumn }): SQL {
  if (actor.user_type === 'company') return companyScope(actor, cols.companyId);
  if (actor.user_type === 'school' && actor.client_id) return eq(cols.clientId, actor.client_id);
  return NOTHING;
}

/**
 * Condition on a row that belongs to a campus. School users limited to some campuses see only those.
 */
export function campusScope(
  actor: Actor,
  cols: { campusId: SQLiteColumn; clientId: SQLiteColumn; companyId: SQLiteColumn },
): SQL {
  const byClient = clientScope(actor, cols);
  if (actor.user_type === 'school' && actor.campus_ids !== null) {
    return actor.campus_ids.length ? and(byClient, inJson(cols.campusId, actor.campus_ids))! : NOTHING;
  }
  return byClient;
}

/** The condition on the clients table for the clients the actor may see (the one client rule). */
export function visibleClients(actor: Actor): SQL {
  return clientScope(actor, { clientId: clients.id, companyId: clients.company_id });
}

/** The condition on a campus row joined with its client (`clients`). */
export function visibleCampus(actor: Actor): SQL {
  return campusScope(actor, {
    campusId: campuses.id,
    clientId: campuses.client_id,
    companyId: clients.company_id,
  });
}

/** The condition on service agreement rows (they belong to a client). */
export function agreementScope(actor: Actor): SQL {
  return clientScope(actor, {
    clientId: serviceAgreements.client_id,
    companyId: serviceAgreements.company_id,
  });
}

/** The condition on contract rows (they belong to a campus). */
export function contractScope(actor: Actor): SQL {
  return campusScope(actor, {
    campusId: contracts.campus_id,
    clientId: contracts.client_id,
    companyId: contracts.company_id,
  });
}

/**
 * The products whose contract on one of the actor's campuses is current today (spec 001 s.6: a campus's
 * products are those whose contract is current): what a school user has bought cover of. A subquery
 * condition on `products.id`.
 */
export function contractedProducts(actor: Actor, today: string): SQL {
  return sql`${products.id} in (select ${contracts.product_id} from ${contracts}
    where ${contractScope(actor)} and ${contracts.status} = 'active' and ${contracts.start_date} <= ${today}
      and (${contracts.end_date} is null or ${contracts.end_date} >= ${today}))`;
}

/**
 * The condition on `product_documents` joined with their `products` for the documents the actor may
 * download. Holders of read_product: the products of the companies in view (staff every document, school
 * and student users all but the internal ones, as the product's documents tab shows them). Holders of
 * read_document alone (a school's staff): the documents of the products their campuses hold a current
 * contract for, not internal, valid today.
 */
export function visibleProductDocuments(actor: Actor, today: string): SQL {
  const forClients = sql`${productDocuments.visibility} <> 'internal'`;
  if (can(actor, 'read_product')) {
    const byCompany = companyScope(actor, products.company_id);
    return actor.user_type === 'company' ? byCompany : and(byCompany, forClients)!;
  }
  if (!can(actor, 'read_document')) return NOTHING;
  return and(
    contractedProducts(actor, today),
    forClients,
    sql`(${productDocuments.valid_from} is null or ${productDocuments.valid_from} <= ${today})`,
    sql`(${productDocuments.valid_to} is null or ${productDocuments.valid_to} >= ${today})`,
  )!;
}

/**
 * The condition on issued policies (they belong to a campus): the insureds list, an insured's page, every
 * amendment and document. Which of an insured's policies a user may open by state (active, past,
 * cancelled) is a permission checked by the policies service, on top of this scope.
 */
export function visiblePolicies(actor: Actor): SQL {
  return campusScope(actor, {
    campusId: policies.campus_id,
    clientId: policies.client_id,
    companyId: policies.company_id,
  });
}

/**
 * A key naming the set of policies `visiblePolicies` gives this actor (for caches of what the scope sees),
 * and the condition on `policy_revisions` of the companies whose policies are in it (their revisions
 * tell when such a cache is out of date); null when the actor sees no company's policies.
 */
export function policyScopeKey(actor: Actor): { key: string; revisions: SQL | null } {
  const ids =
    actor.user_type === 'company'
      ? visibleCompanyIds(actor)
      : actor.user_type === 'school' && actor.client_id
        ? actor.companies.map((c) => c.id)
        : [];
  const sorted = [...ids].sort((a, b) => a - b);
  const revisions = sorted.length ? inJson(policyRevisions.company_id, sorted) : null;
  if (actor.user_type === 'company') return { key: `company:${sorted.join(',')}`, revisions };
  const campuses = actor.campus_ids === null ? 'all' : [...actor.campus_ids].sort((a, b) => a - b).join(',');
  return { key: `client:${actor.client_id}:${campuses}`, revisions };
}

/** Bank statements (reconciliation) belong to a company: company users of it only. */
export function visibleBankStatements(actor: Actor): SQL {
  if (actor.user_type !== 'company') return NOTHING;
  return companyScope(actor, bankStatements.company_id);
}

// ---------------------------------------------------------------- account managers' own clients

export const ACCOUNT_MANAGER_ROLE = 'account_manager';

/**
 * True when the actor's only role is account manager: their clients list opens on their own clients
 * (the catalogue's `account_manager_clients` option), which they may clear to see every client in scope.
 */
export function isOnlyAccountManager(actor: Actor): boolean {
  return (
    actor.user_type === 'company' &&
    actor.roles.length > 0 &&
    actor.roles.every((r) => r.slug === ACCOUNT_MANAGER_ROLE)
  );
}

/** The list filter "my clients": the clients the actor manages. A filter, never a scope. */
export function ownClientsFilter(actor: Actor): SQL {
  return eq(clients.account_manager_id, actor.user_id);
}

// ---------------------------------------------------------------- companies

/** The companies table rows the actor belongs to, whatever their status (a subquery). */
export function memberCompanies(actor: Actor): SQL {
  if (actor.user_type !== 'company') return NOTHING;
  return sql`${companies.id} in (select ${userCompanies.company_id} from ${userCompanies} where ${userCompanies.user_id} = ${actor.user_id})`;
}

/** Company lists follow the top-bar choice: one company, or all of the actor's. */
export function listedCompanies(actor: Actor): SQL {
  const member = memberCompanies(actor);
  return actor.selected_company_id === null
    ? member
    : and(member, eq(companies.id, actor.selected_company_id))!;
}

// ---------------------------------------------------------------- invoices

/**
 * Who sees an invoice (docs/decisions/checkout-and-payments.md, "Checkout"): a user with read_invoice, or with
 * read_client_billing (a client's billing is its invoices, payments and statement), sees the invoices of
 * their tenant scope (company users: the companies in view; school users: their client's, and only
 * their campuses' unless they may see all campuses, plus any they checked out themselves). A user who
 * may order (create_policy) but not read invoices sees the invoices of their own checkouts.
 */
export function visibleInvoices(actor: Actor): SQL {
  const own = eq(invoices.created_by, actor.user_id);
  if (!readsTenantInvoices(actor))
    return can(actor, 'create_policy') ? and(own, invoiceTenant(actor))! : NOTHING;
  return invoiceTenant(actor);
}

/**
 * The billing summary's running totals (`billing_balances`, `billing_months`) are kept per company, so
 * they answer only for an actor who sees every invoice of the companies in view: a company user with
 * read_invoice or read_client_billing. The condition on a totals table's company column, or null when the actor's invoices
 * must be summed one by one (`visibleInvoices`).
 */
export function billingTotalsScope(actor: Actor, companyColumn: SQLiteColumn): SQL | null {
  if (actor.user_type !== 'company' || !readsTenantInvoices(actor)) return null;
  return companyScope(actor, companyColumn);
}

function readsTenantInvoices(actor: Actor): boolean {
  return can(actor, 'read_invoice') || can(actor, 'read_client_billing');
}

function invoiceTenant(actor: Actor): SQL {
  if (actor.user_type === 'company') return companyScope(actor, invoices.company_id);
  if (actor.user_type === 'school' && actor.client_id) {
    const byClient = eq(invoices.client_id, actor.client_id);
    if (actor.campus_ids === null) return byClient;
    const mine = eq(invoices.created_by, actor.user_id);
    return actor.campus_ids.length
      ? and(byClient, or(inJson(invoices.campus_id, actor.campus_ids), mine))!
      : and(byClient, mine)!;
  }
  return NOTHING;
}

// ---------------------------------------------------------------- policy amendments

/**
 * An amendment (a quote of an extension, a trip-date change or a cancellation) is seen by the user who
 * made it, within the companies in view; its lines were chosen through `visiblePolicies` when it was made.
 */
export function visibleAmendments(actor: Actor): SQL {
  return and(
    eq(policyAmendments.created_by, actor.user_id),
    companyScope(actor, policyAmendments.company_id),
  )!;
}

// ---------------------------------------------------------------- cancellation imports

/**
 * A cancellation sheet is the work of the person who uploaded it (as a job is), within the companies in
 * view; the policies it names are matched in `visiblePolicies` of the same person.
 */
export function visibleCancellationImports(actor: Actor): SQL {
  return and(
    eq(cancellationImports.created_by, actor.user_id),
    companyScope(actor, cancellationImports.company_id),
  )!;
}

// ---------------------------------------------------------------- roles and the audit trail

/**
 * The roles an actor may see and change on the privileges page (docs/decisions/roles-and-users.md, "Roles"): roles are
 * the insurer's configuration, so only company users see them: the roles shared by every company
 * (company_id null) and the roles of the companies in view. School and student users see none.
 */
export function visibleRoles(actor: Actor): SQL {
  if (actor.user_type !== 'company') return NOTHING;
  return or(isNull(roles.company_id), companyScope(actor, roles.company_id))!;
}

/** True when the actor may give a new role to this company (null: every company) on the privileges page. */
export function mayOwnRole(actor: Actor, companyId: number | null): boolean {
  if (actor.user_type !== 'company') return false;
  return companyId === null || visibleCompanyIds(actor).includes(companyId);
}

/**
 * The activity-log rows of the audit trail. School users: the rows of their own client. Company users:
 * the rows of the companies in view and of their clients, and the rows that belong to no tenant (sign-ins,
 * shared roles, reference data).
 */
export function visibleActivity(actor: Actor): SQL {
  if (actor.user_type === 'school' && actor.client_id) return eq(activityLogs.client_id, actor.client_id);
  if (actor.user_type !== 'company') return NOTHING;
  return or(
    companyScope(actor, activityLogs.company_id),
    and(
      isNull(activityLogs.company_id),
      or(
        isNull(activityLogs.client_id),
        sql`${activityLogs.client_id} in (select ${clients.id} from ${clients} where ${visibleClients(actor)})`,
      ),
    ),
  )!;
}

// ---------------------------------------------------------------- users (the users screens)

/**
 * The condition on `users` rows of one family that the actor may manage (docs/decisions/roles-and-users.md, "Users"):
 * - company users: company users who belong to one of the companies in view; never seen by school users;
 * - school users: to a company user, the school users of the clients in view; to a school user, the
 *   school users of their own client (a school master user manages their own school and nothing else).
 */
export function visibleUsers(actor: Actor, family: 'company' | 'school'): SQL {
  if (family === 'company') {
    if (actor.user_type !== 'company') return NOTHING;
    return and(
      eq(users.user_type, 'company'),
      sql`exists (select 1 from ${userCompanies} where ${userCompanies.user_id} = ${users.id} and ${companyScope(actor, userCompanies.company_id)})`,
    )!;
  }
  if (actor.user_type === 'company') {
    return and(
      eq(users.user_type, 'school'),
      sql`exists (select 1 from ${clients} where ${clients.id} = ${users.client_id} and ${companyScope(actor, clients.company_id)})`,
    )!;
  }
  if (actor.user_type === 'school' && actor.client_id) {
    return and(eq(users.user_type, 'school'), eq(users.client_id, actor.client_id))!;
  }
  return NOTHING;
}

/** True when the actor's own campus access is not narrowed (company users, and school users of all campuses). */
export function seesAllCampuses(actor: Actor): boolean {
  return actor.campus_ids === null;
}

// ---------------------------------------------------------------- partners: API keys and webhooks

/**
 * API keys and webhook endpoints belong to a company (company users of it see them) or to a client
 * (its school users see them; a school user limited to some campuses sees the keys of those campuses
 * only). Company users do not see a client's own keys: those are the school's.
 */
export function partnerOwnerScope(
  actor: Actor,
  cols: { companyId: SQLiteColumn; clientId: SQLiteColumn; campusId?: SQLiteColumn },
): SQL {
  if (actor.user_type === 'company') return and(companyScope(actor, cols.companyId), isNull(cols.clientId))!;
  if (actor.user_type === 'school' && actor.client_id) {
    const byClient = eq(cols.clientId, actor.client_id);
    if (actor.campus_ids === null || !cols.campusId) return byClient;
    return actor.campus_ids.length ? and(byClient, inJson(cols.campusId, actor.campus_ids))! : NOTHING;
  }
  return NOTHING;
}

export function visibleApiKeys(actor: Actor): SQL {
  return partnerOwnerScope(actor, {
    companyId: apiKeys.company_id,
    clientId: apiKeys.client_id,
    campusId: apiKeys.campus_id,
  });
}

export function visibleWebhookEndpoints(actor: Actor): SQL {
  return partnerOwnerScope(actor, {
    companyId: webhookEndpoints.company_id,
    clientId: webhookEndpoints.client_id,
  });
}

/**
 * The condition on conversation rows (the message centre): a client's threads follow the client;
 * a campus employee limited to some campuses sees only threads of those campuses (not the client-wide
 * ones, which speak for the whole school).
 */
export function visibleConversations(actor: Actor): SQL {
  return campusScope(actor, {
    campusId: conversations.campus_id,
    clientId: conversations.client_id,
    companyId: conversations.company_id,
  });
}

/**
 * Partner applicants (the health-insurance partner's referrals) belong to the insurer's company: its
 * company users see them, within the companies in view. Schools never do.
 */
export function visiblePartnerApplicants(actor: Actor): SQL {
  if (actor.user_type !== 'company') return NOTHING;
  return companyScope(actor, partnerApplicants.company_id);
}
