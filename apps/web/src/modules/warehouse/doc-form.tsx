import '../../platform/resource/kit.css';
import './warehouse.css';
import { ArrowLeftOutlined, DeleteOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, type FormInstance, Result, Skeleton, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useState } from 'react';
import { isApiError } from '../../platform/api/errors.ts';
import { useRecordPermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { LineImport } from '../../platform/resource/line-import.tsx';
import { leavePage } from '../../platform/resource/nav.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { LineBaseTotals } from './line-cells.tsx';
import { StatusTag } from './shared.tsx';
import { docApi, fieldPath, type Row } from './warehouse.api.ts';

export interface LineColumn {
  title: ReactNode;
  name: string;
  width: number;
  required?: boolean;
  /** The cell input; `line` is the index in the list. */
  render: (line: number, form: FormInstance) => ReactNode;
}

export interface DocFormProps {
  def: ResourceDef;
  /** The route of this page (its tab closes on leaving). */
  path: string;
  id?: number;
  title: string;
  listPath: string;
  detailPath: string;
  header: (form: FormInstance, record: Row | undefined) => ReactNode;
  lineColumns: LineColumn[];
  newLine: () => Record<string, unknown>;
  initialValues?: Record<string, unknown>;
  /** Extra header values from the record (dates are converted here). */
  toBody?: (values: Record<string, any>) => Record<string, unknown>;
  /** Asked after validation, before saving: false keeps the form open (a warning the user declined). */
  beforeSave?: (values: Record<string, any>) => Promise<boolean>;
}

const num = (v: unknown) => (v === null || v === undefined || v === '' ? undefined : Number(v));

/** A line as form values: the server's decimal strings as the numbers the inputs hold. */
const toLineValues = (l: Record<string, any>) => ({
  ...l,
  quantity: num(l.quantity),
  unitPrice: num(l.unitPrice),
});

/** The record as form values: the business date as a dayjs, quantities as numbers. */
function toValues(record: Row): Record<string, unknown> {
  return {
    ...record,
    bizDate: record.bizDate ? dayjs(record.bizDate) : undefined,
    lines: (record.lines ?? []).map(toLineValues),
  };
}

const LINE_FIELDS = [
  'materialId',
  'quantity',
  'unitId',
  'locationId',
  'fromLocationId',
  'toLocationId',
  'batchNo',
  'qualityStatus',
  'unitPrice',
  'remark',
  // Not on screen: the order line a line ships (kept through edits; see `save`).
  'sourceLineId',
];

function body(def: ResourceDef, values: Record<string, any>, record?: Row): Record<string, unknown> {
  const headerNames = def.fields.filter((f) => !f.readonly).map((f) => f.name);
  const out: Record<string, unknown> = {};
  for (const n of headerNames) {
    const v = values[n];
    if (n === 'bizDate') out[n] = v ? dayjs(v).format('YYYY-MM-DD') : null;
    else out[n] = v === undefined || v === '' ? null : v;
  }
  const lineDef = def.lines?.[0];
  const allowed = new Set(lineDef?.fields.filter((f) => !f.readonly).map((f) => f.name) ?? LINE_FIELDS);
  out.lines = (values.lines ?? []).map((l: Record<string, any>) => {
    const line: Record<string, unknown> = {};
    for (const n of LINE_FIELDS) {
      if (!allowed.has(n)) continue;
      const v = l?.[n];
      if (v === undefined || v === '' || v === null) {
        if (n === 'qualityStatus') continue;
        line[n] = null;
      } else line[n] = typeof v === 'string' ? v.trim() : v;
    }
    return line;
  });
  if (record?.version !== undefined) out.version = record.version;
  return out;
}

/** 基本单位数量合计 of the lines as they are typed. */
function LineTotals({ form }: { form: FormInstance }) {
  const lines = Form.useWatch('lines', form) as Row[] | undefined;
  return <LineBaseTotals lines={lines} />;
}

/**
 * Add/edit page of a stock document: header fields and an editable line table. Server field
 * errors land on their cell (`lines.0.quantity`); a saved document opens its detail page, where
 * it is posted.
 */
export function DocFormPage(props: DocFormProps) {
  const { def, id, path } = props;
  const may = useRecordPermission(def);
  const client = useQueryClient();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const api = docApi(def);
  /** 导入明细 fills this line table. */
  const line = def.lines?.[0];
  const editing = Boolean(id);
  const record = useQuery({
    queryKey: ['resource', def.name, 'info', id],
    queryFn: () => api.info(id as number),
    enabled: editing,
    staleTime: 0,
  });

  useEffect(() => {
    if (editing && record.data) form.setFieldsValue(toValues(record.data));
  }, [editing, record.data, form]);

  const back = () => leavePage(path, props.listPath);

  if (
    !may(
      editing ? 'edit' : 'add',
      editing ? record.data?.type : (props.initialValues as Record<string, unknown> | undefined)?.type,
    )
  ) {
    return (
      <PageCard>
        <Result
          status="403"
          title="没有权限"
          subTitle={`当前账号没有${editing ? '编辑' : '新增'}${def.label}的权限`}
        />
      </PageCard>
    );
  }
  if (editing && record.error) {
    return (
      <PageCard>
        <Result
          status="404"
          title={`${def.label}不存在或已被删除`}
          extra={<Button onClick={back}>返回列表</Button>}
        />
      </PageCard>
    );
  }
  if (editing && record.data && record.data.status !== 'draft') {
    return (
      <PageCard>
        <Result
          status="warning"
          title={`单据 ${record.data.docNo} 已${record.data.status === 'posted' ? '过账' : '冲销'}，不能修改`}
          subTitle="已过账的单据只能冲销（红冲）"
          extra={<Button onClick={() => leavePage(path, `${props.detailPath}?id=${id}`)}>查看单据</Button>}
        />
      </PageCard>
    );
  }

  const save = async () => {
    setErrors([]);
    let values: Record<string, any>;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    if (!values.lines?.length) {
      setErrors(['请至少添加一行明细']);
      return;
    }
    setSaving(true);
    try {
      if (props.beforeSave && !(await props.beforeSave(values))) return;
      // Lines keep the order line they were made from, which no cell shows.
      const all = form.getFieldsValue(true);
      const lines = (values.lines ?? []).map((l: Row, i: number) => ({
        ...l,
        sourceLineId: all.lines?.[i]?.sourceLineId,
      }));
      const payload = {
        ...body(def, { ...values, lines }, record.data),
        ...(props.toBody?.(values) ?? {}),
      };
      const saved = editing ? await api.edit(id as number, payload) : await api.add(payload);
      toast.success(editing ? '保存成功' : `已保存草稿 ${saved.docNo ?? ''}`);
      void client.invalidateQueries({ queryKey: ['resource', def.name] });
      leavePage(path, `${props.detailPath}?id=${saved.id}`);
    } catch (e) {
      if (isApiError(e)) {
        const placed: string[] = [];
        const loose: string[] = [];
        for (const fe of e.errors) {
          const p = fieldPath(fe.field);
          const known = p.length === 1 ? def.fields.some((f) => f.name === p[0]) : p[0] === 'lines';
          if (known && p.length !== 2) {
            form.setFields([{ name: p, errors: [fe.message] }]);
            placed.push(fe.field);
          } else loose.push(fe.message);
        }
        if (!placed.length || loose.length) setErrors([e.message, ...loose].filter(Boolean));
        toast.error(e.message || '保存失败');
      }
    } finally {
      setSaving(false);
    }
  };

  const columns = [
    { title: '行', key: 'no', width: 48, render: (_: unknown, __: unknown, i: number) => i + 1 },
    ...props.lineColumns.map((c) => ({
      title: c.required ? (
        <span>
          <span className="wh-loss">*</span> {c.title}
        </span>
      ) : (
        c.title
      ),
      key: c.name,
      width: c.width,
      render: (_: unknown, field: { name: number }) => c.render(field.name, form),
    })),
  ];

  return (
    <Form
      form={form}
      name={`wh-${def.name}`}
      layout="vertical"
      autoComplete="off"
      className="rk-form rk-form-page"
      data-testid={`form-${def.name}`}
      initialValues={editing ? undefined : { lines: [props.newLine()], ...props.initialValues }}
    >
      <PageCard
        title={
          <span className="wh-detail-head">
            {props.title}
            {record.data && <Tag>{record.data.docNo}</Tag>}
            {record.data && <StatusTag value={record.data.status} />}
          </span>
        }
      >
        {editing && record.isLoading ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : (
          <>
            {errors.length > 0 && (
              <Alert type="error" showIcon style={{ marginBottom: 12 }} title={errors.join('；')} />
            )}
            <div className="rk-form-grid rk-cols-3">{props.header(form, record.data)}</div>
            <div className="wh-section-title">明细</div>
            <Form.List name="lines">
              {(fields, { add, remove }) => (
                <>
                  <Table
                    className="wh-line-table"
                    size="small"
                    rowKey="key"
                    pagination={false}
                    dataSource={fields}
                    scroll={{ x: 'max-content' }}
                    columns={[
                      ...columns,
                      {
                        title: '操作',
                        key: 'op',
                        width: 60,
                        fixed: 'right',
                        render: (_: unknown, field: { name: number }) => (
                          <Button
                            type="link"
                            danger
                            size="small"
                            icon={<DeleteOutlined />}
                            aria-label={`删除第${field.name + 1}行`}
                            onClick={() => remove(field.name)}
                          />
                        ),
                      },
                    ]}
                  />
                  <LineTotals form={form} />
                  <Button
                    type="dashed"
                    block
                    icon={<PlusOutlined />}
                    style={{ marginTop: 8 }}
                    onClick={() => add(props.newLine())}
                  >
                    添加明细
                  </Button>
                  {line && (
                    <div className="rk-lines-foot">
                      <LineImport
                        def={def}
                        line={line}
                        room={(line.max ?? 1000) - fields.length}
                        onLines={(lines) => {
                          // The blank line a new document starts with gives way to the sheet's.
                          const kept = (form.getFieldValue('lines') ?? []).filter(
                            (l: Row | undefined) => l?.materialId,
                          );
                          form.setFieldsValue({
                            lines: [...kept, ...lines.map((l) => toLineValues({ ...props.newLine(), ...l }))],
                          });
                        }}
                      />
                    </div>
                  )}
                </>
              )}
            </Form.List>
          </>
        )}
      </PageCard>
      <div className="rk-form-footer">
        <Space>
          <Button icon={<ArrowLeftOutlined />} onClick={back}>
            返回
          </Button>
          <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()}>
            保存
          </Button>
        </Space>
      </div>
    </Form>
  );
}
