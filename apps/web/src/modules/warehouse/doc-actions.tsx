import type { ResourceDef } from '@ringmes/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { isApiError } from '../../platform/api/errors.ts';
import { useRecordPermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { docApi, type Row } from './warehouse.api.ts';

/** Refreshes every list and record of the document, and the stock views. */
export function useRefreshDocs(def: ResourceDef) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: ['resource', def.name] });
    void client.invalidateQueries({ queryKey: ['warehouse'] });
  };
}

/**
 * 过账 / 冲销 with a confirmation; each confirmed click sends its own Idempotency-Key, and the
 * button stays busy until the answer, so a double click moves stock once.
 */
export function PostReverseButtons({
  def,
  row,
  size,
  onDone,
  onError,
  link,
}: {
  def: ResourceDef;
  row: Row;
  size?: 'small' | 'middle';
  onDone?: () => void;
  /** The server's reason when 过账 / 冲销 is refused (库存不足…), to keep on screen. */
  onError?: (action: '过账' | '冲销', message: string) => void;
  link?: boolean;
}) {
  const may = useRecordPermission(def);
  const refresh = useRefreshDocs(def);
  const [busy, setBusy] = useState<'post' | 'reverse' | undefined>();
  const api = docApi(def);
  const reversible = def.name !== 'stocktake';

  const run = (action: 'post' | 'reverse') => {
    const post = action === 'post';
    Modal.confirm({
      title: post ? '过账' : '冲销',
      content: post
        ? `确认过账${def.label}「${row.docNo}」吗？过账后库存立即变动，单据不能再修改。`
        : `确认冲销${def.label}「${row.docNo}」吗？将按原单反向记账（红冲），此操作不可撤销。`,
      okText: post ? '过账' : '冲销',
      okButtonProps: { danger: !post },
      cancelText: '取消',
      onOk: async () => {
        setBusy(action);
        try {
          await (post ? api.post(row.id) : api.reverse(row.id));
          toast.success(post ? '过账成功' : '冲销成功');
          refresh();
          onDone?.();
        } catch (e) {
          // The client has toasted the server's message (库存不足…); the page may keep it.
          onError?.(post ? '过账' : '冲销', isApiError(e) ? e.message : String(e));
        } finally {
          setBusy(undefined);
        }
      },
    });
  };

  const type = link ? 'link' : undefined;
  return (
    <>
      {row.status === 'draft' && may('post', row.type) && (
        <Button
          type={link ? 'link' : 'primary'}
          size={size}
          loading={busy === 'post'}
          onClick={() => run('post')}
        >
          过账
        </Button>
      )}
      {reversible && row.status === 'posted' && may('reverse', row.type) && (
        <Button type={type} danger size={size} loading={busy === 'reverse'} onClick={() => run('reverse')}>
          冲销
        </Button>
      )}
    </>
  );
}
