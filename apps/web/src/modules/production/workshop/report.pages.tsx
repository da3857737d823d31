import type { WorkshopKind } from '@ringmes/domain';
import { flowCardResource, workReportResource, workshopPaths } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import type { Page } from '../../../platform/api/types.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { navigateTo } from '../../../platform/navigation.ts';
import type { PageProps } from '../../../platform/page.ts';
import type { FieldOverride, FieldOverrides } from '../../../platform/resource/resource-form.tsx';
import { ResourceFormModal } from '../../../platform/resource/resource-form.tsx';
import { ResourceListPage } from '../../../platform/resource/resource-list.page.tsx';
import { qty } from '../../warehouse/warehouse.api.ts';
import { ReportRingMatchButton } from './report-ring-match.tsx';
import { kindOf, type Row } from './workshop.api.ts';

/**
 * The states a dispatch may be reported in, each with how many of its newest are offered: every
 * running one (开工, 暂停), the latest finished (完工) ones. Asked per state, so a running dispatch
 * is offered however many finished ones came after it.
 */
const REPORTABLE = [
  { status: 'started', pageSize: 500 },
  { status: 'paused', pageSize: 500 },
  { status: 'completed', pageSize: 100 },
];

/** 派工单 of the workshop that may be reported (开工, 暂停 or 完工), newest first. */
function dispatchPicker(kind: WorkshopKind): FieldOverride {
  return function DispatchPicker({ field, disabled, fallbackLabel, form, id }) {
    const value = Form.useWatch(field.name, form);
    const list = useQuery({
      queryKey: ['resource', 'work-dispatch', 'reportable', kind.type],
      queryFn: async () => {
        const pages = await Promise.all(
          REPORTABLE.map(({ status, pageSize }) =>
            http.get<Page<Row>>('/api/v1/work-dispatch/page', {
              workshopType: kind.type,
              status,
              pageSize,
              sortField: 'docNo',
              sortOrder: 'desc',
            }),
          ),
        );
        return pages.flatMap((p) => p.list).sort((a, b) => String(b.docNo).localeCompare(String(a.docNo)));
      },
    });
    const options = (list.data ?? []).map((d) => ({
      value: d.id,
      label: `${d.docNo} ${d.productName ?? ''} ${d.processName ?? ''} ${d.operatorName ?? ''} 派 ${qty(d.quantity)}`,
    }));
    if (value && !options.some((o) => o.value === value) && fallbackLabel)
      options.push({ value, label: String(fallbackLabel) });
    return (
      <Select
        id={id}
        showSearch
        optionFilterProp="label"
        loading={list.isLoading}
        disabled={disabled}
        value={value}
        options={options}
        placeholder="选择已开工的派工单"
        onChange={(v) => {
          form.setFieldValue(field.name, v);
          form.setFieldValue('flowCardId', undefined);
        }}
      />
    );
  };
}

const cardLabel = (c: Row) => `${c.docNo} 数量 ${qty(c.quantity)}${c.heatNo ? ` 炉号 ${c.heatNo}` : ''}`;

/**
 * 流转卡 (在制) of the chosen dispatch's production order. Who may not list cards (an operator: he
 * reads a card by its number, as at the machine) scans or types its number instead.
 */
