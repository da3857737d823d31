-- 账龄 at a past date without reading the settlements or the items they settled: each confirmed
-- 收款/付款's application to an item, dated by the settlement and carrying the item's party, business
-- date and due date. 确认 inserts its rows, 反确认 deletes them (modules/finance/ledger.ts
-- applySettlement), so what was open on a date is the items open now plus the rows applied after it.
CREATE TABLE receivable_applied (
  settle_id bigint NOT NULL REFERENCES receipt (id) ON DELETE CASCADE,
  item_id bigint NOT NULL REFERENCES receivable (id),
  party_id bigint NOT NULL,
  applied_on date NOT NULL,
  item_biz_date date NOT NULL,
  item_due_date date NOT NULL,
  amount numeric(18,2) NOT NULL,
  PRIMARY KEY (settle_id, item_id)
);
CREATE TABLE payable_applied (
  settle_id bigint NOT NULL REFERENCES payment (id) ON DELETE CASCADE,
  item_id bigint NOT NULL REFERENCES payable (id),
  party_id bigint NOT NULL,
  applied_on date NOT NULL,
  item_biz_date date NOT NULL,
  item_due_date date NOT NULL,
  amount numeric(18,2) NOT NULL,
  PRIMARY KEY (settle_id, item_id)
);
CREATE INDEX receivable_applied_on_idx ON receivable_applied (applied_on)
  INCLUDE (party_id, item_biz_date, item_due_date, amount);
CREATE INDEX receivable_applied_party_idx ON receivable_applied (party_id, applied_on)
  INCLUDE (item_biz_date, item_due_date, amount);
CREATE INDEX receivable_applied_item_idx ON receivable_applied (item_id);
CREATE INDEX payable_applied_on_idx ON payable_applied (applied_on)
  INCLUDE (party_id, item_biz_date, item_due_date, amount);
CREATE INDEX payable_applied_party_idx ON payable_applied (party_id, applied_on)
  INCLUDE (item_biz_date, item_due_date, amount);
CREATE INDEX payable_applied_item_idx ON payable_applied (item_id);

INSERT INTO receivable_applied (settle_id, item_id, party_id, applied_on, item_biz_date, item_due_date, amount)
SELECT h.id, r.id, r.customer_id, h.biz_date, r.biz_date, r.due_date, sum(l.amount)
  FROM receipt h JOIN receipt_line l ON l.receipt_id = h.id JOIN receivable r ON r.id = l.receivable_id
 WHERE h.status = 'confirmed'
 GROUP BY h.id, r.id;
INSERT INTO payable_applied (settle_id, item_id, party_id, applied_on, item_biz_date, item_due_date, amount)
SELECT h.id, r.id, r.supplier_id, h.biz_date, r.biz_date, r.due_date, sum(l.amount)
  FROM payment h JOIN payment_line l ON l.payment_id = h.id JOIN payable r ON r.id = l.payable_id
 WHERE h.status = 'confirmed'
 GROUP BY h.id, r.id;

-- The open items of the aging at a past date are those dated by then: the date rides in the index.
DROP INDEX receivable_open_idx;
CREATE INDEX receivable_open_idx ON receivable (customer_id, due_date) INCLUDE (open_amount, biz_date)
  WHERE status IN ('open', 'partly');
DROP INDEX payable_open_idx;
CREATE INDEX payable_open_idx ON payable (supplier_id, due_date) INCLUDE (open_amount, biz_date)
  WHERE status IN ('open', 'partly');
