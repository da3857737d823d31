-- 0036: 退款 (refund) settlements, and the indexes of aging at a past date.
-- Hand-written: adds columns to existing resources (receipt, payment), as declared in
-- packages/domain/src/finance/receivable.resource.ts.

ALTER TABLE receipt ADD COLUMN kind varchar(20) NOT NULL DEFAULT 'normal' CHECK (kind IN ('normal', 'refund'));
CREATE INDEX receipt_kind_idx ON receipt (kind, id);
ALTER TABLE payment ADD COLUMN kind varchar(20) NOT NULL DEFAULT 'normal' CHECK (kind IN ('normal', 'refund'));
CREATE INDEX payment_kind_idx ON payment (kind, id);

-- Aging at a past date reads the settlements confirmed after it and the items reversed after it.
CREATE INDEX receipt_confirmed_date_idx ON receipt (biz_date) WHERE status = 'confirmed';
CREATE INDEX payment_confirmed_date_idx ON payment (biz_date) WHERE status = 'confirmed';
CREATE INDEX receivable_reversed_at_idx ON receivable (reversed_at) WHERE status = 'reversed';
CREATE INDEX payable_reversed_at_idx ON payable (reversed_at) WHERE status = 'reversed';
