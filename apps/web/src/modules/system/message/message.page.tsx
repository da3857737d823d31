import { CheckOutlined } from '@ant-design/icons';
import { MESSAGE_KINDS, type MessageKind, messageKindLabel } from '@ringmes/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Segmented, Select, Space, Table, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { download } from '../../../platform/api/download.ts';
import { toast } from '../../../platform/feedback.ts';
import { formatTime, relativeTime } from '../../../platform/lib/time.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { TableToolbar } from '../../../platform/ui/search-form.tsx';
import { useServerTable } from '../../../platform/ui/server-table.ts';
import { type Message, messageApi, messageKeys } from './message.api.ts';

type ReadFilter = 'all' | 'unread' | 'read';

const KIND_OPTIONS = Object.entries(MESSAGE_KINDS).map(([value, k]) => ({
  value: value as MessageKind,
  label: k.label,
}));

/** 消息中心: the signed-in user's messages, mark one or all read. */
export function MessagePage() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<ReadFilter>('all');
  const [kind, setKind] = useState<MessageKind>();
  const paged = useServerTable({ pageSize: 10 });
  const params = { ...paged.query, read: filter === 'all' ? undefined : filter === 'read', kind };
  const list = useQuery({
    queryKey: messageKeys.page(params),
    queryFn: () => messageApi.page(params),
    placeholderData: keepPreviousData,
  });
  const invalidate = () => client.invalidateQueries({ queryKey: messageKeys.all });
  const readOne = useMutation({ mutationFn: messageApi.read, onSuccess: invalidate });
  const readAll = useMutation({
    mutationFn: messageApi.readAll,
    onSuccess: () => {
      toast.success('已全部标记为已读');
      void invalidate();
    },
  });

  const columns: TableProps<Message>['columns'] = [
    {
      title: '标题',
      dataIndex: 'title',
      render: (t: string, m) => (
        <span>
          <Badge status={m.read ? 'default' : 'processing'} />
          {m.link ? (
            <Button
              type="link"
              size="small"
              onClick={() => {
                if (!m.read) readOne.mutate(m.id);
                // A finished background export links its file; other links are pages.
                const [path, search] = m.link!.split('?');
                if (path === '/common/download')
                  void download(path, Object.fromEntries(new URLSearchParams(search))).catch(() => undefined);
                else navigate(m.link!);
              }}
            >
              {t}
            </Button>
          ) : (
            <span style={{ marginLeft: 4, fontWeight: m.read ? 400 : 600 }}>{t}</span>
          )}
        </span>
      ),
    },
    { title: '内容', dataIndex: 'content', ellipsis: true },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 100,
      render: (k: string) => <Tag color={MESSAGE_KINDS[k as MessageKind]?.color}>{messageKindLabel(k)}</Tag>,
    },
    {
      title: '时间',
      dataIndex: 'createdAt',
      width: 180,
      render: (v: string) => (
        <span title={formatTime(v)}>{relativeTime(v, Date.now(), 'YYYY-MM-DD HH:mm')}</span>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 110,
      render: (_, m) =>
        m.read ? (
          <span className="rm-muted">已读</span>
        ) : (
          <Button type="link" size="small" icon={<CheckOutlined />} onClick={() => readOne.mutate(m.id)}>
            标为已读
          </Button>
        ),
    },
  ];

  return (
    <PageCard>
      <TableToolbar
        left={
          <Space wrap>
            <Segmented<ReadFilter>
              value={filter}
              onChange={(v) => {
                setFilter(v);
                paged.firstPage();
              }}
              options={[
                { value: 'all', label: '全部' },
                { value: 'unread', label: '未读' },
                { value: 'read', label: '已读' },
              ]}
            />
            <Select<MessageKind>
              aria-label="类型"
              data-testid="message-kind"
              prefix="类型"
              placeholder="全部"
              allowClear
              value={kind}
              onChange={(v) => {
                setKind(v);
                paged.firstPage();
              }}
              options={KIND_OPTIONS}
              style={{ width: 170 }}
            />
          </Space>
        }
        right={
          <Button icon={<CheckOutlined />} onClick={() => readAll.mutate()} loading={readAll.isPending}>
            全部标为已读
          </Button>
        }
      />
      <Table<Message>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        onChange={paged.onChange}
        pagination={paged.pagination(list.data?.total ?? 0)}
      />
    </PageCard>
  );
}
