ALTER TABLE `campuses` ADD `initial` text;--> statement-breakpoint
ALTER TABLE `campuses` ADD `description` text;--> statement-breakpoint
ALTER TABLE `campuses` ADD `quickbooks_id` text;--> statement-breakpoint
ALTER TABLE `campuses` ADD `phone_country` text;--> statement-breakpoint
ALTER TABLE `campuses` ADD `phone_number` text;--> statement-breakpoint
ALTER TABLE `campuses` ADD `website` text;--> statement-breakpoint
ALTER TABLE `campuses` ADD `preferred_lang` text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE `campuses` ADD `account_manager_id` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `campuses` ADD `account_number_ap` text;--> statement-breakpoint
ALTER TABLE `campuses` ADD `account_number_ar` text;--> statement-breakpoint
ALTER TABLE `campuses` ADD `payment_terms` text;--> statement-breakpoint
ALTER TABLE `campuses` ADD `pay_with_bank_transfer` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `campuses_client_status_idx` ON `campuses` (`client_id`,`status`,`name`);