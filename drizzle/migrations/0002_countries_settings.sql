ALTER TABLE `countries` ADD `age_min` integer;--> statement-breakpoint
ALTER TABLE `countries` ADD `age_max` integer;--> statement-breakpoint
ALTER TABLE `countries` ADD `travel_restriction_notes` text;--> statement-breakpoint
ALTER TABLE `countries` ADD `stamp_duty_applicable` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `countries` ADD `requires_passport_number` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `countries_status_idx` ON `countries` (`status`,`region_code`,`name`);--> statement-breakpoint
CREATE INDEX `tax_rates_active_idx` ON `tax_rates` (`country_id`,`active`);