import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import type { FieldDef, LineDef, ResourceDef } from '@ringmes/domain';
import type { FormListFieldData } from 'antd';
import { Button, Form, type FormInstance, Table, type TableColumnsType, Tooltip } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { FieldInput, fieldRules } from './field-input.tsx';
import { defaultsOf, isNumeric, refLabelKey } from './fields.ts';
import { FieldValue } from './format.tsx';
import { LineImport } from './line-import.tsx';
import { countsInUnit, UnitQuantityItem } from './unit-precision.tsx';

/** Column width of a line cell by kind. */
export function cellWidth(f: FieldDef): number {
  switch (f.kind) {
    case 'ref':
    case 'refs':
      return f.ref === 'material-info' ? 260 : 180;
    case 'boolean':
      return 90;
    case 'enum':
      return 120;
    case 'date':
      return 150;
    case 'int':
      return 110;
    case 'textarea':
      return 240;
    default:
      return isNumeric(f) ? 140 : (f.max ?? 100) > 100 ? 220 : 160;
  }
}

export function ColumnTitle({ field }: { field: FieldDef }) {
  return (
    <span className="rk-col-title">
      {field.required && <span className="rk-required">*</span>}
      {field.label}
      {field.help && (
        <Tooltip title={field.help}>
          <QuestionCircleOutlined className="rk-help" />
        </Tooltip>
      )}
    </span>
  );
}

/**
 * A module's own input for one line cell (the 库位 of the header's warehouse, the units of the
 * line's material), rendered inside the cell's Form.Item, which passes `value`, `onChange` and `id`.
 */
export type LineCellOverride = ComponentType<{
  form: FormInstance;
  line: LineDef;
  field: FieldDef;
  /** The line's index in the form list. */
  index: number;
  ariaLabel: string;
  value?: any;
  onChange?: (value: any) => void;
  id?: string;
}>;

/** A line where nothing was typed: every field without a default is empty. */
function isBlank(line: LineDef, values: Record<string, unknown> | undefined): boolean {
  return line.fields.every(
    (f) => f.default !== undefined || f.readonly || values?.[f.name] == null || values[f.name] === '',
  );
}

/** Line cell overrides by `<line>.<field>` (`lines.locationId`); null leaves the column out (a cost set by posting). */
export type LineCellOverrides = Record<string, LineCellOverride | null>;

/** A column of a line table that is no field: what the line means now (可用 of an outbound line). */
export interface LineExtraColumn {
  key: string;
  title: string;
  width: number;
  /** The field it follows. */
  after: string;
  render: (form: FormInstance, index: number) => ReactNode;
}

/** The accessible name of a line cell's input: the row and the column (「第2行数量」, as the warehouse lines). */
export const cellLabel = (index: number, f: FieldDef) => `第${index + 1}行${f.label}`;

/**
 * A line table (BOM明细, 联系人…) edited in place: one row per line, cells are the line fields'
 * inputs with the declaration's rules; add, delete and reorder rows within `min`/`max`.
 * Server errors on `lines.0.materialId` land on the cell (the form path is the same).
 */
