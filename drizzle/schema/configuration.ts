/**
 * Configuration the business runs on (spec 001 sections 3-5): contacts and addresses, insurers, tax
 * rates, units, products with prices and documents, product groups, notes, service agreements and
 * contracts. Companies, clients, campuses and countries are in ../schema.ts.
 * Table references to ../schema.ts are lazy (callbacks) because that module re-exports this one.
 */
import { relations } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import {
  ADDRESS_KINDS,
  CONTACT_TYPES,
  DOCUMENT_VISIBILITIES,
  LANGUAGES,
  NOTE_OWNER_TYPES,
  NOTE_SOURCES,
  NOTE_TYPES,
  OWNER_TYPES,
  RECORD_STATUSES,
  SERVICE_AGREEMENT_STATUSES,
  TERRITORIAL_LIMITS,
} from '../enums';
import { timestamps } from './columns';
import { campuses, clients, companies, countries, users } from '../schema';

// ---------------------------------------------------------------- contacts and addresses

/** Contacts of a company, client or campus (initial, owner, secondary, accounting, custom). */
export const contacts = sqliteTable(
  'contacts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    owner_type: text('owner_type', { enum: OWNER_TYPES }).notNull(),
    owner_id: integer('owner_id').notNull(),
    type: text('type', { enum: CONTACT_TYPES }).notNull(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    email: text('email'),
    phone_country: text('phone_country'),
    phone_number: text('phone_number'),
    job_title: text('job_title'),
    department: text('department'),
    is_master_user: integer('is_master_user', { mode: 'boolean' }).notNull().default(false),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('contacts_owner_idx').on(t.owner_type, t.owner_id, t.type, t.position)],
);

/** Billing and mailing addresses of a company, client or campus (one of each kind per owner). */
export const addresses = sqliteTable(
  'addresses',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    owner_type: text('owner_type', { enum: OWNER_TYPES }).notNull(),
    owner_id: integer('owner_id').notNull(),
    kind: text('kind', { enum: ADDRESS_KINDS }).notNull(),
    first_name: text('first_name'),
    last_name: text('last_name'),
    email: text('email'),
    country_id: integer('country_id').references(() => countries.id),
    city: text('city'),
    province: text('province'),
    address: text('address'),
    address2: text('address2'),
    postal_code: text('postal_code'),
    department: text('department'),
    phone_country: text('phone_country'),
    phone_number: text('phone_number'),
    ...timestamps,
  },
  (t) => [uniqueIndex('addresses_owner_kind_uq').on(t.owner_type, t.owner_id, t.kind)],
);

// ---------------------------------------------------------------- insurers, tax rates, units

export const insurers = sqliteTable(
  'insurers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    code: text('code'),
    email: text('email'),
    phone_country: text('phone_country'),
    phone_number: text('phone_number'),
    website: text('website'),
    status: text('status', { enum: RECORD_STATUSES }).notNull().default('active'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('insurers_public_id_uq').on(t.public_id),
    index('insurers_company_idx').on(t.company_id, t.status, t.name),
  ],
);

/** A country's tax rate (percent in hundredths: 1250 = 12.50 %) or flat tax amount, for a period. */
export const taxRates = sqliteTable(
  'tax_rates',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    country_id: integer('country_id')
      .notNull()
      .references(() => countries.id, { onDelete: 'cascade' }),
    rate_bp: integer('rate_bp'),
    amount_minor: integer('amount_minor'),
    currency: text('currency'),
    start_date: text('start_date').notNull(),
    end_date: text('end_date'),
    active: integer('active', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('tax_rates_country_idx').on(t.country_id, t.start_date),
    index('tax_rates_active_idx').on(t.country_id, t.active),
  ],
);

export const units = sqliteTable(
  'units',
  {
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    days: integer('days').notNull(),
  },
  (t) => [uniqueIndex('units_name_uq').on(t.name)],
);

// ---------------------------------------------------------------- products

