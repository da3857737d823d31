// Issue 12 "Numbers": the genealogy of a flow card 6 generations deep with 500 related cards,
// through the API (GET /api/v1/flow-card/genealogy/{id}: two recursive CTEs over flow_card_link
// and the links among the related cards), among 200,000 other cards in chains of splits.
import { call, freshPgDatabase, login, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const NOISE = Number(process.env.BENCH_FLOW_CARDS) || 200_000;
const RELATED = 500;
const CALLS = 40;
const BASE_ID = 10_000_001;

const LOAD_SQL = [
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('FG', '成品', 1)`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status)
     VALUES ('B6204', '深沟球轴承 6204', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit), '1')`,
  `INSERT INTO production_order (doc_no, product_id, quantity, due_date, status)
     SELECT 'SCB' || lpad(i::text, 6, '0'), (SELECT min(id) FROM material), 1000, CURRENT_DATE + 30, 'producing'
       FROM generate_series(1, 1000) i`,
  // Other cards: pairs where the odd one was split into the even one.
  `INSERT INTO flow_card (doc_no, status, production_order_id, product_id, quantity, current_seq, origin)
     SELECT 'LZN' || lpad(i::text, 7, '0'), CASE WHEN i % 2 = 1 THEN 'split' ELSE 'open' END,
            (SELECT min(id) FROM production_order) + i % 1000, (SELECT min(id) FROM material), 100, 10,
            CASE WHEN i % 2 = 1 THEN 'open' ELSE 'split' END
       FROM generate_series(1, ${NOISE}) i`,
  `INSERT INTO flow_card_link (parent_id, child_id, kind, quantity)
     SELECT c.id, c.id + 1, 'split', 100 FROM flow_card c WHERE c.doc_no LIKE 'LZN%' AND substr(c.doc_no, 4)::int % 2 = 1`,
];

/** Root + 3 children per card, generation by generation, until `RELATED` descendants; some merges. */
function tree() {
  const cards = [{ id: BASE_ID, gen: 0 }];
  const links = [];
  let level = [BASE_ID];
  let next = BASE_ID + 1;
  for (let gen = 1; gen <= 6 && cards.length <= RELATED; gen++) {
    const made = [];
    for (const parent of level) {
      for (let k = 0; k < 3 && cards.length <= RELATED; k++) {
        cards.push({ id: next, gen });
        links.push([parent, next, 'split']);
        made.push(next++);
      }
    }
    level = made;
  }
  // Merges: 20 cards of the last generation also take pieces of a card of the one before.
  const last = cards.filter((c) => c.gen === 6);
  const before = cards.filter((c) => c.gen === 5);
  for (let i = 0; i < 20 && i < last.length; i++) {
    const extra = before[(i * 7 + 3) % before.length].id;
    if (!links.some(([p, c]) => p === extra && c === last[i].id)) links.push([extra, last[i].id, 'merge']);
  }
  return { cards, links, leaf: last[last.length - 1].id };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

export default {
  name: 'flow-card-genealogy',
  description: `流转卡 genealogy, 6 generations and ${RELATED} related cards among ${NOISE.toLocaleString('en')} others (PostgreSQL, via the API)`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    const { cards, links, leaf } = tree();
    await pgExec(
      db.url,
      `INSERT INTO flow_card (id, doc_no, status, production_order_id, product_id, quantity, current_seq, origin)
         SELECT id, 'LZT' || id, 'open', (SELECT min(id) FROM production_order), (SELECT min(id) FROM material), 10, 10, 'split'
           FROM unnest($1::bigint[]) id`,
      [cards.map((c) => c.id)],
    );
    await pgExec(
      db.url,
      `INSERT INTO flow_card_link (parent_id, child_id, kind, quantity)
         SELECT p, c, k, 1 FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS x(p, c, k)`,
      [links.map((l) => l[0]), links.map((l) => l[1]), links.map((l) => l[2])],
    );
    await pgExec(db.url, 'ANALYZE');
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    const measure = async (id, check) => {
      const ms = [];
      for (let i = 0; i < CALLS + 5; i++) {
        const s = performance.now();
        const r = await call(server.base, 'GET', `/api/v1/flow-card/genealogy/${id}`, { token });
        if (i >= 5) ms.push(performance.now() - s);
        if (r.status !== 200) throw new Error(`genealogy answered ${r.status}: ${JSON.stringify(r.body)}`);
        check(r.body.result);
      }
      return pct(ms, 95);
    };
    const down = await measure(BASE_ID, (g) => {
      if (g.descendants.length !== cards.length - 1)
        throw new Error(`descendants ${g.descendants.length}, expected ${cards.length - 1}`);
    });
    const up = await measure(leaf, (g) => {
      if (Math.max(...g.ancestors.map((a) => a.depth)) !== 6)
        throw new Error('the leaf is not 6 generations deep');
    });
    await server.stop();
    return [
      {
        metric: `descendants of a root (${cards.length - 1} cards, 6 generations), p95 of ${CALLS}`,
        value: Math.round(down),
        unit: 'ms',
        target: '≤ 100',
        pass: down <= 100,
      },
      {
        metric: `ancestors of a leaf (6 generations), p95 of ${CALLS}`,
        value: Math.round(up),
        unit: 'ms',
        target: '≤ 100',
        pass: up <= 100,
      },
    ];
  },
};