export function LineTableEditor({
  line,
  form,
  disabled,
  def,
  cells = {},
  footer,
  extraColumns = [],
}: {
  line: LineDef;
  form: FormInstance;
  disabled?: boolean;
  /** The document, when its lines can be imported from Excel (导入明细). */
  def?: ResourceDef;
  /** A module's own inputs for some cells. */
  cells?: LineCellOverrides;
  /** Shown under the table (the totals of what was typed). */
  footer?: ReactNode;
  /** Columns that are no field, each after the field it names. */
  extraColumns?: readonly LineExtraColumn[];
}) {
  const max = line.max ?? 1000;
  return (
    <Form.List
      name={line.name}
      rules={[
        {
          validator: async (_, items: unknown[] | undefined) => {
            const n = items?.length ?? 0;
            if (line.min && n < line.min) throw new Error(`${line.label}至少需要 ${line.min} 行`);
            if (n > max) throw new Error(`${line.label}最多 ${max} 行`);
          },
        },
      ]}
    >
      {(rows, { add, remove, move }, { errors }) => {
        const columns: TableColumnsType<FormListFieldData> = [
          {
            title: '序号',
            key: '#',
            width: 56,
            align: 'center',
            render: (_, __, i) => <span className="rk-line-no">{i + 1}</span>,
          },
          ...line.fields
            .filter((f) => !f.hidden && cells[`${line.name}.${f.name}`] !== null)
            .flatMap((f) => [
              {
                title: <ColumnTitle field={f} />,
                key: f.name,
                width: cellWidth(f),
                align: (f.kind === 'boolean' ? 'center' : 'left') as 'center' | 'left',
                render: (_: unknown, row: FormListFieldData, i: number) => {
                  const Cell = cells[`${line.name}.${f.name}`];
                  if (Cell)
                    return (
                      <Form.Item name={[row.name, f.name]} rules={fieldRules(f)} className="rk-cell">
                        <Cell
                          form={form}
                          line={line}
                          field={f}
                          index={row.name}
                          ariaLabel={cellLabel(i, f)}
                        />
                      </Form.Item>
                    );
                  // Computed by the server (amounts, base quantities): shown as saved, not typed.
                  return f.readonly ? (
                    <Form.Item noStyle shouldUpdate>
                      {() => (
                        <span className="rk-cell-readonly">
                          <FieldValue field={f} row={form.getFieldValue([line.name, row.name]) ?? {}} />
                        </span>
                      )}
                    </Form.Item>
                  ) : countsInUnit(f) ? (
                    <UnitQuantityItem
                      field={f}
                      form={form}
                      line={{ def: line, row: row.name }}
                      item={{ name: [row.name, f.name], rules: fieldRules(f), className: 'rk-cell' }}
                      input={{ compact: true, disabled, ariaLabel: cellLabel(i, f) }}
                    />
                  ) : (
                    <Form.Item name={[row.name, f.name]} rules={fieldRules(f)} className="rk-cell">
                      <FieldInput
                        field={f}
                        compact
                        disabled={disabled}
                        ariaLabel={cellLabel(i, f)}
                        fallbackLabel={form.getFieldValue([line.name, row.name, refLabelKey(f)])}
                        placeholder={f.kind === 'ref' ? `选择${f.label}` : undefined}
                      />
                    </Form.Item>
                  );
                },
              },
              ...extraColumns
                .filter((c) => c.after === f.name)
                .map((c) => ({
                  title: c.title,
                  key: c.key,
                  width: c.width,
                  render: (_: unknown, row: FormListFieldData) => c.render(form, row.name),
                })),
            ]),
          {
            title: '操作',
            key: 'actions',
            width: 108,
            align: 'center',
            fixed: 'right',
            render: (_, row, i) => (
              <span className="rk-line-actions">
                <Tooltip title="上移">
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowUpOutlined />}
                    disabled={disabled || i === 0}
                    onClick={() => move(i, i - 1)}
                    aria-label="上移"
                  />
                </Tooltip>
                <Tooltip title="下移">
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    disabled={disabled || i === rows.length - 1}
                    onClick={() => move(i, i + 1)}
                    aria-label="下移"
                  />
                </Tooltip>
                <Tooltip title="删除此行">
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={disabled}
                    onClick={() => remove(row.name)}
                    aria-label="删除此行"
                  />
                </Tooltip>
              </span>
            ),
          },
        ];
        const width = columns.reduce((sum, c) => sum + Number(c.width ?? 120), 0);
        return (
          <div className="rk-lines" data-testid={`lines-${line.name}`}>
            <Table<FormListFieldData>
              className="rk-line-table"
              rowKey="key"
              size="small"
              bordered
              columns={columns}
              dataSource={rows}
              pagination={false}
              scroll={{ x: width }}
              locale={{ emptyText: `暂无${line.label}，点击下方「添加一行」` }}
            />
            {footer}
            <div className="rk-lines-foot">
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                disabled={disabled || rows.length >= max}
                onClick={() => add(defaultsOf(line.fields))}
              >
                添加一行
              </Button>
              {def && (
                <LineImport
                  def={def}
                  line={line}
                  disabled={disabled}
                  room={max - rows.length}
                  onLines={(lines) => {
                    // A blank line (a new document starts with one) gives way to the sheet's.
                    const kept = ((form.getFieldValue(line.name) ?? []) as Record<string, unknown>[]).filter(
                      (l) => !isBlank(line, l),
                    );
                    form.setFieldValue(line.name, [
                      ...kept,
                      ...lines.map((l) => ({ ...defaultsOf(line.fields), ...l })),
                    ]);
                  }}
                />
              )}
              <span className="rm-muted">
                共 {rows.length} 行{line.min ? `，至少 ${line.min} 行` : ''}，最多 {max} 行
              </span>
            </div>
            <Form.ErrorList errors={errors} className="rk-lines-errors" />
          </div>
        );
      }}
    </Form.List>
  );
}