export const products = sqliteTable(
  'products',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    insurer_id: integer('insurer_id').references(() => insurers.id),
    unit_id: integer('unit_id').references(() => units.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    effective_start_date: text('effective_start_date').notNull(),
    effective_end_date: text('effective_end_date'),
    type: text('type'),
    max_coverage_amount_minor: integer('max_coverage_amount_minor'),
    max_enrolment_period_days: integer('max_enrolment_period_days'),
    insured_age_min: integer('insured_age_min'),
    insured_age_max: integer('insured_age_max'),
    max_term_days: integer('max_term_days'),
    min_purchase_days: integer('min_purchase_days').notNull().default(6),
    master_certificate_number: text('master_certificate_number'),
    policy_type: text('policy_type'),
    scheme: text('scheme'),
    cover_type: text('cover_type'),
    territorial_limit: text('territorial_limit', { enum: TERRITORIAL_LIMITS }),
    claim_email: text('claim_email'),
    claim_phone: text('claim_phone'),
    claim_details: text('claim_details'),
    medical_assistance_email: text('medical_assistance_email'),
    medical_assistance_phone: text('medical_assistance_phone'),
    currency: text('currency').notNull().default('GBP'),
    coverage_limits: text('coverage_limits', { mode: 'json' }).$type<
      { benefit: string; limit: string; excess?: string }[] | null
    >(),
    status: text('status', { enum: RECORD_STATUSES }).notNull().default('active'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('products_public_id_uq').on(t.public_id),
    uniqueIndex('products_company_code_uq').on(t.company_id, t.code),
    index('products_company_idx').on(t.company_id, t.status, t.name),
    index('products_company_insurer_idx').on(t.company_id, t.insurer_id),
    index('products_company_start_idx').on(t.company_id, t.effective_start_date),
    index('products_company_end_idx').on(t.company_id, t.effective_end_date),
    index('products_company_territory_idx').on(t.company_id, t.territorial_limit),
  ],
);

/** A price band of a product: trip length in days (min..max) and the period it applies to. */
export const productPrices = sqliteTable(
  'product_prices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    product_id: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    min_days: integer('min_days').notNull(),
    max_days: integer('max_days').notNull(),
    net_minor: integer('net_minor').notNull(),
    sale_minor: integer('sale_minor').notNull(),
    custom_minor: integer('custom_minor'),
    flat: integer('flat', { mode: 'boolean' }).notNull().default(false),
    from_date: text('from_date'),
    to_date: text('to_date'),
    region_code: text('region_code'),
    destination_country_ids: text('destination_country_ids', { mode: 'json' }).$type<number[] | null>(),
    ...timestamps,
  },
  (t) => [index('product_prices_product_idx').on(t.product_id, t.min_days)],
);

export const productDocuments = sqliteTable(
  'product_documents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    product_id: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    title: text('title').notNull(),
    description: text('description'),
    visibility: text('visibility', { enum: DOCUMENT_VISIBILITIES }).notNull().default('clients'),
    valid_from: text('valid_from'),
    valid_to: text('valid_to'),
    file_key: text('file_key').notNull(),
    file_name: text('file_name').notNull(),
    content_type: text('content_type').notNull(),
    size: integer('size').notNull(),
    ...timestamps,
  },
  (t) => [index('product_documents_product_idx').on(t.product_id)],
);

export const productGroups = sqliteTable(
  'product_groups',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    scheme: text('scheme'),
    type: text('type'),
    description: text('description'),
    status: text('status', { enum: RECORD_STATUSES }).notNull().default('active'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('product_groups_public_id_uq').on(t.public_id),
    index('product_groups_company_idx').on(t.company_id, t.name),
  ],
);

export const productGroupProducts = sqliteTable(
  'product_group_products',
  {
    group_id: integer('group_id')
      .notNull()
      .references(() => productGroups.id, { onDelete: 'cascade' }),
    product_id: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.group_id, t.product_id] }),
    index('product_group_products_product_idx').on(t.product_id),
  ],
);

// ---------------------------------------------------------------- notes

/** Notes on clients, campuses and (later) policies; one table, one component. */
export const notes = sqliteTable(
  'notes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    owner_type: text('owner_type', { enum: NOTE_OWNER_TYPES }).notNull(),
    owner_id: integer('owner_id').notNull(),
    title: text('title').notNull(),
    note: text('note').notNull(),
    date: text('date').notNull(),
    source: text('source', { enum: NOTE_SOURCES }).notNull(),
    type: text('type', { enum: NOTE_TYPES }).notNull(),
    requested_by: text('requested_by'),
    requester_type: text('requester_type'),
    message_link: text('message_link'),
    file_key: text('file_key'),
    file_name: text('file_name'),
    content_type: text('content_type'),
    created_by: integer('created_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [index('notes_owner_idx').on(t.owner_type, t.owner_id, t.date)],
);

// ---------------------------------------------------------------- service agreements and contracts

export const serviceAgreements = sqliteTable(
  'service_agreements',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    client_id: integer('client_id')
      .notNull()
      .references(() => clients.id),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    insurer_id: integer('insurer_id').references(() => insurers.id),
    default_product_id: integer('default_product_id').references(() => products.id),
    name: text('name').notNull(),
    start_date: text('start_date').notNull(),
    end_date: text('end_date'),
    status: text('status', { enum: SERVICE_AGREEMENT_STATUSES }).notNull().default('pending'),
    approved_at: integer('approved_at', { mode: 'timestamp_ms' }),
    approved_by: integer('approved_by').references(() => users.id),
    created_by: integer('created_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('service_agreements_public_id_uq').on(t.public_id),
    index('service_agreements_client_idx').on(t.client_id, t.start_date),
  ],
);

export const serviceAgreementDocuments = sqliteTable(
  'service_agreement_documents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    service_agreement_id: integer('service_agreement_id')
      .notNull()
      .references(() => serviceAgreements.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    file_key: text('file_key').notNull(),
    file_name: text('file_name').notNull(),
    content_type: text('content_type').notNull(),
    size: integer('size').notNull(),
    ...timestamps,
  },
  (t) => [index('sa_documents_sa_idx').on(t.service_agreement_id, t.position)],
);

/** A product row of a service agreement; approving the agreement turns each row into a campus contract. */
export const serviceAgreementRows = sqliteTable(
  'service_agreement_rows',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    service_agreement_id: integer('service_agreement_id')
      .notNull()
      .references(() => serviceAgreements.id, { onDelete: 'cascade' }),
    product_id: integer('product_id')
      .notNull()
      .references(() => products.id),
    campus_id: integer('campus_id')
      .notNull()
      .references(() => campuses.id),
    net_minor: integer('net_minor').notNull(),
    sale_minor: integer('sale_minor').notNull(),
    min_days: integer('min_days').notNull(),
    start_date: text('start_date').notNull(),
    end_date: text('end_date'),
    po_number: text('po_number'),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('sa_rows_sa_idx').on(t.service_agreement_id, t.position)],
);

