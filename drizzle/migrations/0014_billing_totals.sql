CREATE TABLE `billing_balances` (
	`company_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`currency` text NOT NULL,
	`due_at` text NOT NULL,
	`owed_minor` integer DEFAULT 0 NOT NULL,
	`credit_minor` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `client_id`, `currency`, `due_at`)
);
--> statement-breakpoint
CREATE TABLE `billing_months` (
	`company_id` integer NOT NULL,
	`currency` text NOT NULL,
	`month` text NOT NULL,
	`invoiced_minor` integer DEFAULT 0 NOT NULL,
	`collected_minor` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `currency`, `month`)
);
--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------------
-- Hand-written (re-append after regenerating): the triggers that keep billing_balances and
-- billing_months (drizzle/schema/billing-totals.ts), then the backfill from the invoices and
-- transactions already there. An invoice's balance share: void 0; a credit note on the account
-- (credit_for_id NULL) -total; a credit note against an invoice 0 (the invoice's credited_minor holds it);
-- anything else total - paid + refunded - credited (status.ts balanceMinor); positive is owed, negative
-- is credit. Collected: succeeded payments less refunds by coalesce(paid_on, day created).
-- ---------------------------------------------------------------------------------------------------
CREATE TRIGGER `invoices_billing_insert` AFTER INSERT ON `invoices` BEGIN
  INSERT INTO `billing_balances` (`company_id`, `client_id`, `currency`, `due_at`, `owed_minor`, `credit_minor`)
    SELECT NEW.company_id, NEW.client_id, NEW.currency, NEW.due_at, max(b, 0), max(-b, 0)
    FROM (SELECT CASE WHEN NEW.voided_at IS NOT NULL THEN 0 WHEN NEW.type = 'credit_note' THEN CASE WHEN NEW.credit_for_id IS NULL THEN -NEW.total_minor ELSE 0 END ELSE NEW.total_minor - NEW.paid_minor + NEW.refunded_minor - NEW.credited_minor END AS b) WHERE b <> 0
    ON CONFLICT DO UPDATE SET `owed_minor` = `owed_minor` + excluded.`owed_minor`, `credit_minor` = `credit_minor` + excluded.`credit_minor`;
  INSERT INTO `billing_months` (`company_id`, `currency`, `month`, `invoiced_minor`)
    SELECT NEW.company_id, NEW.currency, substr(NEW.date, 1, 7), NEW.total_minor WHERE NEW.type <> 'credit_note' AND NEW.voided_at IS NULL AND NEW.total_minor <> 0
    ON CONFLICT DO UPDATE SET `invoiced_minor` = `invoiced_minor` + excluded.`invoiced_minor`;
END;
--> statement-breakpoint
CREATE TRIGGER `invoices_billing_update` AFTER UPDATE OF `company_id`, `client_id`, `currency`, `due_at`, `date`, `type`, `voided_at`, `credit_for_id`, `total_minor`, `paid_minor`, `refunded_minor`, `credited_minor` ON `invoices`
WHEN OLD.company_id IS NOT NEW.company_id OR OLD.client_id IS NOT NEW.client_id OR OLD.currency IS NOT NEW.currency OR OLD.due_at IS NOT NEW.due_at OR OLD.date IS NOT NEW.date OR OLD.type IS NOT NEW.type OR OLD.voided_at IS NOT NEW.voided_at OR OLD.credit_for_id IS NOT NEW.credit_for_id OR OLD.total_minor IS NOT NEW.total_minor OR OLD.paid_minor IS NOT NEW.paid_minor OR OLD.refunded_minor IS NOT NEW.refunded_minor OR OLD.credited_minor IS NOT NEW.credited_minor
BEGIN
  INSERT INTO `billing_balances` (`company_id`, `client_id`, `currency`, `due_at`, `owed_minor`, `credit_minor`)
    SELECT OLD.company_id, OLD.client_id, OLD.currency, OLD.due_at, -max(b, 0), -max(-b, 0)
    FROM (SELECT CASE WHEN OLD.voided_at IS NOT NULL THEN 0 WHEN OLD.type = 'credit_note' THEN CASE WHEN OLD.credit_for_id IS NULL THEN -OLD.total_minor ELSE 0 END ELSE OLD.total_minor - OLD.paid_minor + OLD.refunded_minor - OLD.credited_minor END AS b) WHERE b <> 0
    ON CONFLICT DO UPDATE SET `owed_minor` = `owed_minor` + excluded.`owed_minor`, `credit_minor` = `credit_minor` + excluded.`credit_minor`;
  INSERT INTO `billing_balances` (`company_id`, `client_id`, `currency`, `due_at`, `owed_minor`, `credit_minor`)
    SELECT NEW.company_id, NEW.client_id, NEW.currency, NEW.due_at, max(b, 0), max(-b, 0)
    FROM (SELECT CASE WHEN NEW.voided_at IS NOT NULL THEN 0 WHEN NEW.type = 'credit_note' THEN CASE WHEN NEW.credit_for_id IS NULL THEN -NEW.total_minor ELSE 0 END ELSE NEW.total_minor - NEW.paid_minor + NEW.refunded_minor - NEW.credited_minor END AS b) WHERE b <> 0
    ON CONFLICT DO UPDATE SET `owed_minor` = `owed_minor` + excluded.`owed_minor`, `credit_minor` = `credit_minor` + excluded.`credit_minor`;
  DELETE FROM `billing_balances` WHERE `company_id` = OLD.company_id AND `client_id` = OLD.client_id AND `currency` = OLD.currency AND `due_at` = OLD.due_at AND `owed_minor` = 0 AND `credit_minor` = 0;
  INSERT INTO `billing_months` (`company_id`, `currency`, `month`, `invoiced_minor`)
    SELECT OLD.company_id, OLD.currency, substr(OLD.date, 1, 7), -OLD.total_minor WHERE OLD.type <> 'credit_note' AND OLD.voided_at IS NULL AND OLD.total_minor <> 0
    ON CONFLICT DO UPDATE SET `invoiced_minor` = `invoiced_minor` + excluded.`invoiced_minor`;
  INSERT INTO `billing_months` (`company_id`, `currency`, `month`, `invoiced_minor`)
    SELECT NEW.company_id, NEW.currency, substr(NEW.date, 1, 7), NEW.total_minor WHERE NEW.type <> 'credit_note' AND NEW.voided_at IS NULL AND NEW.total_minor <> 0
    ON CONFLICT DO UPDATE SET `invoiced_minor` = `invoiced_minor` + excluded.`invoiced_minor`;
END;
--> statement-breakpoint
CREATE TRIGGER `invoices_billing_delete` AFTER DELETE ON `invoices` BEGIN
  INSERT INTO `billing_balances` (`company_id`, `client_id`, `currency`, `due_at`, `owed_minor`, `credit_minor`)
    SELECT OLD.company_id, OLD.client_id, OLD.currency, OLD.due_at, -max(b, 0), -max(-b, 0)
    FROM (SELECT CASE WHEN OLD.voided_at IS NOT NULL THEN 0 WHEN OLD.type = 'credit_note' THEN CASE WHEN OLD.credit_for_id IS NULL THEN -OLD.total_minor ELSE 0 END ELSE OLD.total_minor - OLD.paid_minor + OLD.refunded_minor - OLD.credited_minor END AS b) WHERE b <> 0
    ON CONFLICT DO UPDATE SET `owed_minor` = `owed_minor` + excluded.`owed_minor`, `credit_minor` = `credit_minor` + excluded.`credit_minor`;
  DELETE FROM `billing_balances` WHERE `company_id` = OLD.company_id AND `client_id` = OLD.client_id AND `currency` = OLD.currency AND `due_at` = OLD.due_at AND `owed_minor` = 0 AND `credit_minor` = 0;
  INSERT INTO `billing_months` (`company_id`, `currency`, `month`, `invoiced_minor`)
    SELECT OLD.company_id, OLD.currency, substr(OLD.date, 1, 7), -OLD.total_minor WHERE OLD.type <> 'credit_note' AND OLD.voided_at IS NULL AND OLD.total_minor <> 0
    ON CONFLICT DO UPDATE SET `invoiced_minor` = `invoiced_minor` + excluded.`invoiced_minor`;
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_billing_insert` AFTER INSERT ON `transactions` WHEN NEW.status = 'succeeded' BEGIN
  INSERT INTO `billing_months` (`company_id`, `currency`, `month`, `collected_minor`)
    SELECT i.company_id, i.currency, substr(coalesce(NEW.paid_on, date(NEW.created_at / 1000, 'unixepoch')), 1, 7),
      CASE WHEN NEW.kind = 'payment' THEN NEW.amount_minor ELSE -NEW.amount_minor END
    FROM `invoices` i WHERE i.id = NEW.invoice_id
    ON CONFLICT DO UPDATE SET `collected_minor` = `collected_minor` + excluded.`collected_minor`;
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_billing_update` AFTER UPDATE OF `invoice_id`, `kind`, `status`, `amount_minor`, `paid_on`, `created_at` ON `transactions`
WHEN (OLD.status = 'succeeded' OR NEW.status = 'succeeded') AND (OLD.invoice_id IS NOT NEW.invoice_id OR OLD.kind IS NOT NEW.kind OR OLD.status IS NOT NEW.status OR OLD.amount_minor IS NOT NEW.amount_minor OR OLD.paid_on IS NOT NEW.paid_on OR OLD.created_at IS NOT NEW.created_at)
BEGIN
  INSERT INTO `billing_months` (`company_id`, `currency`, `month`, `collected_minor`)
    SELECT i.company_id, i.currency, substr(coalesce(OLD.paid_on, date(OLD.created_at / 1000, 'unixepoch')), 1, 7),
      CASE WHEN OLD.kind = 'payment' THEN -OLD.amount_minor ELSE OLD.amount_minor END
    FROM `invoices` i WHERE i.id = OLD.invoice_id AND OLD.status = 'succeeded'
    ON CONFLICT DO UPDATE SET `collected_minor` = `collected_minor` + excluded.`collected_minor`;
  INSERT INTO `billing_months` (`company_id`, `currency`, `month`, `collected_minor`)
    SELECT i.company_id, i.currency, substr(coalesce(NEW.paid_on, date(NEW.created_at / 1000, 'unixepoch')), 1, 7),
      CASE WHEN NEW.kind = 'payment' THEN NEW.amount_minor ELSE -NEW.amount_minor END
    FROM `invoices` i WHERE i.id = NEW.invoice_id AND NEW.status = 'succeeded'
    ON CONFLICT DO UPDATE SET `collected_minor` = `collected_minor` + excluded.`collected_minor`;
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_billing_delete` AFTER DELETE ON `transactions` WHEN OLD.status = 'succeeded' BEGIN
  INSERT INTO `billing_months` (`company_id`, `currency`, `month`, `collected_minor`)
    SELECT i.company_id, i.currency, substr(coalesce(OLD.paid_on, date(OLD.created_at / 1000, 'unixepoch')), 1, 7),
      CASE WHEN OLD.kind = 'payment' THEN -OLD.amount_minor ELSE OLD.amount_minor END
    FROM `invoices` i WHERE i.id = OLD.invoice_id
    ON CONFLICT DO UPDATE SET `collected_minor` = `collected_minor` + excluded.`collected_minor`;
END;
--> statement-breakpoint
INSERT INTO `billing_balances` (`company_id`, `client_id`, `currency`, `due_at`, `owed_minor`, `credit_minor`)
  SELECT company_id, client_id, currency, due_at, sum(max(b, 0)), sum(max(-b, 0)) FROM (
    SELECT company_id, client_id, currency, due_at, CASE WHEN voided_at IS NOT NULL THEN 0 WHEN type = 'credit_note' THEN CASE WHEN credit_for_id IS NULL THEN -total_minor ELSE 0 END ELSE total_minor - paid_minor + refunded_minor - credited_minor END AS b FROM `invoices`)
  WHERE b <> 0 GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO `billing_months` (`company_id`, `currency`, `month`, `invoiced_minor`, `collected_minor`)
  SELECT company_id, currency, month, sum(inv), sum(col) FROM (
    SELECT company_id, currency, substr(date, 1, 7) AS month, total_minor AS inv, 0 AS col FROM `invoices` WHERE type <> 'credit_note' AND voided_at IS NULL
    UNION ALL
    SELECT i.company_id, i.currency, substr(coalesce(t.paid_on, date(t.created_at / 1000, 'unixepoch')), 1, 7), 0,
      CASE WHEN t.kind = 'payment' THEN t.amount_minor ELSE -t.amount_minor END
    FROM `transactions` t JOIN `invoices` i ON i.id = t.invoice_id WHERE t.status = 'succeeded')
  GROUP BY 1, 2, 3;
