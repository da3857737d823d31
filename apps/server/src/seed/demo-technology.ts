import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { technicalDocumentResource as def, REVISION_ATTACHMENT_OWNER } from '@ringmes/domain';
import { sql } from 'kysely';
import {
  technicalDocumentHooks,
  technicalDocumentTransitions,
} from '../modules/technology/technical-document.ts';
import { fileTypeOf } from '../platform/attachments/attachments.ts';
import type { FileStorage } from '../platform/attachments/storage.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { runTransition } from '../platform/resource/lifecycle.ts';

/**
 * A small but valid one-page PDF: a title block and a ring drawn as two circles (Bézier
 * quarter arcs), with a correct cross-reference table so browsers' viewers open it.
 */
export function demoPdf(lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const circle = (cx: number, cy: number, r: number) => {
    const k = r * 0.5523;
    return [
      `${cx + r} ${cy} m`,
      `${cx + r} ${cy + k} ${cx + k} ${cy + r} ${cx} ${cy + r} c`,
      `${cx - k} ${cy + r} ${cx - r} ${cy + k} ${cx - r} ${cy} c`,
      `${cx - r} ${cy - k} ${cx - k} ${cy - r} ${cx} ${cy - r} c`,
      `${cx + k} ${cy - r} ${cx + r} ${cy - k} ${cx + r} ${cy} c S`,
    ].join('\n');
  };
  const content = [
    '1 w 30 30 535 782 re S 30 30 535 90 re S',
    circle(297, 470, 160),
    circle(297, 470, 110),
    '0.5 w 120 470 m 475 470 l S 297 290 m 297 650 l S',
    'BT /F1 16 Tf 45 95 Td',
    ...lines.map((l, i) => `${i ? '0 -20 Td ' : ''}(${esc(l)}) Tj`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A grey-scale PNG of a bearing ring seen from the side (two circles), `size` pixels square. */
export function demoPng(size = 160): Buffer {
  const rows: Buffer[] = [];
  const c = size / 2;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(size + 1);
    for (let x = 0; x < size; x++) {
      const r = Math.hypot(x - c, y - c);
      row[x + 1] = r < c * 0.9 && r > c * 0.55 ? 90 : Math.abs(r - c * 0.72) < 1 ? 30 : 245;
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grey-scale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface DemoRevision {
  changeNote: string;
  files: [name: string, bytes: Buffer][];
  /** How far this revision goes: published (现行, or 已替代 by the next), approved, or left a draft. */
  until: 'publish' | 'approve' | 'draft';
}

/**
 * Demo 技术文档: published drawings of two bearings (6204-2RS in revision B, A superseded;
 * 6205-2RS in A), a customer specification, and a process card still being drafted. The files are
 * written to the attachment store like uploads.
 */
export async function seedDemoTechnology(db: Db, admin: AuthUser, storage: FileStorage): Promise<void> {
  const material = async (code: string) =>
    (await db.selectFrom('material').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  const process = async (code: string) =>
    (await db.selectFrom('process').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  const ctx = { db, user: admin, def };
  const run = (name: string, id: number, input: Record<string, unknown> = {}) =>
    runTransition(db, admin, def, name, id, input, technicalDocumentTransitions[name]);

  async function attach(revisionId: number, fileName: string, bytes: Buffer) {
    const stored = await storage.put(Readable.from([bytes]));
    await db
      .insertInto('attachment')
      .values({
        ownerResource: REVISION_ATTACHMENT_OWNER,
        ownerId: revisionId,
        fileName,
        mimeType: fileTypeOf(fileName, stored.head),
        size: stored.size,
        sha256: stored.sha256,
        storageKey: stored.key,
        createdBy: admin.id,
      })
      .execute();
  }

  async function document(body: Record<string, unknown>, revisions: DemoRevision[]) {
    const id = await createRecord(ctx, body, technicalDocumentHooks);
    for (const rev of revisions) {
      await run('revise', id, { changeNote: rev.changeNote });
      const working = await db
        .selectFrom('technicalDocumentRevision')
        .select('id')
        .where('documentId', '=', id)
        .where('status', '=', 'draft')
        .executeTakeFirstOrThrow();
      for (const [name, bytes] of rev.files) await attach(working.id, name, bytes);
      if (rev.until === 'draft') continue;
      await run('approve', id);
      if (rev.until === 'publish') await run('publish', id);
    }
  }

  const drawing = (model: string, rev: string, note: string) =>
    demoPdf([`${model} Deep Groove Ball Bearing - Assembly Drawing`, `Rev ${rev}   ${note}`, 'RingMES demo']);

  await document(
    { title: '6204-2RS 轴承总图', docType: 'drawing', materialId: await material('FG-6204-2RS') },
    [
      {
        changeNote: '初版',
        files: [['6204-2RS 总图 A.pdf', drawing('6204-2RS', 'A', 'OD 47 h6, ID 20')]],
        until: 'publish',
      },
      {
        changeNote: '外径公差由 h6 收紧为 h5，增加密封圈装配示意',
        files: [
          ['6204-2RS 总图 B.pdf', drawing('6204-2RS', 'B', 'OD 47 h5, ID 20, seal detail')],
          ['6204-2RS 外形照片.png', demoPng()],
        ],
        until: 'publish',
      },
    ],
  );
  await document(
    { title: '6205-2RS 轴承总图', docType: 'drawing', materialId: await material('FG-6205-2RS') },
    [
      {
        changeNote: '初版',
        files: [['6205-2RS 总图 A.pdf', drawing('6205-2RS', 'A', 'OD 52 h6, ID 25')]],
        until: 'publish',
      },
    ],
  );
  await document(
    {
      title: '主机厂 6204 轴承技术协议',
      docType: 'customer-spec',
      materialId: await material('FG-6204-2RS'),
      remark: '客户来图来样，振动与游隙按协议验收',
    },
    [
      {
        changeNote: '客户签章版',
        files: [
          [
            '6204 技术协议.pdf',
            demoPdf(['Customer Technical Agreement 6204-2RS', 'Vibration Z2, clearance C0']),
          ],
        ],
        until: 'publish',
      },
    ],
  );
  await ringDrawings(db, document);
  await document({ title: '磨沟道工艺卡', docType: 'process-card', processId: await process('GX100') }, [
    {
      changeNote: '新砂轮规格试行',
      files: [['磨沟道工艺卡.pdf', demoPdf(['Process Card GX100 Raceway Grinding', 'Wheel WA80K, 35 m/s'])]],
      until: 'draft',
    },
  ]);
}

/** How a step set's items read on the (Latin-lettered) demo drawing. */
const DRAWING_TERMS: Record<string, string> = {
  'QI-D': 'Bore d',
  'QI-DD': 'OD D',
  'QI-B': 'Width',
  'QI-RW': 'Raceway dia.',
  'QI-RA': 'Raceway Ra (um)',
  'QI-RR': 'Raceway roundness (um)',
  'QI-V': 'Visual',
};
const STAGE_TERMS: Record<string, string> = {
  turning: 'Turned (grinding allowance)',
  grinding: 'Ground (before superfinishing)',
  final: 'Finished',
};

/**
 * Each demo ring's part drawing (零件图) stating the sizes of its inspected steps, written from its
 * step item sets (检验模板, demo-quality.ts) so the drawing and the inspections say the same; the
 * templates are then linked to it (依据图纸), and the bearings' 末检 templates to their 总图.
 */
async function ringDrawings(
  db: Db,
  document: (body: Record<string, unknown>, revisions: DemoRevision[]) => Promise<void>,
) {
  const rows = await sql<{
    productId: number;
    code: string;
    name: string;
    drawingNo: string | null;
    process: string;
    sizeStage: string;
    item: string;
    nominal: string | null;
    upper: string | null;
    lower: string | null;
    allowance: string | null;
  }>`
    SELECT t.product_id, m.code, m.name, m.drawing_no, p.code AS process, t.size_stage, i.code AS item,
           l.nominal::text AS nominal, l.upper_tolerance::text AS upper, l.lower_tolerance::text AS lower,
           l.allowance::text AS allowance
      FROM inspection_template t JOIN material m ON m.id = t.product_id JOIN process p ON p.id = t.process_id
      JOIN inspection_template_line l ON l.inspection_template_id = t.id JOIN inspection_item i ON i.id = l.item_id
     WHERE t.size_stage IS NOT NULL AND m.code LIKE 'SF-6%'
     ORDER BY m.code, p.code, l.line_no`.execute(db);
  const num = (v: string | null) => (v == null ? null : String(Number(v)));
  for (const code of [...new Set(rows.rows.map((r) => r.code))]) {
    const mine = rows.rows.filter((r) => r.code === code);
    const lines = [
      `${code}  Drawing ${mine[0].drawingNo ?? ''} - sizes by process step`,
      ...[...new Set(mine.map((r) => r.process))].map((proc) => {
        const of = mine.filter((r) => r.process === proc && r.upper != null);
        const sizes = of.map((r) => {
          const dev = r.lower == null ? `max ${num(r.upper)}` : `${num(r.upper)}/${num(r.lower)}`;
          const n = num(r.nominal);
          const a = r.allowance && Number(r.allowance) > 0 ? ` (allow. ${num(r.allowance)})` : '';
          return `${DRAWING_TERMS[r.item] ?? r.item} ${n && n !== '0' ? `${n} ` : ''}${dev}${a}`;
        });
        return `${proc} ${STAGE_TERMS[of[0]?.sizeStage ?? mine.find((r) => r.process === proc)?.sizeStage ?? ''] ?? ''}: ${sizes.join('; ') || 'ISO 492 limits'}`;
      }),
    ];
    await document(
      {
        title: `${mine[0].name} ${code.slice(-2)} 零件图（工序尺寸）`,
        docType: 'drawing',
        materialId: Number(mine[0].productId),
      },
      [
        {
          changeNote: '初版：车削（含磨量）、磨削、成品尺寸',
          files: [[`${code} 零件图 A.pdf`, demoPdf(lines)]],
          until: 'publish',
        },
      ],
    );
  }
  // Every step set names the drawing in force of its product (the rings' above, the bearings' 总图).
  await sql`
    UPDATE inspection_template t SET technical_document_id = d.id
      FROM technical_document d
     WHERE t.size_stage IS NOT NULL AND d.material_id = t.product_id AND d.doc_type = 'drawing' AND d.status = 'published'`.execute(
    db,
  );
}
