import { ArrowLeftOutlined, ReloadOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Form, Modal, Result, Skeleton, Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useRecordPermission } from '../auth/permission.tsx';
import { formatTime } from '../lib/time.ts';
import { PageCard } from '../ui/page-card.tsx';
import type { LineCellOverrides, LineExtraColumn } from './line-table.tsx';
import { idFromSearch, leavePage } from './nav.ts';
import type { ResourceRow } from './resource-api.ts';
import {
  type FieldOverrides,
  type FieldShown,
  formTitle,
  ResourceFormBody,
  useResourceForm,
} from './resource-form.tsx';
import { type ResourcePageProps, type ResourceRoutes, resourceRoutes } from './routes.ts';

/**
 * The add/edit page of a resource (`…-add`, `…-edit?id=12`): header fields, editable line tables,
 * 保存 / 保存并新增 / 返回. Saving returns to the list (closing this tab); the list reloads.
 */
export function ResourceFormPage({
  def,
  path,
  overrides,
  initialValues,
  extra,
  afterSave,
  cells,
  lineFooter,
  lineColumns,
  opensDetail,
  routes: givenRoutes,
  formName,
  label = def.label,
  locked,
  shows,
  beforeSave,
}: ResourcePageProps & {
  overrides?: FieldOverrides;
  initialValues?: Record<string, unknown>;
  /** Shown under the fields (a module's own inputs: a repair's photos). */
  extra?: ReactNode;
  /** Runs after a successful save, before leaving (uploads the files chosen in `extra`). */
  afterSave?: (saved: ResourceRow) => Promise<void> | void;
  /** A module's own inputs for some line cells (`lines.locationId`). */
  cells?: LineCellOverrides;
  /** Shown under a line table (the totals of what was typed). */
  lineFooter?: (line: string) => ReactNode;
  /** Columns of a line table that are no field (可用 of an outbound line). */
  lineColumns?: (line: string) => readonly LineExtraColumn[];
  /**
   * Saving opens the saved record's detail page instead of the list, and there is no 保存并新增:
   * a stock document is saved as a draft and posted from its detail.
   */
  opensDetail?: boolean;
  /** The list and detail pages when not the definition's own (a stock document type's pages). */
  routes?: ResourceRoutes;
  /** The form's name, which prefixes its inputs' ids (`wh-stock-inbound_warehouseId`); default `rk-<resource>`. */
  formName?: string;
  /** What this page edits when not the definition's label (采购入库单 on its type's page). */
  label?: string;
  /** Fields shown but not editable (the type of a document on its type's page). */
  locked?: readonly string[];
  /** Header fields that apply to what is typed so far (a 采购入库's 采购订单). */
  shows?: FieldShown;
  /** Asked once the form is valid, before saving: false keeps the form open (保存 above 可用). */
  beforeSave?: (values: Record<string, any>) => Promise<boolean>;
}) {
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const routes = givenRoutes ?? resourceRoutes(def);
  const may = useRecordPermission(def);
  const state = useResourceForm(def, id, { initialValues, beforeSave });
  const editing = Boolean(id);
  // A scoped resource answers for the kind being edited (a 采购入库 keeper adds purchase inbounds).
  const scopeField = def.scopedPermissions?.field;
  const scope = scopeField ? (state.record?.[scopeField] ?? initialValues?.[scopeField]) : undefined;
  const allowed = may(editing ? 'edit' : 'add', scope);
  const leave = () => leavePage(path, routes.list);
  const back = () => {
    if (!state.isDirty()) return leave();
    Modal.confirm({
      title: '放弃未保存的修改？',
      content: '本页有尚未保存的修改，返回后将丢失。',
      okText: '放弃并返回',
      okButtonProps: { danger: true },
      cancelText: '继续编辑',
      onOk: leave,
    });
  };

  if (!allowed) {
    return (
      <PageCard>
        <Result
          status="403"
          title="没有权限"
          subTitle={`当前账号没有${editing ? '编辑' : '新增'}${label}的权限`}
        />
      </PageCard>
    );
  }
  if (editing && state.loadError) {
    return (
      <PageCard>
        <Result
          status="404"
          title={`${label}不存在或已被删除`}
          extra={<Button onClick={back}>返回列表</Button>}
        />
      </PageCard>
    );
  }

  const save = async (andNew: boolean) => {
    const saved = await state.save();
    if (!saved) return;
    await afterSave?.(saved);
    if (andNew) state.startNew();
    else if (opensDetail && routes.detail) leavePage(path, `${routes.detail}?id=${saved.id}`);
    else leave();
  };

  const record = state.record;
  return (
    <Form
      form={state.form}
      name={formName ?? `rk-${def.name}`}
      layout="vertical"
      autoComplete="off"
      className="rk-form rk-form-page"
      data-testid={`form-${def.name}`}
      disabled={state.loading}
    >
      <PageCard
        title={
          <span className="rk-page-title">
            {formTitle({ ...def, label }, record, editing)}
            {editing && record?.version !== undefined && (
              <Tag className="rk-version-tag">版本 {record.version}</Tag>
            )}
          </span>
        }
        extra={
          editing && record ? (
            <span className="rk-audit-inline">
              最后更新 {formatTime(record.updatedAt)}
              <Button
                type="link"
                size="small"
                icon={<ReloadOutlined />}
                onClick={() => void state.reload()}
                disabled={false}
              >
                重新加载
              </Button>
            </span>
          ) : undefined
        }
      >
        {state.loading ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : (
          <ResourceFormBody
            def={def}
            state={state}
            overrides={overrides}
            cells={cells}
            lineFooter={lineFooter}
            lineColumns={lineColumns}
            locked={locked}
            shows={shows}
            lineTitle={(title, content, key) => (
              <div key={key} className="rk-form-section">
                <div className="rk-form-section-title">{title}</div>
                {content}
              </div>
            )}
          />
        )}
        {!state.loading && extra}
      </PageCard>
      <div className="rk-form-footer">
        <Space>
          <Button icon={<ArrowLeftOutlined />} onClick={back} disabled={false}>
            返回
          </Button>
          {!editing && !opensDetail && (
            <Button onClick={() => void save(true)} loading={state.saving}>
              保存并新增
            </Button>
          )}
          <Button
            type="primary"
            icon={<SaveOutlined />}
            onClick={() => void save(false)}
            loading={state.saving}
          >
            保存
          </Button>
        </Space>
      </div>
    </Form>
  );
}
