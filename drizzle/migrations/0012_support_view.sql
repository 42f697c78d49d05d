ALTER TABLE `activity_logs` ADD `on_behalf_of_user_id` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `support_admin_id` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `parent_session_id` integer;--> statement-breakpoint
CREATE INDEX `sessions_parent_idx` ON `sessions` (`parent_session_id`);