CREATE TABLE `bank_allocations` (
	`id` integer PRIMARY KEY NOT NULL,
	`line_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`amount_minor` integer NOT NULL,
	`source` text NOT NULL,
	`transaction_id` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`line_id`) REFERENCES `bank_statement_lines`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `bank_allocations_line_idx` ON `bank_allocations` (`line_id`);--> statement-breakpoint
CREATE INDEX `bank_allocations_invoice_idx` ON `bank_allocations` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `bank_statement_lines` (
	`id` integer PRIMARY KEY NOT NULL,
	`statement_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`line_no` integer NOT NULL,
	`booking_date` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`reference` text,
	`counterparty` text,
	`line_key` text NOT NULL,
	`status` text DEFAULT 'unmatched' NOT NULL,
	`problem` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`statement_id`) REFERENCES `bank_statements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `bank_statement_lines_statement_idx` ON `bank_statement_lines` (`statement_id`,`line_no`);--> statement-breakpoint
CREATE INDEX `bank_statement_lines_key_idx` ON `bank_statement_lines` (`company_id`,`line_key`);--> statement-breakpoint
CREATE TABLE `bank_statements` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`format` text NOT NULL,
	`status` text DEFAULT 'mapping' NOT NULL,
	`file_key` text NOT NULL,
	`file_name` text NOT NULL,
	`file_size` integer NOT NULL,
	`file_sha256` text NOT NULL,
	`headers` text,
	`sample` text,
	`mapping` text,
	`currency` text,
	`account` text,
	`line_count` integer DEFAULT 0 NOT NULL,
	`matched_count` integer DEFAULT 0 NOT NULL,
	`recorded_count` integer DEFAULT 0 NOT NULL,
	`job_id` integer,
	`message` text,
	`created_by` integer NOT NULL,
	`confirmed_at` integer,
	`confirmed_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`confirmed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bank_statements_public_id_uq` ON `bank_statements` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `bank_statements_file_uq` ON `bank_statements` (`company_id`,`file_sha256`);--> statement-breakpoint
CREATE INDEX `bank_statements_company_idx` ON `bank_statements` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `invoice_reminders` (
	`id` integer PRIMARY KEY NOT NULL,
	`invoice_id` integer NOT NULL,
	`kind` text NOT NULL,
	`step_days` integer DEFAULT 0 NOT NULL,
	`recipient` text NOT NULL,
	`outbox_id` integer,
	`sent_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`outbox_id`) REFERENCES `outbox`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sent_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invoice_reminders_invoice_idx` ON `invoice_reminders` (`invoice_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_reminders_step_uq` ON `invoice_reminders` (`invoice_id`,`step_days`) WHERE kind = 'scheduled';--> statement-breakpoint
ALTER TABLE `companies` ADD `overdue_reminder_days` text DEFAULT '[1,7,14]' NOT NULL;--> statement-breakpoint
ALTER TABLE `enrollments` ADD `stamp_duty_minor` integer;--> statement-breakpoint
ALTER TABLE `invoice_items` ADD `kind` text DEFAULT 'premium' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoice_items` ADD `tax_rate_bp` integer;--> statement-breakpoint
ALTER TABLE `invoice_items` ADD `stamp_duty_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoice_items` ADD `credits_item_id` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `stamp_duty_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `credited_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `refunded_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `credit_for_id` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `voided_at` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `voided_by` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `invoices` ADD `void_reason` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `billing_address` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `period_from` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `period_to` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `group_name` text;--> statement-breakpoint
CREATE INDEX `invoices_company_due_idx` ON `invoices` (`company_id`,`due_at`);--> statement-breakpoint
CREATE INDEX `invoices_credit_for_idx` ON `invoices` (`credit_for_id`);--> statement-breakpoint
ALTER TABLE `policies` ADD `tax_rate_bp` integer;--> statement-breakpoint
ALTER TABLE `policies` ADD `stamp_duty_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `method` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `note` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `receipt_key` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `receipt_name` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `receipt_type` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `idempotency_key` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `allocation_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_idempotency_uq` ON `transactions` (`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_allocation_uq` ON `transactions` (`allocation_id`);