const CardPicker: FieldOverride = ({ field, disabled, fallbackLabel, form, id }) => {
  const dispatchId = Form.useWatch('dispatchId', form);
  const value = Form.useWatch(field.name, form);
  const [scanned, setScanned] = useState<Row>();
  const [scanError, setScanError] = useState<string>();
  const dispatch = useQuery({
    queryKey: ['resource', 'work-dispatch', 'info', dispatchId],
    queryFn: () => http.get<Row>(`/api/v1/work-dispatch/info/${dispatchId}`),
    enabled: Boolean(dispatchId),
  });
  const orderId = dispatch.data?.productionOrderId;
  // The card list is the production orders' (计划员, 车间主任); an operator reads cards one at a time.
  const mayList = usePermission()(`${flowCardResource.permission}:list`);
  const cards = useQuery({
    queryKey: ['resource', 'flow-card', 'of-order', orderId],
    queryFn: () =>
      http.get<Page<Row>>('/api/v1/flow-card/page', {
        productionOrderId: orderId,
        status: 'open',
        pageSize: 500,
      }),
    enabled: Boolean(orderId) && mayList,
  });
  if (!mayList) {
    const scan = async (code: string) => {
      setScanError(undefined);
      if (!code.trim()) return;
      try {
        const card = await http.get<Row>('/api/v1/flow-card/scan', { code: code.trim() }, { silent: true });
        if (Number(card.productionOrderId) !== Number(orderId))
          throw new Error(`流转卡 ${card.docNo} 不是本派工单生产订单的卡`);
        setScanned(card);
        form.setFieldValue(field.name, card.id);
      } catch (e) {
        setScanned(undefined);
        form.setFieldValue(field.name, undefined);
        setScanError((e as Error).message);
      }
    };
    const shown =
      scanned && scanned.id === value ? cardLabel(scanned) : value ? String(fallbackLabel ?? '') : '';
    return (
      <>
        <Input.Search
          id={id}
          disabled={disabled || !orderId}
          placeholder={dispatchId ? '扫描或输入流转卡号，回车' : '先选择派工单'}
          enterButton="查找"
          onSearch={(code) => void scan(code)}
        />
        {(scanError || shown) && (
          <Typography.Text type={scanError ? 'danger' : 'secondary'}>{scanError ?? shown}</Typography.Text>
        )}
      </>
    );
  }
  const options = (cards.data?.list ?? []).map((c) => ({ value: c.id, label: cardLabel(c) }));
  if (value && !options.some((o) => o.value === value) && fallbackLabel)
    options.push({ value, label: String(fallbackLabel) });
  return (
    <Select
      id={id}
      showSearch
      optionFilterProp="label"
      disabled={disabled || !dispatchId}
      loading={cards.isFetching}
      value={value}
      options={options}
      placeholder={dispatchId ? '选择或输入流转卡号' : '先选择派工单'}
      onChange={(v) => form.setFieldValue(field.name, v)}
    />
  );
};

const overridesFor = (kind: WorkshopKind): FieldOverrides => ({
  dispatchId: dispatchPicker(kind),
  flowCardId: CardPicker,
});

/** An assembly report shows the 选配 it records (the ring lots, groups and ball grades of its bearings). */
const matchActions = (kind: WorkshopKind) =>
  kind.type === 'assembly'
    ? {
        rowActions: (row: { id: number; docNo?: unknown }) => (
          <ReportRingMatchButton reportId={Number(row.id)} docNo={String(row.docNo ?? '')} />
        ),
        rowActionsWidth: 60,
      }
    : {};

/** 报工 of a workshop: its reports by state, add / edit drafts, 提交, 审核, 检验完成, 反审核. */
export function ReportWorkPage({ path }: PageProps) {
  const kind = kindOf(path);
  return (
    <ResourceListPage
      path={path}
      def={workReportResource}
      routes={{ list: workshopPaths(kind).reportWork, formOnPage: false }}
      fixedFilters={{ workshopType: kind.type }}
      hiddenFilters={['workshopType']}
      overrides={overridesFor(kind)}
      {...matchActions(kind)}
    />
  );
}

/** 新增报工 (车加工): the add form over the workshop's report list. */
export function AddReportWorkPage({ path }: PageProps) {
  const kind = kindOf(path);
  const [open, setOpen] = useState(true);
  const back = () => navigateTo(workshopPaths(kind).reportWork);
  return (
    <>
      <ReportWorkPage path={workshopPaths(kind).reportWork} />
      <ResourceFormModal
        def={workReportResource}
        open={open}
        overrides={overridesFor(kind)}
        onClose={() => {
          setOpen(false);
          back();
        }}
        onSaved={() => {
          setOpen(false);
          back();
        }}
      />
    </>
  );
}

/** 车间报工记录: every report of the workshop (read and export). */
export function WorkshopReportRecordPage({ path }: PageProps) {
  const kind = kindOf(path);
  return (
    <ResourceListPage
      path={path}
      def={workReportResource}
      routes={{ list: workshopPaths(kind).workshopReportRecord, formOnPage: false }}
      fixedFilters={{ workshopType: kind.type }}
      hiddenFilters={['workshopType']}
      {...matchActions(kind)}
    />
  );
}
