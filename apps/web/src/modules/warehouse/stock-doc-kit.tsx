import '../../platform/resource/kit.css';
import './warehouse.css';
import { Form } from 'antd';
import { usePermission } from '../../platform/auth/permission.tsx';
import type { LineCellOverride, LineCellOverrides } from '../../platform/resource/line-table.tsx';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import { DocLedger } from './doc-detail.tsx';
import {
  BaseQuantityCell,
  LineBaseTotals,
  LocationSelect,
  UnitSelect,
  useConversions,
} from './line-cells.tsx';
import { UnitTotals } from './shared.tsx';
import type { Row } from './warehouse.api.ts';

/**
 * What the stock documents add to the kit's form and detail: their line cells (the units of the
 * line's material, the 库位 of the header's warehouse, the base quantity as it is typed), the
 * totals per base unit, and the ledger moves a posted document wrote.
 */

/** 单位: the units the line's material is counted in (base unit first). */
const UnitCell: LineCellOverride = ({ form, index, value, onChange, id }) => {
  const materialId = Form.useWatch(['lines', index, 'materialId'], form);
  return <UnitSelect materialId={materialId} value={value} onChange={onChange} id={id} />;
};

/** 基本单位数量 as the quantity and unit are typed (2 箱 of 50 show 100 个). */
const BaseQuantity: LineCellOverride = ({ form, index }) => {
  const line = Form.useWatch(['lines', index], form) as Row | undefined;
  return <BaseQuantityCell line={line} index={index} />;
};

/** A line's 库位 among the active locations of the warehouse a header field names. */
export function locationCell(warehouseField: string, placeholder = '请选择库位'): LineCellOverride {
  return function LocationCell({ form, ariaLabel, line: _, field: __, index: ___, ...input }) {
    const warehouseId = Form.useWatch(warehouseField, form);
    return (
      <LocationSelect warehouseId={warehouseId} placeholder={placeholder} label={ariaLabel} {...input} />
    );
  };
}

/** The cells every stock document line shares (入库, 出库, 调拨). */
export const MATERIAL_CELLS: LineCellOverrides = {
  'lines.unitId': UnitCell,
  'lines.baseQuantity': BaseQuantity,
};

/** 基本单位数量合计 of the lines being typed. */
export function LineTotals() {
  const form = Form.useFormInstance();
  const lines = Form.useWatch('lines', form) as Row[] | undefined;
  return <LineBaseTotals lines={lines} />;
}

/** Sections of a stock document's detail: 基本单位数量合计, then the ledger moves once posted. */
export function StockDocSections({ row }: { row: ResourceRow }) {
  // 库存流水 is the warehouse's (a buyer viewing a 采购退货 sees the document, not the ledger).
  const seesLedger = usePermission()('warehouse:stock:list');
  const lines: Row[] = row.lines ?? [];
  const conversions = useConversions(lines.map((l) => l.materialId));
  return (
    <>
      <div className="wh-totals">
        <UnitTotals
          label="基本单位数量合计"
          totals={lines.map((l) => ({
            unitName: conversions.get(l.materialId)?.baseUnitName,
            quantity: l.baseQuantity,
          }))}
        />
      </div>
      {row.status !== 'draft' && seesLedger && (
        <div className="rk-form-section">
          <div className="rk-form-section-title">库存流水</div>
          <DocLedger docNo={row.docNo} />
        </div>
      )}
    </>
  );
}
