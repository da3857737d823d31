// The baseline of the workshop benchmark: a bare `pg` transaction per submitted work report making
// the same row changes as 审核 → 入账 (modules/production/work-report.ts), one plain statement each,
// as a hand-written script would:
//   BEGIN; conditional UPDATE of the report (submitted → posted) RETURNING its figures;
//   SELECT … FOR UPDATE of its flow card (open, not held); one UPDATE of the card step (guarded:
//   never more than arrived) and of the next step's input; UPDATE of the card's current step;
//   UPDATE of the task's progress and state; UPDATE of the dispatch's reported quantity; INSERT of
//   the piece-rate wage line (rate from the process) RETURNING its amount; UPDATE of the report's
//   wage; the rollup upsert (report row and product-summary row); one audit-log INSERT; COMMIT —
//   twelve round-trips. No HTTP, no validation, no inspection or first-article checks.

/** Posts submitted work report `id`; throws when it is not submitted or would over-report. */
export async function postReport(client, id, userId = 1) {
  await client.query('BEGIN');
  try {
    const r = (
      await client.query(
        `UPDATE work_report SET status = 'posted', posted_at = now(), updated_by = $2, updated_at = now(),
                version = version + 1
          WHERE id = $1 AND status = 'submitted'
          RETURNING doc_no, flow_card_id, order_step_id, seq, task_id, dispatch_id, process_id, product_id,
                    production_order_id, operator_id, report_date::text AS report_date, good_quantity::text AS good,
                    work_scrap_quantity::text AS ws, material_scrap_quantity::text AS ms, rework_quantity::text AS rw`,
        [id, userId],
      )
    ).rows[0];
    if (!r) throw new Error(`report ${id} is not submitted`);
    const card = await client.query(
      `SELECT id FROM flow_card WHERE id = $1 AND status = 'open' AND NOT held FOR UPDATE`,
      [r.flow_card_id],
    );
    if (!card.rowCount) throw new Error('card not open');
    const steps = await client.query(
      `UPDATE flow_card_step s SET
              good_quantity = s.good_quantity + CASE WHEN s.seq = $2 THEN $3::numeric ELSE 0 END,
              work_scrap_quantity = s.work_scrap_quantity + CASE WHEN s.seq = $2 THEN $4::numeric ELSE 0 END,
              material_scrap_quantity = s.material_scrap_quantity + CASE WHEN s.seq = $2 THEN $5::numeric ELSE 0 END,
              rework_quantity = s.rework_quantity + CASE WHEN s.seq = $2 THEN $6::numeric ELSE 0 END,
              out_time = CASE WHEN s.seq = $2 THEN now() ELSE s.out_time END,
              input_quantity = s.input_quantity + CASE WHEN s.seq = $2 THEN 0 ELSE $3::numeric END
        WHERE s.flow_card_id = $1
          AND ((s.seq = $2 AND s.input_quantity >= s.good_quantity + s.work_scrap_quantity + s.material_scrap_quantity + $3 + $4 + $5)
               OR s.seq = (SELECT min(n.seq) FROM flow_card_step n WHERE n.flow_card_id = $1 AND n.seq > $2))`,
      [r.flow_card_id, r.seq, r.good, r.ws, r.ms, r.rw],
    );
    if (!steps.rowCount) throw new Error('over-reported');
    await client.query(
      `UPDATE flow_card SET current_seq = (SELECT min(seq) FROM flow_card_step WHERE flow_card_id = $1
                                            AND input_quantity > good_quantity + work_scrap_quantity + material_scrap_quantity),
              updated_at = now(), version = version + 1 WHERE id = $1`,
      [r.flow_card_id],
    );
    await client.query(
      `UPDATE workshop_task SET completed_quantity = completed_quantity + $2::numeric,
              scrap_quantity = scrap_quantity + $3::numeric + $4::numeric,
              status = CASE WHEN completed_quantity + $2::numeric >= planned_quantity THEN 'completed' ELSE status END,
              updated_at = now(), version = version + 1
        WHERE id = $1`,
      [r.task_id, r.good, r.ws, r.ms],
    );
    await client.query(
      `UPDATE work_dispatch SET reported_quantity = reported_quantity + $2::numeric WHERE id = $1`,
      [r.dispatch_id, r.good],
    );
    const wage = await client.query(
      `INSERT INTO piece_wage (work_report_id, doc_no, operator_id, work_date, process_id, product_id, production_order_id,
                               period, kind, quantity, piece_rate, good_amount, work_scrap_quantity, deduction_rate,
                               deduction_amount, rework_quantity, rework_rate, rework_amount, amount)
       SELECT $1, $2, $3, $4::date, p.id, $5, $6, date_trunc('month', $4::date)::date, 'report', $7::numeric, p.piece_rate,
              round($7::numeric * p.piece_rate, 2), $8::numeric, 0, 0, $9::numeric, 0, 0, round($7::numeric * p.piece_rate, 2)
         FROM process p WHERE p.id = $10
       RETURNING piece_rate::text AS rate, amount::text AS amount`,
      [
        id,
        r.doc_no,
        r.operator_id,
        r.report_date,
        r.product_id,
        r.production_order_id,
        r.good,
        r.ws,
        r.rw,
        r.process_id,
      ],
    );
    await client.query(`UPDATE work_report SET piece_rate = $2, wage_amount = $3 WHERE id = $1`, [
      id,
      wage.rows[0].rate,
      wage.rows[0].amount,
    ]);
    await client.query(
      `INSERT INTO work_report_rollup AS u (month, workshop_id, process_id, product_id, operator_id, scrap_reason,
              report_count, good_quantity, work_scrap_quantity, material_scrap_quantity, rework_quantity, hours, standard_minutes)
       SELECT date_trunc('month', r.report_date)::date, COALESCE(r.workshop_id, 0), r.process_id, p.product_id,
              COALESCE(r.operator_id, 0), COALESCE(r.scrap_reason, ''), 1, r.good_quantity, r.work_scrap_quantity,
              r.material_scrap_quantity, r.rework_quantity, COALESCE(r.hours, 0), 0
         FROM work_report r CROSS JOIN LATERAL (VALUES (r.product_id, 1), (0, 2)) p(product_id, k)
        WHERE r.id = $1 ORDER BY p.k
       ON CONFLICT (month, workshop_id, process_id, product_id, operator_id, scrap_reason) DO UPDATE SET
         report_count = u.report_count + 1, good_quantity = u.good_quantity + excluded.good_quantity,
         work_scrap_quantity = u.work_scrap_quantity + excluded.work_scrap_quantity,
         material_scrap_quantity = u.material_scrap_quantity + excluded.material_scrap_quantity,
         rework_quantity = u.rework_quantity + excluded.rework_quantity, hours = u.hours + excluded.hours`,
      [id],
    );
    await client.query(
      `INSERT INTO audit_log (entity, entity_id, action, after_data, user_id, user_name)
       VALUES ('work-report', $1, 'approve', $2::jsonb, $3, 'admin')`,
      [String(id), JSON.stringify({ status: 'posted' }), userId],
    );
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}
