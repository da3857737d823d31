import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Popover } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { messageApi, messageKeys } from '../../modules/system/message/message.api.ts';

const MessagePanel = lazy(() => import('./message-panel.tsx').then((m) => ({ default: m.MessagePanel })));

/** Spec: the unread count is polled every 60 s. */
export const UNREAD_POLL_MS = 60_000;

/** The bell with the unread count; a click opens the latest unread messages. */
export function MessageBell({ canOpenCenter }: { canOpenCenter: boolean }) {
  const [open, setOpen] = useState(false);
  const unread = useQuery({
    queryKey: messageKeys.unread,
    queryFn: messageApi.unreadCount,
    refetchInterval: UNREAD_POLL_MS,
    staleTime: 10_000,
  });
  const count = unread.data?.count ?? 0;

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      arrow={false}
      destroyOnHidden
      classNames={{ root: 'rm-popup-popover' }}
      content={
        <Suspense fallback={<div className="rm-msg-panel rm-msg-loading" />}>
          <MessagePanel count={count} canOpenCenter={canOpenCenter} onClose={() => setOpen(false)} />
        </Suspense>
      }
    >
      <button
        type="button"
        className="rm-header-action"
        aria-label={`消息，${count} 条未读`}
        data-testid="message-bell"
      >
        <span className="rm-badge-wrap">
          <BellOutlined className="rm-header-icon" />
          {count > 0 && (
            <sup className="rm-badge" data-testid="unread-count">
              {count > 99 ? '99+' : count}
            </sup>
          )}
        </span>
      </button>
    </Popover>
  );
}
