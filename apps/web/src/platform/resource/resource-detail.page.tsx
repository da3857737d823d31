import { ArrowLeftOutlined, EditOutlined, FileTextOutlined, PrinterOutlined } from '@ant-design/icons';
import { type FieldDef, type PrintDocTypeName, printDocType, type ResourceDef } from '@ringmes/domain';
import { Alert, Button, Result, Skeleton, Space } from 'antd';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../api/errors.ts';
import { useRecordAction } from '../auth/permission.tsx';
import { PageCard } from '../ui/page-card.tsx';
import { DocumentPrint, isPrintable } from './document-print.tsx';
import { codeFieldOf, labelFieldOf } from './fields.ts';
import { FieldValue } from './format.tsx';
import { isEditable, LifecycleActions } from './lifecycle-actions.tsx';
import { idFromSearch, leavePage, openResourcePage } from './nav.ts';
import type { ResourceRow } from './resource-api.ts';
import { ResourceDetailView, useRecord } from './resource-detail.tsx';
import { ResourceFormModal } from './resource-form.tsx';
import { type ResourcePageProps, type ResourceRoutes, resourceRoutes } from './routes.ts';

/** A document type with 打印模板 (销售订单) also prints with the factory's template, loaded when used. */
const TemplatePrint = lazy(() =>
  import('../print/template-print.tsx').then((m) => ({ default: m.TemplatePrint })),
);

/** The status field shown beside the title: the definition's active field when it is an enum. */
function statusField(def: ResourceDef) {
  const name = def.activeField?.name ?? 'status';
  return def.fields.find((f) => f.name === name && f.kind === 'enum');
}

/**
 * The detail page of a resource (`…-detail?id=12`): every field, read-only line tables, audit
 * information, 编辑 and 返回. Modules add sections (the exploded BOM) and buttons.
 */
export function ResourceDetailPage({
  def,
  path,
  sections,
  actions,
  routes: givenRoutes,
  onTransition,
  keepsRefusal,
  label,
  print,
  shows,
  display,
  lineActions,
  titleClass,
}: ResourcePageProps & {
  sections?: (record: ResourceRow) => ReactNode;
  actions?: (record: ResourceRow) => ReactNode;
  /** The list and edit pages when not the definition's own (a workshop's screens). */
  routes?: ResourceRoutes;
  /** After a transition ran (beyond refreshing the resource: a stock document's stock views). */
  onTransition?: () => void;
  /** A refused transition's reason stays on the page (库存不足 of a 过账), not only in a toast. */
  keepsRefusal?: boolean;
  /** The record's kind before its number in the title (采购入库单 RK…), when the page names one. */
  label?: (record: ResourceRow) => string;
  /** The record's own printout instead of the kit's (a stock document's, with 仓管 to sign). */
  print?: {
    label?: (record: ResourceRow) => string;
    render: (record: ResourceRow, onClose: () => void) => ReactNode;
  };
  /** Fields that apply to this record; the others are left out. */
  shows?: (field: FieldDef, record: ResourceRow) => boolean;
  /** A module's own rendering of some fields' values. */
  display?: Record<string, (record: ResourceRow) => ReactNode>;
  /** Buttons on each line (追溯). */
  lineActions?: (line: ResourceRow, record: ResourceRow) => ReactNode;
  /** A class of the title (number and state), for the browser flows that read it. */
  titleClass?: string;
}) {
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const mayOn = useRecordAction(def);
  const routes = givenRoutes ?? resourceRoutes(def);
  const record = useRecord(def, id);
  const [editing, setEditing] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [templating, setTemplating] = useState(false);
  const [refusal, setRefusal] = useState<{ action: string; message: string }>();
  const row = record.data;
  const back = () => leavePage(path, routes.list);

  if (!id || record.error) {
    // Someone else's record (an operator's colleague's dispatch): the server's reason, not 「不存在」.
    const refused = isApiError(record.error) && record.error.status === 403;
    return (
      <PageCard>
        <Result
          status={refused ? '403' : '404'}
          title={refused ? `不能查看此${def.label}` : `${def.label}不存在或已被删除`}
          subTitle={refused ? record.error?.message : undefined}
          extra={<Button onClick={back}>返回列表</Button>}
        />
      </PageCard>
    );
  }
  const status = statusField(def);
  const code = codeFieldOf(def);
  const edit = () => {
    if (routes.edit) openResourcePage(routes.edit, id);
    else setEditing(true);
  };

  return (
    <>
      <PageCard
        title={
          row ? (
            <span className={titleClass ? `rk-page-title ${titleClass}` : 'rk-page-title'}>
              {label && <span className="rk-title-kind">{label(row)}</span>}
              <span data-testid={def.numbering ? 'doc-no' : 'record-label'}>
                {String(row[labelFieldOf(def)] ?? '')}
              </span>
              {code && code !== labelFieldOf(def) && <span className="rk-title-code">{row[code]}</span>}
              {status && <FieldValue field={status} row={row} />}
            </span>
          ) : (
            `${def.label}详情`
          )
        }
        extra={
          <Space>
            {row && actions?.(row)}
            {row && (
              <LifecycleActions
                def={def}
                record={row}
                onDone={() => {
                  setRefusal(undefined);
                  onTransition?.();
                }}
                onError={keepsRefusal ? (t, message) => setRefusal({ action: t.label, message }) : undefined}
              />
            )}
            {row && mayOn('edit', row) && !def.readonlyApi && isEditable(def, row) && (
              <Button type="primary" icon={<EditOutlined />} onClick={edit}>
                编辑
              </Button>
            )}
            {row && (print || isPrintable(def)) && (
              <Button icon={<PrinterOutlined />} onClick={() => setPrinting(true)}>
                {print?.label?.(row) ?? '打印'}
              </Button>
            )}
            {row && printDocType(def.name) && (
              <Button icon={<FileTextOutlined />} onClick={() => setTemplating(true)}>
                模板打印
              </Button>
            )}
            <Button icon={<ArrowLeftOutlined />} onClick={back}>
              返回
            </Button>
          </Space>
        }
      >
        {refusal && (
          <Alert
            type="error"
            showIcon
            closable={{ onClose: () => setRefusal(undefined) }}
            className="rk-form-alert"
            title={`${refusal.action}失败`}
            description={refusal.message}
            data-testid="post-error"
          />
        )}
        {row ? (
          <ResourceDetailView
            def={def}
            record={row}
            extra={sections?.(row)}
            shows={shows}
            display={display}
            lineActions={lineActions}
          />
        ) : (
          <Skeleton active paragraph={{ rows: 10 }} />
        )}
      </PageCard>
      {printing &&
        row &&
        (print ? (
          print.render(row, () => setPrinting(false))
        ) : (
          <DocumentPrint def={def} record={row} onClose={() => setPrinting(false)} />
        ))}
      {templating && row && (
        <Suspense fallback={null}>
          <TemplatePrint
            docType={def.name as PrintDocTypeName}
            records={{ ids: [row.id] }}
            onClose={() => setTemplating(false)}
          />
        </Suspense>
      )}
      {!routes.edit && (
        <ResourceFormModal def={def} open={editing} id={id} onClose={() => setEditing(false)} />
      )}
    </>
  );
}
