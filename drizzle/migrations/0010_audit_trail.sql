CREATE INDEX `activity_logs_created_idx` ON `activity_logs` (`created_at`);--> statement-breakpoint
CREATE INDEX `activity_logs_company_idx` ON `activity_logs` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `activity_logs_client_idx` ON `activity_logs` (`client_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `activity_logs_action_idx` ON `activity_logs` (`action`,`created_at`);--> statement-breakpoint
-- ---- hand-written (roles branch): re-append after regenerating ----
-- The audit trail's permission in a database seeded before it existed, with the default roles that hold
-- it (workers/domain/access/default-roles.ts). A fresh database (no roles yet) gets the same from the
-- seed, so nothing is written there.
INSERT OR IGNORE INTO `permissions` (`name`, `group`)
  SELECT 'read_audit_trail', 'audit_trail' WHERE EXISTS (SELECT 1 FROM `roles`);--> statement-breakpoint
INSERT OR IGNORE INTO `role_permissions` (`role_id`, `permission_id`)
  SELECT r.`id`, p.`id` FROM `roles` r, `permissions` p
  WHERE p.`name` = 'read_audit_trail' AND r.`slug` IN ('senior_admin', 'executive', 'school_master_user');
