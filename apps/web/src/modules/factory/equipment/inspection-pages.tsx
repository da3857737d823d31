import './equipment.css';
import { AlertOutlined } from '@ant-design/icons';
import {
  equipmentRepairResource,
  type FieldDef,
  inspectionRecordResource,
  SHIFT_OPTIONS,
} from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  DatePicker,
  Empty,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import { RefSelect } from '../../../platform/resource/ref-select.tsx';
import type { ResourceRow } from '../../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../../platform/resource/resource-detail.page.tsx';
import { ResourceList } from '../../../platform/resource/resource-list.tsx';
import { type ResourcePageProps, resourceRoutes } from '../../../platform/resource/routes.ts';
import { invalidateResource } from '../../../platform/resource/use-options.ts';

type Row = Record<string, any> & { id: number };
const checklistField: FieldDef = {
  name: 'checklistId',
  label: '点检表',
  kind: 'ref',
  ref: 'inspection-checklist',
};

/** The shift now: 白班 08–20, else 夜班. */
function currentShift(): string {
  const h = new Date().getHours();
  return h >= 8 && h < 20 ? 'day' : 'night';
}

interface Answer {
  result?: string;
  measuredValue?: string | null;
  note?: string;
}

/**
 * 登记点检: one record of a checklist for a day and shift, every item answered (OK/NG, or the
 * measured value judged by the server against the limits). An NG result offers 一键报修 next.
 */
