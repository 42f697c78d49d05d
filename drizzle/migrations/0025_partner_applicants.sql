CREATE TABLE `partner_applicants` (
	`id` integer PRIMARY KEY NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`partner_reference` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`date_of_birth` text NOT NULL,
	`email` text,
	`nationality` text,
	`school_name` text,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`policy_id` integer,
	`api_key_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partner_applicants_public_id_uq` ON `partner_applicants` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `partner_applicants_reference_uq` ON `partner_applicants` (`company_id`,`partner_reference`);--> statement-breakpoint
CREATE INDEX `partner_applicants_company_idx` ON `partner_applicants` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `partner_applicants_status_idx` ON `partner_applicants` (`company_id`,`status`,`created_at`);