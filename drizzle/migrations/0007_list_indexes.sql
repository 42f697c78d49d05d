DROP INDEX `policies_name_idx`;--> statement-breakpoint
CREATE INDEX `policies_company_issued_idx` ON `policies` (`company_id`,`issued_at`);--> statement-breakpoint
CREATE INDEX `policies_company_last_name_idx` ON `policies` (`company_id`,"last_name" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `policies_company_first_name_idx` ON `policies` (`company_id`,"first_name" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `policies_company_end_idx` ON `policies` (`company_id`,`end_date`);--> statement-breakpoint
CREATE INDEX `policies_company_booking_idx` ON `policies` (`company_id`,`booking_date`);--> statement-breakpoint
CREATE INDEX `policies_company_status_idx` ON `policies` (`company_id`,`status`,`start_date`,`end_date`);--> statement-breakpoint
CREATE INDEX `policies_company_number_idx` ON `policies` (`company_id`,`policy_number`);--> statement-breakpoint
CREATE INDEX `policies_company_campus_idx` ON `policies` (`company_id`,`campus_id`);--> statement-breakpoint
CREATE INDEX `policies_company_product_idx` ON `policies` (`company_id`,`product_id`);--> statement-breakpoint
CREATE INDEX `policies_company_group_idx` ON `policies` (`company_id`,`group_name`);--> statement-breakpoint
CREATE INDEX `policies_company_type_idx` ON `policies` (`company_id`,`type`);--> statement-breakpoint
CREATE INDEX `policies_company_residence_idx` ON `policies` (`company_id`,`residence_country_id`);--> statement-breakpoint
CREATE INDEX `policies_client_issued_idx` ON `policies` (`client_id`,`issued_at`);--> statement-breakpoint
CREATE INDEX `policies_client_last_name_idx` ON `policies` (`client_id`,"last_name" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `policies_client_first_name_idx` ON `policies` (`client_id`,"first_name" COLLATE NOCASE);--> statement-breakpoint
CREATE INDEX `policies_client_end_idx` ON `policies` (`client_id`,`end_date`);--> statement-breakpoint
CREATE INDEX `policies_client_booking_idx` ON `policies` (`client_id`,`booking_date`);--> statement-breakpoint
CREATE INDEX `policies_client_status_idx` ON `policies` (`client_id`,`status`,`start_date`,`end_date`);--> statement-breakpoint
CREATE INDEX `policies_client_number_idx` ON `policies` (`client_id`,`policy_number`);--> statement-breakpoint
CREATE INDEX `policies_client_campus_idx` ON `policies` (`client_id`,`campus_id`);--> statement-breakpoint
CREATE INDEX `policies_client_product_idx` ON `policies` (`client_id`,`product_id`);--> statement-breakpoint
CREATE INDEX `policies_client_group_idx` ON `policies` (`client_id`,`group_name`);--> statement-breakpoint
CREATE INDEX `policies_client_type_idx` ON `policies` (`client_id`,`type`);--> statement-breakpoint
CREATE INDEX `policies_client_residence_idx` ON `policies` (`client_id`,`residence_country_id`);--> statement-breakpoint
CREATE INDEX `policies_company_start_idx` ON `policies` (`company_id`,`start_date`);--> statement-breakpoint
CREATE INDEX `policies_company_client_idx` ON `policies` (`company_id`,`client_id`);--> statement-breakpoint
CREATE INDEX `policies_dependency_idx` ON `policies` (`dependency_id`);--> statement-breakpoint
CREATE INDEX `policies_group_leader_idx` ON `policies` (`group_leader_id`);