export const contracts = sqliteTable(
  'contracts',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    client_id: integer('client_id')
      .notNull()
      .references(() => clients.id),
    campus_id: integer('campus_id')
      .notNull()
      .references(() => campuses.id),
    product_id: integer('product_id')
      .notNull()
      .references(() => products.id),
    service_agreement_id: integer('service_agreement_id').references(() => serviceAgreements.id),
    service_agreement_row_id: integer('service_agreement_row_id').references(() => serviceAgreementRows.id),
    name: text('name').notNull(),
    description: text('description'),
    start_date: text('start_date').notNull(),
    end_date: text('end_date'),
    status: text('status', { enum: RECORD_STATUSES }).notNull().default('active'),
    is_default: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    net_minor: integer('net_minor').notNull(),
    sale_minor: integer('sale_minor').notNull(),
    custom_minor: integer('custom_minor'),
    currency: text('currency').notNull(),
    min_days: integer('min_days').notNull().default(6),
    po_number: text('po_number'),
    payment_method: text('payment_method'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contracts_public_id_uq').on(t.public_id),
    uniqueIndex('contracts_sa_row_uq').on(t.service_agreement_row_id),
    index('contracts_campus_idx').on(t.campus_id, t.status, t.start_date),
    index('contracts_client_idx').on(t.client_id, t.status),
    index('contracts_company_idx').on(t.company_id, t.status),
  ],
);

// ---------------------------------------------------------------- relations

export const insurersRelations = relations(insurers, ({ one }) => ({
  company: one(companies, { fields: [insurers.company_id], references: [companies.id] }),
}));

export const productsRelations = relations(products, ({ one, many }) => ({
  company: one(companies, { fields: [products.company_id], references: [companies.id] }),
  insurer: one(insurers, { fields: [products.insurer_id], references: [insurers.id] }),
  unit: one(units, { fields: [products.unit_id], references: [units.id] }),
  prices: many(productPrices),
  documents: many(productDocuments),
}));

export const productPricesRelations = relations(productPrices, ({ one }) => ({
  product: one(products, { fields: [productPrices.product_id], references: [products.id] }),
}));

export const productDocumentsRelations = relations(productDocuments, ({ one }) => ({
  product: one(products, { fields: [productDocuments.product_id], references: [products.id] }),
}));

export const productGroupsRelations = relations(productGroups, ({ many }) => ({
  products: many(productGroupProducts),
}));

export const productGroupProductsRelations = relations(productGroupProducts, ({ one }) => ({
  group: one(productGroups, { fields: [productGroupProducts.group_id], references: [productGroups.id] }),
  product: one(products, { fields: [productGroupProducts.product_id], references: [products.id] }),
}));

export const serviceAgreementsRelations = relations(serviceAgreements, ({ one, many }) => ({
  client: one(clients, { fields: [serviceAgreements.client_id], references: [clients.id] }),
  insurer: one(insurers, { fields: [serviceAgreements.insurer_id], references: [insurers.id] }),
  rows: many(serviceAgreementRows),
  documents: many(serviceAgreementDocuments),
}));

export const serviceAgreementRowsRelations = relations(serviceAgreementRows, ({ one }) => ({
  agreement: one(serviceAgreements, {
    fields: [serviceAgreementRows.service_agreement_id],
    references: [serviceAgreements.id],
  }),
  product: one(products, { fields: [serviceAgreementRows.product_id], references: [products.id] }),
  campus: one(campuses, { fields: [serviceAgreementRows.campus_id], references: [campuses.id] }),
}));

export const serviceAgreementDocumentsRelations = relations(serviceAgreementDocuments, ({ one }) => ({
  agreement: one(serviceAgreements, {
    fields: [serviceAgreementDocuments.service_agreement_id],
    references: [serviceAgreements.id],
  }),
}));

export const contractsRelations = relations(contracts, ({ one }) => ({
  product: one(products, { fields: [contracts.product_id], references: [products.id] }),
  campus: one(campuses, { fields: [contracts.campus_id], references: [campuses.id] }),
  client: one(clients, { fields: [contracts.client_id], references: [clients.id] }),
  agreement: one(serviceAgreements, {
    fields: [contracts.service_agreement_id],
    references: [serviceAgreements.id],
  }),
}));

export const taxRatesRelations = relations(taxRates, ({ one }) => ({
  country: one(countries, { fields: [taxRates.country_id], references: [countries.id] }),
}));
