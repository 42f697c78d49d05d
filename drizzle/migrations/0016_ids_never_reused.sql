-- Ids that a log, an export or a URL points at are never given again: roles, users and sessions get
-- AUTOINCREMENT, and each activity-log row keeps the name its entity had when the row was written.
--
-- SQLite cannot add AUTOINCREMENT to a table: it is rebuilt. D1 keeps foreign keys on inside its
-- transaction (PRAGMA foreign_keys=OFF is ignored there), so the DROP TABLE that drizzle-kit writes would
-- delete every ON DELETE CASCADE child (user_roles, role_permissions, sessions, invitations...). Instead:
-- the parent's and its cascade children's rows are kept in holding tables, the parent is dropped and
-- created again under its own name (re-inserting its rows settles the deferred checks of the other
-- tables' plain references), and the children are put back.
PRAGMA defer_foreign_keys = on;
CREATE TABLE `__keep_roles` AS SELECT * FROM `roles`;
CREATE TABLE `__keep_role_permissions` AS SELECT * FROM `role_permissions`;
CREATE TABLE `__keep_users` AS SELECT * FROM `users`;
CREATE TABLE `__keep_user_companies` AS SELECT * FROM `user_companies`;
CREATE TABLE `__keep_user_campuses` AS SELECT * FROM `user_campuses`;
CREATE TABLE `__keep_user_roles` AS SELECT * FROM `user_roles`;
CREATE TABLE `__keep_sessions` AS SELECT * FROM `sessions`;
CREATE TABLE `__keep_one_time_pins` AS SELECT * FROM `one_time_pins`;
CREATE TABLE `__keep_invitations` AS SELECT * FROM `invitations`;
CREATE TABLE `__keep_notifications` AS SELECT * FROM `notifications`;
CREATE TABLE `__keep_mfa_events` AS SELECT * FROM `mfa_events`;
-- The sign-in's stored company choice, for sessions opened before the choice was the session's own.
UPDATE `__keep_sessions` SET `selected_company_id` = (SELECT u.`selected_company_id` FROM `users` u WHERE u.`id` = `__keep_sessions`.`user_id`) WHERE `selected_company_id` IS NULL;
-- Roles first: their cascade children also refer to users, which must still be there.
DROP TABLE `sessions`;
DROP TABLE `roles`;
CREATE TABLE `roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`family` text NOT NULL,
	`company_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `roles`("id", "name", "slug", "family", "company_id", "created_at", "updated_at") SELECT "id", "name", "slug", "family", "company_id", "created_at", "updated_at" FROM `__keep_roles`;
CREATE UNIQUE INDEX `roles_family_slug_uq` ON `roles` (`family`,`slug`);
DELETE FROM `role_permissions`;
INSERT INTO `role_permissions` SELECT * FROM `__keep_role_permissions`;
DROP TABLE `users`;
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`phone_country` text,
	`phone_number` text,
	`user_type` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`suspended` integer DEFAULT false NOT NULL,
	`client_id` integer,
	`can_access_all_campuses` integer DEFAULT false NOT NULL,
	`is_master_user` integer DEFAULT false NOT NULL,
	`job_title` text,
	`department` text,
	`member_type` text,
	`landing_page` text DEFAULT 'insureds' NOT NULL,
	`preferred_lang` text DEFAULT 'en' NOT NULL,
	`selected_company_id` integer,
	`other_region_access` integer DEFAULT false NOT NULL,
	`email_verified_at` integer,
	`phone_verified_at` integer,
	`password_changed_at` integer,
	`last_login_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE no action
);
INSERT INTO `users`("id", "public_id", "email", "password_hash", "first_name", "last_name", "phone_country", "phone_number", "user_type", "status", "suspended", "client_id", "can_access_all_campuses", "is_master_user", "job_title", "department", "member_type", "landing_page", "preferred_lang", "selected_company_id", "other_region_access", "email_verified_at", "phone_verified_at", "password_changed_at", "last_login_at", "created_at", "updated_at") SELECT "id", "public_id", "email", "password_hash", "first_name", "last_name", "phone_country", "phone_number", "user_type", "status", "suspended", "client_id", "can_access_all_campuses", "is_master_user", "job_title", "department", "member_type", "landing_page", "preferred_lang", "selected_company_id", "other_region_access", "email_verified_at", "phone_verified_at", "password_changed_at", "last_login_at", "created_at", "updated_at" FROM `__keep_users`;
CREATE TABLE `sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`stage` text NOT NULL,
	`selected_company_id` integer,
	`holds_other_region_token` integer DEFAULT false NOT NULL,
	`ip` text,
	`user_agent` text,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`support_admin_id` integer,
	`parent_session_id` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
INSERT INTO `sessions`("id", "token_hash", "user_id", "kind", "stage", "selected_company_id", "holds_other_region_token", "ip", "user_agent", "created_at", "last_seen_at", "expires_at", "support_admin_id", "parent_session_id") SELECT "id", "token_hash", "user_id", "kind", "stage", "selected_company_id", "holds_other_region_token", "ip", "user_agent", "created_at", "last_seen_at", "expires_at", "support_admin_id", "parent_session_id" FROM `__keep_sessions`;
CREATE UNIQUE INDEX `sessions_token_hash_uq` ON `sessions` (`token_hash`);
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);
CREATE INDEX `sessions_parent_idx` ON `sessions` (`parent_session_id`);
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);
CREATE UNIQUE INDEX `users_public_id_uq` ON `users` (`public_id`);
CREATE INDEX `users_client_idx` ON `users` (`client_id`);
CREATE INDEX `users_type_status_idx` ON `users` (`user_type`,`status`);
-- The cascade children, back (their rows were deleted with the parents).
DELETE FROM `user_companies`;
INSERT INTO `user_companies` SELECT * FROM `__keep_user_companies`;
DELETE FROM `user_campuses`;
INSERT INTO `user_campuses` SELECT * FROM `__keep_user_campuses`;
DELETE FROM `user_roles`;
INSERT INTO `user_roles` SELECT * FROM `__keep_user_roles`;
DELETE FROM `one_time_pins`;
INSERT INTO `one_time_pins` SELECT * FROM `__keep_one_time_pins`;
DELETE FROM `invitations`;
INSERT INTO `invitations` SELECT * FROM `__keep_invitations`;
DELETE FROM `notifications`;
INSERT INTO `notifications` SELECT * FROM `__keep_notifications`;
DELETE FROM `mfa_events`;
INSERT INTO `mfa_events` SELECT * FROM `__keep_mfa_events`;
DROP TABLE `__keep_roles`;
DROP TABLE `__keep_role_permissions`;
DROP TABLE `__keep_users`;
DROP TABLE `__keep_user_companies`;
DROP TABLE `__keep_user_campuses`;
DROP TABLE `__keep_user_roles`;
DROP TABLE `__keep_sessions`;
DROP TABLE `__keep_one_time_pins`;
DROP TABLE `__keep_invitations`;
DROP TABLE `__keep_notifications`;
DROP TABLE `__keep_mfa_events`;
-- The next id is past every id a log row names, so a deleted role's or user's id is never given again.
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'roles', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'roles');
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, (SELECT coalesce(max(`id`), 0) FROM `roles`), (SELECT coalesce(max(`entity_id`), 0) FROM `activity_logs` WHERE `entity_type` = 'role')) WHERE `name` = 'roles';
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT 'users', 0 WHERE NOT EXISTS (SELECT 1 FROM `sqlite_sequence` WHERE `name` = 'users');
UPDATE `sqlite_sequence` SET `seq` = max(`seq`, (SELECT coalesce(max(`id`), 0) FROM `users`), (SELECT coalesce(max(`entity_id`), 0) FROM `activity_logs` WHERE `entity_type` = 'user')) WHERE `name` = 'users';
ALTER TABLE `activity_logs` ADD `entity_label` text;
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `clients` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'client';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `campuses` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'campus';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `companies` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'company';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `insurers` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'insurer';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `countries` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'country';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `products` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'product';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `product_groups` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'product_group';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `contracts` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'contract';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `service_agreements` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'service_agreement';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `roles` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'role';
UPDATE `activity_logs` SET `entity_label` = coalesce(coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')),
  (SELECT e.name FROM `api_keys` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`))
WHERE `entity_type` = 'api_key';
UPDATE `activity_logs` SET `entity_label` = coalesce((SELECT trim(e.first_name || ' ' || e.last_name) FROM `users` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`),
  coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')))
WHERE `entity_type` = 'user';
UPDATE `activity_logs` SET `entity_label` = coalesce((SELECT e.number FROM `invoices` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`),
  coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')))
WHERE `entity_type` = 'invoice';
UPDATE `activity_logs` SET `entity_label` = coalesce((SELECT e.policy_number || ' · ' || trim(e.first_name || ' ' || e.last_name) FROM `policies` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`),
  coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')))
WHERE `entity_type` = 'policy';
UPDATE `activity_logs` SET `entity_label` = coalesce((SELECT e.file_name FROM `imports` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`),
  coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')))
WHERE `entity_type` = 'import';
UPDATE `activity_logs` SET `entity_label` = coalesce((SELECT e.file_name FROM `cancellation_imports` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`),
  coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')))
WHERE `entity_type` = 'cancellation_import';
UPDATE `activity_logs` SET `entity_label` = coalesce((SELECT e.file_name FROM `bank_statements` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`),
  coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')))
WHERE `entity_type` = 'bank_statement';
UPDATE `activity_logs` SET `entity_label` = coalesce((SELECT e.url FROM `webhook_endpoints` e WHERE e.id = `activity_logs`.`entity_id` AND e.created_at <= `activity_logs`.`created_at`),
  coalesce(coalesce(json_extract(`after`, '$.name'), json_extract(`before`, '$.name')), coalesce(json_extract(`after`, '$.title'), json_extract(`before`, '$.title')),
    nullif(trim(coalesce(coalesce(json_extract(`after`, '$.first_name'), json_extract(`before`, '$.first_name')), '') || ' ' || coalesce(coalesce(json_extract(`after`, '$.last_name'), json_extract(`before`, '$.last_name')), '')), '')))
WHERE `entity_type` = 'webhook_endpoint';