function CheckEntryModal({
  checklistId: fixed,
  onClose,
  onNg,
}: {
  checklistId?: number;
  onClose: () => void;
  onNg: (recordId: number) => void;
}) {
  const client = useQueryClient();
  const [checklistId, setChecklistId] = useState<number | undefined>(fixed);
  const [checkDate, setCheckDate] = useState<Dayjs>(dayjs());
  const [shift, setShift] = useState(currentShift());
  const [answers, setAnswers] = useState<Record<number, Answer>>({});
  const checklist = useQuery({
    queryKey: ['resource', 'inspection-checklist', 'info', checklistId],
    queryFn: () => http.get<Row>(`/api/v1/inspection-checklist/info/${checklistId}`),
    enabled: Boolean(checklistId),
  });
  const items: Row[] = checklist.data?.items ?? [];
  const set = (id: number, patch: Answer) => setAnswers((a) => ({ ...a, [id]: { ...a[id], ...patch } }));
  const save = useMutation({
    mutationFn: () =>
      http.post<Row>('/api/v1/inspection-record/add', {
        checklistId,
        checkDate: checkDate.format('YYYY-MM-DD'),
        shift,
        items: items.map((i) => ({
          checklistItemId: i.id,
          itemName: i.itemName,
          ...(i.valueType === 'value'
            ? { measuredValue: answers[i.id]?.measuredValue ?? null }
            : { result: answers[i.id]?.result ?? null }),
          note: answers[i.id]?.note ?? null,
        })),
      }),
    onSuccess: (r) => {
      invalidateResource(client, 'inspection-record');
      invalidateResource(client, 'equipment');
      if (r.result === 'ng') {
        toast.warning(`点检已保存：${r.ngCount} 项 NG`);
        onNg(r.id);
      } else toast.success('点检已保存：全部合格');
      onClose();
    },
  });
  return (
    <Modal
      open
      width={880}
      title="登记点检"
      okText="保存点检"
      okButtonProps={{ disabled: !items.length }}
      confirmLoading={save.isPending}
      onOk={() => save.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Space wrap style={{ marginBottom: 12 }}>
        {!fixed && (
          <RefSelect
            field={checklistField}
            placeholder="请选择点检表"
            style={{ width: 260 }}
            value={checklistId}
            onChange={(v) => {
              setChecklistId((v as number) ?? undefined);
              setAnswers({});
            }}
          />
        )}
        {checklist.data && <Tag>{checklist.data.equipmentName}</Tag>}
        <span>点检日期</span>
        <DatePicker
          value={checkDate}
          allowClear={false}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          onChange={(d) => d && setCheckDate(d)}
        />
        <span>班次</span>
        <Select
          value={shift}
          onChange={setShift}
          style={{ width: 90 }}
          options={SHIFT_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
          aria-label="班次"
        />
      </Space>
      {checklistId ? (
        <Table<Row>
          rowKey="id"
          size="small"
          className="eq-check-table"
          loading={checklist.isFetching}
          dataSource={items}
          pagination={false}
          data-testid="check-entry-items"
          columns={[
            { title: '点检项目', dataIndex: 'itemName', width: 140 },
            { title: '方法', dataIndex: 'method', width: 100 },
            {
              title: '标准',
              key: 'expected',
              width: 160,
              render: (_, i) =>
                i.valueType === 'value'
                  ? `${i.expected ? `${i.expected} ` : ''}${i.lowerLimit ?? '-'} ~ ${i.upperLimit ?? '-'} ${i.unit ?? ''}`
                  : (i.expected ?? '-'),
            },
            {
              title: '结果',
              key: 'answer',
              width: 170,
              render: (_, i) =>
                i.valueType === 'value' ? (
                  <InputNumber<string>
                    stringMode
                    size="small"
                    style={{ width: 150 }}
                    addonAfter={i.unit || undefined}
                    aria-label={`${i.itemName} 实测值`}
                    value={answers[i.id]?.measuredValue ?? null}
                    onChange={(v) => set(i.id, { measuredValue: v })}
                  />
                ) : (
                  <Radio.Group
                    size="small"
                    optionType="button"
                    aria-label={`${i.itemName} 判定`}
                    value={answers[i.id]?.result}
                    onChange={(e) => set(i.id, { result: e.target.value })}
                  >
                    <Radio.Button value="ok">OK</Radio.Button>
                    <Radio.Button value="ng" className="eq-ng">
                      NG
                    </Radio.Button>
                  </Radio.Group>
                ),
            },
            {
              title: '说明',
              key: 'note',
              render: (_, i) => (
                <Input
                  size="small"
                  maxLength={200}
                  aria-label={`${i.itemName} 说明`}
                  value={answers[i.id]?.note ?? ''}
                  onChange={(e) => set(i.id, { note: e.target.value })}
                />
              ),
            },
          ]}
        />
      ) : (
        <Empty description="先选择点检表" />
      )}
    </Modal>
  );
}

/** The NG items of a check record, each with 报修 (or the repair it already opened). */
function NgRepairModal({ recordId, onClose }: { recordId: number; onClose: () => void }) {
  const can = usePermission();
  const client = useQueryClient();
  const record = useQuery({
    queryKey: ['resource', 'inspection-record', 'info', recordId],
    queryFn: () => http.get<Row>(`/api/v1/inspection-record/info/${recordId}`),
  });
  const repair = useMutation({
    mutationFn: (itemId: number) =>
      http.post<{ id: number; docNo: string }>(`/api/v1/inspection-record/to-repair/${recordId}`, { itemId }),
    onSuccess: (r) => {
      toast.success(`已生成报修单 ${r.docNo}，设备状况转为故障`);
      invalidateResource(client, 'inspection-record');
      invalidateResource(client, 'equipment-repair');
      invalidateResource(client, 'equipment');
    },
  });
  const ng: Row[] = (record.data?.items ?? []).filter((i: Row) => i.result === 'ng');
  const detail = resourceRoutes(equipmentRepairResource).detail as string;
  return (
    <Modal
      open
      width={760}
      title={`点检不合格项：${record.data?.equipmentName ?? ''} ${record.data?.checkDate ?? ''}`}
      footer={<Button onClick={onClose}>关闭</Button>}
      onCancel={onClose}
      destroyOnHidden
    >
      {!can('factory:repair:add') && (
        <Alert type="info" showIcon title="没有报修权限，请联系设备员报修。" style={{ marginBottom: 12 }} />
      )}
      <Table<Row>
        rowKey="id"
        size="small"
        loading={record.isFetching}
        dataSource={ng}
        pagination={false}
        data-testid="ng-items"
        columns={[
          { title: '点检项目', dataIndex: 'itemName', width: 140 },
          { title: '标准', dataIndex: 'expected', width: 150 },
          { title: '实测值', dataIndex: 'measuredValue', width: 90 },
          { title: '说明', dataIndex: 'note', width: 150 },
          {
            title: '报修',
            key: 'repair',
            width: 150,
            render: (_, i) =>
              i.repairId ? (
                <Button type="link" size="small" onClick={() => openResourcePage(detail, i.repairId)}>
                  {i.repairName}
                </Button>
              ) : (
                can('factory:repair:add') && (
                  <Button
                    danger
                    size="small"
                    icon={<AlertOutlined />}
                    loading={repair.isPending && repair.variables === i.id}
                    onClick={() => repair.mutate(i.id)}
                  >
                    一键报修
                  </Button>
                )
              ),
          },
        ]}
      />
    </Modal>
  );
}

/** The check records of a checklist (or all), with 登记点检 and, on NG records, 报修. */
function CheckRecords({ checklistId, embedded }: { checklistId?: number; embedded?: boolean }) {
  const [entering, setEntering] = useState(false);
  const [ngOf, setNgOf] = useState<number>();
  return (
    <>
      <ResourceList
        def={inspectionRecordResource}
        embedded={embedded}
        title={embedded ? '点检记录' : undefined}
        fixedFilters={checklistId ? { checklistId } : undefined}
        hiddenFilters={checklistId ? ['checklistId'] : undefined}
        onAdd={() => setEntering(true)}
        rowActions={(row: ResourceRow) =>
          row.result === 'ng' && (
            <Button type="link" size="small" danger onClick={() => setNgOf(row.id)}>
              NG报修
            </Button>
          )
        }
        rowActionsWidth={70}
      />
      {entering && (
        <CheckEntryModal checklistId={checklistId} onClose={() => setEntering(false)} onNg={setNgOf} />
      )}
      {ngOf && <NgRepairModal recordId={ngOf} onClose={() => setNgOf(undefined)} />}
    </>
  );
}

/** 点检详情: the checklist with its items, then its records. */
export function ChecklistDetailPage(props: ResourcePageProps) {
  return (
    <ResourceDetailPage
      {...props}
      sections={(row) => (
        <div className="rk-form-section">
          <CheckRecords checklistId={row.id} embedded />
        </div>
      )}
    />
  );
}

/** 查看点检: every check record, by equipment, date, shift and result. */
export function InspectionRecordsPage(_props: ResourcePageProps) {
  return (
    <div className="rk-list-page" data-testid="page-inspection-record">
      <CheckRecords />
    </div>
  );
}
