-- A credit note is issued, not paid (docs/decisions/billing.md "Credit notes and refunds: the model"):
-- the credit notes written before say so, and have no paid date. Money columns are untouched, so the
-- billing totals' triggers have nothing to follow.
UPDATE `invoices` SET `status` = 'issued', `paid_at` = NULL WHERE `type` = 'credit_note' AND `voided_at` IS NULL;
