import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Empty, Spin } from 'antd';
import { useNavigate } from 'react-router';
import { type Message, messageApi, messageKeys } from '../../modules/system/message/message.api.ts';
import { relativeTime } from '../../platform/lib/time.ts';

/** The bell's drop-down: latest unread messages, 全部已读, 查看全部消息 (loaded on first open). */
export function MessagePanel({
  count,
  canOpenCenter,
  onClose,
}: {
  count: number;
  canOpenCenter: boolean;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const latest = useQuery({
    queryKey: messageKeys.page({ pageNum: 1, pageSize: 6, read: false }),
    queryFn: () => messageApi.page({ pageNum: 1, pageSize: 6, read: false }),
    staleTime: 0,
  });
  const invalidate = () => client.invalidateQueries({ queryKey: messageKeys.all });
  const readOne = useMutation({ mutationFn: messageApi.read, onSettled: invalidate });
  const readAll = useMutation({ mutationFn: messageApi.readAll, onSettled: invalidate });

  const open = (m: Message) => {
    readOne.mutate(m.id);
    onClose();
    if (m.link) navigate(m.link);
    else if (canOpenCenter) navigate('/system/message/index');
  };

  return (
    <div className="rm-msg-panel" data-testid="message-panel">
      <div className="rm-msg-head">
        <span>未读消息{count ? `（${count}）` : ''}</span>
        <button type="button" className="rm-link-button" disabled={!count} onClick={() => readAll.mutate()}>
          全部已读
        </button>
      </div>
      <Spin spinning={latest.isFetching && !latest.data}>
        {latest.data?.list.length ? (
          <ul className="rm-msg-list">
            {latest.data.list.map((m) => (
              <li key={m.id}>
                <button type="button" onClick={() => open(m)}>
                  <span className="rm-msg-title">{m.title}</span>
                  <span className="rm-msg-time">{relativeTime(m.createdAt)}</span>
                  <span className="rm-msg-content">{m.content}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={latest.isLoading ? '加载中…' : '暂无未读消息'}
          />
        )}
      </Spin>
      {canOpenCenter && (
        <div className="rm-msg-foot">
          <button
            type="button"
            className="rm-link-button"
            onClick={() => {
              onClose();
              navigate('/system/message/index');
            }}
          >
            查看全部消息
          </button>
        </div>
      )}
    </div>
  );
}
