CREATE TABLE `policy_overview_cache` (
	`scope_key` text PRIMARY KEY NOT NULL,
	`day` text NOT NULL,
	`revision` text NOT NULL,
	`summary` text NOT NULL,
	`group_names` text NOT NULL,
	`computed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `policy_revisions` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER `policies_revision_insert` AFTER INSERT ON `policies` BEGIN
	INSERT INTO `policy_revisions` (`company_id`, `revision`) VALUES (NEW.`company_id`, 1)
	ON CONFLICT (`company_id`) DO UPDATE SET `revision` = `revision` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `policies_revision_update` AFTER UPDATE OF `company_id`, `client_id`, `campus_id`, `status`, `start_date`, `end_date`, `group_name` ON `policies` BEGIN
	INSERT INTO `policy_revisions` (`company_id`, `revision`) VALUES (NEW.`company_id`, 1)
	ON CONFLICT (`company_id`) DO UPDATE SET `revision` = `revision` + 1;
	INSERT INTO `policy_revisions` (`company_id`, `revision`) VALUES (OLD.`company_id`, 1)
	ON CONFLICT (`company_id`) DO UPDATE SET `revision` = `revision` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `policies_revision_delete` AFTER DELETE ON `policies` BEGIN
	INSERT INTO `policy_revisions` (`company_id`, `revision`) VALUES (OLD.`company_id`, 1)
	ON CONFLICT (`company_id`) DO UPDATE SET `revision` = `revision` + 1;
END;
