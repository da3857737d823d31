import { type ResourceDef, type TransitionDef, transitionAction, transitionsFrom } from '@ringmes/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Form } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { request } from '../api/client.ts';
import { isApiError } from '../api/errors.ts';
import { idempotencyKey } from '../api/idempotency.ts';
import { useRecordAction } from '../auth/permission.tsx';
import { confirm, toast } from '../feedback.ts';
import { useOpenedOnce } from './dialogs.tsx';
import type { ResourceRow } from './resource-api.ts';
import { invalidateResource } from './use-options.ts';

/** The dialog of a transition that asks for a reason or input fields, loaded when one does. */
const TransitionDialog = lazy(() =>
  import('./transition-dialog.tsx').then((m) => ({ default: m.TransitionDialog })),
);

/** Is the record in a state where the generic edit and delete calls accept it? */
export function isEditable(def: ResourceDef, row: ResourceRow): boolean {
  return !def.lifecycle || def.lifecycle.editable.includes(row.status);
}

/**
 * The buttons of a document's lifecycle that start from its current state and that the user may
 * run (审核, 反审核, 关闭…), from the declaration. A transition that needs a reason or declares
 * input fields (派工的维修人) asks for them in a dialog; one with a confirmation text asks first. Each sends the record's version (a stale one is a 409).
 * Each run sends its own Idempotency-Key and the button stays busy until the answer, so a
 * replayed click (a network retry) runs the transition once (a stock document's 过账 moves stock once).
 */
export function LifecycleActions({
  def,
  record,
  size,
  link,
  onDone,
  onError,
}: {
  def: ResourceDef;
  record: ResourceRow;
  size?: 'small' | 'middle';
  /** Render as link buttons (list rows). */
  link?: boolean;
  /** After a transition ran (beyond refreshing the resource: the stock views of a stock document). */
  onDone?: (t: TransitionDef) => void;
  /** The server's reason when a transition is refused (库存不足…), for the page to keep on screen. */
  onError?: (t: TransitionDef, message: string) => void;
}) {
  const mayOn = useRecordAction(def);
  const client = useQueryClient();
  const [asking, setAsking] = useState<TransitionDef>();
  const [form] = Form.useForm<Record<string, any>>();
  const dialogOpened = useOpenedOnce(Boolean(asking));
  const run = useMutation({
    mutationFn: ({ t, values }: { t: TransitionDef; values?: Record<string, any> }) =>
      request<{ status: string }>({
        url: `/api/v1/${def.name}/${t.name}/${record.id}`,
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey() },
        data: { version: record.version, ...values },
      }),
    onSuccess: (_, { t }) => {
      toast.success(`${t.label}成功`);
      setAsking(undefined);
      form.resetFields();
      invalidateResource(client, def.name);
      onDone?.(t);
    },
    // The client has toasted the server's message; the page may keep it.
    onError: (e, { t }) => onError?.(t, isApiError(e) ? e.message : String(e)),
  });
  if (!def.lifecycle) return null;
  const start = (t: TransitionDef) => {
    if (t.reason || t.input?.length) return setAsking(t);
    if (!t.confirm) return run.mutate({ t });
    confirm({
      title: `${t.label}${def.label}`,
      content: t.confirm,
      okText: t.label,
      cancelText: '取消',
      okButtonProps: { danger: t.tone === 'danger' },
      onOk: () => run.mutateAsync({ t }).catch(() => undefined),
    });
  };
  // A scoped document (a workshop's dispatch) needs the permission of its own kind, an owned one
  // (a report, a dispatch) to be the user's own unless he acts on everyone's.
  const allowed = transitionsFrom(def.lifecycle, record.status, record).filter((t) =>
    mayOn(transitionAction(t), record),
  );
  return (
    <>
      {allowed.map((t) => (
        <Button
          key={t.name}
          size={link ? 'small' : size}
          type={link ? 'link' : t.tone === 'primary' ? 'primary' : 'default'}
          danger={t.tone === 'danger'}
          loading={run.isPending && run.variables?.t.name === t.name}
          onClick={() => start(t)}
          data-testid={`transition-${t.name}`}
        >
          {t.label}
        </Button>
      ))}
      {dialogOpened && (
        <Suspense fallback={null}>
          <TransitionDialog
            def={def}
            asking={asking}
            form={form}
            pending={run.isPending}
            onCancel={() => setAsking(undefined)}
            onSubmit={(t, values) => run.mutateAsync({ t, values })}
          />
        </Suspense>
      )}
    </>
  );
}
