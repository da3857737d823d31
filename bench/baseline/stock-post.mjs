// The baseline of the stock-posting benchmark: a bare `pg` transaction per outbound document making
// the same row changes as the posting service, with the lines already known to the client and one
// plain statement per change, as a hand-written script would:
//   BEGIN; conditional UPDATE of the document's status (draft → posted) RETURNING it;
//   one upsert locking the valuation rows (stock_value: quantity and value per material ×
//   warehouse) in one global order, RETURNING them; SELECT … FOR UPDATE of the balance rows of the
//   document's materials (one global order); one guarded UPDATE of those balances (quantity >=
//   requested); one UPDATE of the valuation rows; one INSERT of the ledger rows, each issue costed
//   at its share of the value; one UPDATE of the lines (base quantity, cost); one audit-log INSERT;
//   COMMIT — ten round-trips whatever the line count. No HTTP, no validation.

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
    const pairs = await client.query(
      `INSERT INTO stock_value AS v (material_id, warehouse_id)
       SELECT r.m, $2 FROM unnest($1::bigint[]) AS r(m) ORDER BY r.m
       ON CONFLICT (material_id, warehouse_id) DO UPDATE SET material_id = excluded.material_id
       RETURNING v.material_id, v.quantity::text AS quantity, v.value::text AS value`,
      [[...new Set(materials)].sort((a, b) => a - b), doc.warehouseId],
    );
    const bin = new Map(
      pairs.rows.map((r) => [Number(r.material_id), { q: Number(r.quantity), v: Number(r.value) }]),
    );
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
    // Each issue takes its share of the value (quantity × value ÷ on hand, to the cent).
    const costs = [];
    const amounts = doc.lines.map((l) => {
      const b = bin.get(l.materialId);
      const q = Number(l.quantity);
      costs.push(b.q > 0 ? (b.v / b.q).toFixed(6) : '0');
      const a = q >= b.q ? b.v : Math.round((q * b.v * 100) / b.q) / 100;
      b.q -= q;
      b.v -= a;
      return (-a).toFixed(2);
    });
    const after = [...bin.entries()];
    await client.query(
      `UPDATE stock_value s SET quantity = r.q, value = r.v, avg_cost = CASE WHEN r.q > 0 THEN round(r.v / r.q, 6) ELSE s.avg_cost END,
              updated_at = now()
         FROM unnest($1::bigint[], $2::numeric[], $3::numeric[]) AS r(m, q, v)
        WHERE s.material_id = r.m AND s.warehouse_id = $4`,
      [
        after.map(([m]) => m),
        after.map(([, b]) => String(b.q)),
        after.map(([, b]) => b.v.toFixed(2)),
        doc.warehouseId,
      ],
    );
    await client.query(
      `INSERT INTO stock_ledger (material_id, warehouse_id, batch_no, quality_status, quantity, unit_cost, amount,
                                 doc_type, doc_kind, doc_id, doc_no, line_id, biz_date, created_by)
       SELECT r.m, $3, '', 'qualified', -r.q, r.c, r.a, 'stock-outbound', 'outbound', $4, $5, r.line, $6::date, $7
         FROM unnest($1::bigint[], $2::numeric[], $8::bigint[], $9::numeric[], $10::numeric[]) WITH ORDINALITY AS r(m, q, line, c, a, n)
        ORDER BY r.n`,
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
        amounts,
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
