// The baseline of the stock-posting benchmark: a bare `pg` transaction per outbound document making
// the same row changes as the posting service, with the lines already known to the client and one
// plain statement per change, as a hand-written script would:
//   BEGIN; conditional UPDATE of the document's status (draft → posted) RETURNING it;
//   SELECT … FOR UPDATE of the balance rows of the document's materials (one global order);
//   one guarded UPDATE of those balances (quantity >= requested); one upsert of the materials'
//   cost rows (the quantity the moving average is spread over) RETURNING the average; one INSERT
//   of the ledger rows costed at it; one UPDATE of the lines (base quantity, cost); one audit-log
//   INSERT; COMMIT — nine round-trips whatever the line count. No HTTP, no validation.

/** Posts draft outbound document `doc` = `{ id, warehouseId, lines: [{ id, materialId, quantity }] }`. */
export async function postOutbound(client, doc, userId = 1) {
  await client.query('BEGIN');
  try {
    const d = await client.query(
      `UPDATE stock_outbound SET status = 'posted', posted_at = now(), posted_by_id = $2, updated_by = $2,
              updated_at = now(), version = version + 1
        WHERE id = $1 AND status = 'draft' RETURNING doc_no, biz_date::text AS biz_date`,
      [doc.id, userId],
    );
    if (!d.rowCount) throw new Error(`document ${doc.id} is not a draft`);
    const materials = doc.lines.map((l) => l.materialId);
    const bal = await client.query(
      `SELECT id, material_id FROM stock_balance
        WHERE material_id = ANY($1::bigint[]) AND warehouse_id = $2 AND quantity > 0
        ORDER BY id FOR UPDATE`,
      [materials, doc.warehouseId],
    );
    const byMaterial = new Map(bal.rows.map((r) => [Number(r.material_id), r.id]));
    const ids = doc.lines.map((l) => byMaterial.get(l.materialId));
    const qty = doc.lines.map((l) => l.quantity);
    const u = await client.query(
      `UPDATE stock_balance b SET quantity = b.quantity - r.q, updated_at = now()
         FROM unnest($1::bigint[], $2::numeric[]) AS r(id, q)
        WHERE b.id = r.id AND b.quantity >= r.q`,
      [ids, qty],
    );
    if (u.rowCount !== ids.length) throw new Error('insufficient stock');
    const cost = await client.query(
      `INSERT INTO material_cost (material_id, quantity, avg_cost)
       SELECT r.id, -r.q, 0 FROM unnest($1::bigint[], $2::numeric[]) AS r(id, q)
       ON CONFLICT (material_id) DO UPDATE SET quantity = material_cost.quantity + excluded.quantity, updated_at = now()
       RETURNING material_id, avg_cost::text AS avg_cost`,
      [materials, qty],
    );
    const avg = new Map(cost.rows.map((r) => [Number(r.material_id), r.avg_cost]));
    const costs = doc.lines.map((l) => avg.get(l.materialId));
    await client.query(
      `INSERT INTO stock_ledger (material_id, warehouse_id, batch_no, quality_status, quantity, unit_cost, amount,
                                 doc_type, doc_kind, doc_id, doc_no, line_id, biz_date, created_by)
       SELECT r.m, $3, '', 'qualified', -r.q, r.c, round(-r.q * r.c, 2), 'stock-outbound', 'outbound', $4, $5, r.line, $6::date, $7
         FROM unnest($1::bigint[], $2::numeric[], $8::bigint[], $9::numeric[]) WITH ORDINALITY AS r(m, q, line, c, n) ORDER BY r.n`,
      [
        materials,
        qty,
        doc.warehouseId,
        doc.id,
        d.rows[0].doc_no,
        d.rows[0].biz_date,
        userId,
        doc.lines.map((l) => l.id),
        costs,
      ],
    );
    await client.query(
      `UPDATE stock_outbound_line l SET base_quantity = r.q, unit_price = r.c
         FROM unnest($1::bigint[], $2::numeric[], $3::numeric[]) AS r(id, q, c) WHERE l.id = r.id`,
      [doc.lines.map((l) => l.id), qty, costs],
    );
    await client.query(
      `INSERT INTO audit_log (entity, entity_id, action, after_data, user_id, user_name)
       VALUES ('stock-outbound', $1, 'post', $2::jsonb, $3, 'admin')`,
      [String(doc.id), JSON.stringify({ docNo: d.rows[0].doc_no }), userId],
    );
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}
