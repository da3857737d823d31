import './timeline.css';
import {
  CommentOutlined,
  DeleteOutlined,
  EditOutlined,
  FileOutlined,
  PaperClipOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Mentions, Segmented, Space, Tag, Timeline, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { clientHooks } from '../api/client.ts';
import { download } from '../api/download.ts';
import { buildAuthHeaders } from '../api/headers.ts';
import { toast } from '../feedback.ts';
import { type Mentionable, type TimelineEntry, timelineApi, timelineKeys } from './timeline.api.ts';

/** Files are listed with their size in the usual units. */
const fileSize = (n: number) =>
  n < 1024 ? `${n} B` : n < 1_048_576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1_048_576).toFixed(1)} MB`;

type Filter = 'all' | 'comment' | 'history' | 'attachment';
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: '全部' },
  { value: 'comment', label: '评论' },
  { value: 'history', label: '变更记录' },
  { value: 'attachment', label: '附件' },
];

function HistoryItem({ e }: { e: Extract<TimelineEntry, { kind: 'history' }> }) {
  return (
    <div className="rk-tl-entry" data-testid="timeline-history">
      <div className="rk-tl-head">
        <Typography.Text strong>{e.userName ?? '系统'}</Typography.Text>
        <Tag color={e.action === 'create' ? 'green' : e.action === 'delete' ? 'red' : 'blue'}>
          {e.actionLabel}
        </Tag>
        {e.fromState && e.toState && (
          <Typography.Text type="secondary">
            {e.fromState} → {e.toState}
          </Typography.Text>
        )}
        <Typography.Text type="secondary" className="rk-tl-time">
          {e.at}
        </Typography.Text>
      </div>
      {e.reason && <div className="rk-tl-reason">原因：{e.reason}</div>}
      {e.changes.length > 0 && (
        <ul className="rk-tl-changes">
          {e.changes.map((c) => (
            <li key={c.field}>
              <span className="rk-tl-label">{c.label}</span>
              {c.from !== '' && (
                <>
                  <span className="rk-tl-from">{c.from}</span>
                  <span className="rk-tl-arrow"> → </span>
                </>
              )}
              <span className="rk-tl-to">{c.to === '' ? '（空）' : c.to}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CommentItem({
  e,
  onRemove,
}: {
  e: Extract<TimelineEntry, { kind: 'comment' }>;
  onRemove: (id: number) => void;
}) {
  return (
    <div className="rk-tl-entry" data-testid="timeline-comment">
      <div className="rk-tl-head">
        <Typography.Text strong>{e.userName ?? '已删除的用户'}</Typography.Text>
        <Typography.Text type="secondary">评论</Typography.Text>
        <Typography.Text type="secondary" className="rk-tl-time">
          {e.at}
        </Typography.Text>
        {e.mine && (
          <Button
            size="small"
            type="link"
            danger
            icon={<DeleteOutlined />}
            aria-label="删除评论"
            onClick={() => onRemove(e.id)}
          />
        )}
      </div>
      <div className="rk-tl-comment">{e.content}</div>
    </div>
  );
}

function FileItem({
  e,
  onRemove,
}: {
  e: Extract<TimelineEntry, { kind: 'attachment' }>;
  onRemove: (id: number) => void;
}) {
  return (
    <div className="rk-tl-entry" data-testid="timeline-attachment">
      <div className="rk-tl-head">
        <Typography.Text strong>{e.userName ?? '已删除的用户'}</Typography.Text>
        <Typography.Text type="secondary">上传了附件</Typography.Text>
        <Typography.Text type="secondary" className="rk-tl-time">
          {e.at}
        </Typography.Text>
      </div>
      <Space size={4}>
        <FileOutlined />
        <Typography.Link onClick={() => void download(timelineApi.fileUrl(e.id)).catch(() => undefined)}>
          {e.fileName}
        </Typography.Link>
        <Typography.Text type="secondary">{fileSize(e.size)}</Typography.Text>
        {e.removable && (
          <Button
            size="small"
            type="link"
            danger
            icon={<DeleteOutlined />}
            aria-label={`删除附件 ${e.fileName}`}
            onClick={() => onRemove(e.id)}
          />
        )}
      </Space>
    </div>
  );
}

/**
 * 动态 of a record (issue 41 §1), under every detail of the kit: its history from the audit log
 * (who, when, the fields from → to, state changes with their reasons), comments with @mentions
 * (the mentioned users get a message) and files attached to it. The server words every entry
 * from the resource's declaration; this component only lays them out.
 */
export function RecordTimeline({ resource, id }: { resource: string; id: number }) {
  const client = useQueryClient();
  const key = timelineKeys.record(resource, id);
  const timeline = useQuery({ queryKey: key, queryFn: () => timelineApi.get(resource, id) });
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const [filter, setFilter] = useState<Filter>('all');
  const [text, setText] = useState('');
  const [mentionSearch, setMentionSearch] = useState('');
  const [picked, setPicked] = useState<Mentionable[]>([]);
  const candidates = useQuery({
    queryKey: [...key, 'mentionable', mentionSearch],
    queryFn: () => timelineApi.mentionable(resource, id, mentionSearch),
    staleTime: 30_000,
  });
  const send = useMutation({
    mutationFn: () => {
      // Only the people still named in the text are mentioned.
      const mentions = picked.filter((u) => text.includes(`@${u.firstName || u.userName}`)).map((u) => u.id);
      return timelineApi.comment(resource, id, { content: text, mentions: [...new Set(mentions)] });
    },
    onSuccess: (c) => {
      setText('');
      setPicked([]);
      toast.success(
        c.mentions.length ? `已评论，并通知 ${c.mentions.map((m) => m.name).join('、')}` : '已评论',
      );
      void refresh();
    },
  });
  const removeComment = useMutation({
    mutationFn: (commentId: number) => timelineApi.removeComment(commentId),
    onSuccess: () => void refresh(),
  });
  const removeFile = useMutation({
    mutationFn: (fileId: number) => timelineApi.removeFile(fileId),
    onSuccess: () => {
      toast.success('附件已删除');
      void refresh();
    },
  });
  const entries = useMemo(
    () => (timeline.data?.entries ?? []).filter((e) => filter === 'all' || e.kind === filter),
    [timeline.data, filter],
  );
  const hooks = clientHooks();

  return (
    <div className="rk-form-section rk-timeline" data-testid="record-timeline">
      <div className="rk-form-section-title">
        动态<span className="rk-count">{timeline.data?.entries.length ?? 0}</span>
      </div>
      <div className="rk-tl-compose">
        <Mentions
          rows={2}
          value={text}
          onChange={setText}
          placeholder="写评论，输入 @ 提及同事（被提及的人会收到站内消息）"
          maxLength={2000}
          onSearch={(s) => setMentionSearch(s)}
          onSelect={(option) => {
            const user = candidates.data?.find(
              (u) => String(u.id) === String(option.key) || (u.firstName || u.userName) === option.value,
            );
            if (user) setPicked((p) => [...p, user]);
          }}
          options={(candidates.data ?? []).map((u) => ({
            key: String(u.id),
            value: u.firstName || u.userName,
            label: `${u.firstName || u.userName}（${u.userName}）`,
          }))}
          data-testid="timeline-comment-input"
        />
        <Space className="rk-tl-actions">
          <Upload
            name="file"
            showUploadList={false}
            action={`${hooks.baseUrl ?? ''}${timelineApi.uploadUrl(resource, id)}`}
            headers={buildAuthHeaders(hooks.getToken(), hooks.getIdentity())}
            onChange={({ file }) => {
              if (file.status === 'done') {
                toast.success(`已上传 ${file.name}`);
                void refresh();
              }
              if (file.status === 'error') {
                const message = (file.response as { message?: string } | undefined)?.message;
                toast.error(message ? `${file.name}：${message}` : `${file.name} 上传失败`);
              }
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="timeline-upload">
              上传附件
            </Button>
          </Upload>
          <Button
            type="primary"
            icon={<CommentOutlined />}
            disabled={!text.trim()}
            loading={send.isPending}
            onClick={() => send.mutate()}
            data-testid="timeline-comment-send"
          >
            发表评论
          </Button>
        </Space>
      </div>
      <Segmented<Filter>
        size="small"
        options={FILTERS}
        value={filter}
        onChange={setFilter}
        className="rk-tl-filter"
      />
      {entries.length ? (
        <Timeline
          className="rk-tl-list"
          items={entries.map((e) => ({
            key: `${e.kind}-${e.id}`,
            color: e.kind === 'comment' ? 'green' : e.kind === 'attachment' ? 'purple' : 'blue',
            icon:
              e.kind === 'comment' ? (
                <CommentOutlined />
              ) : e.kind === 'attachment' ? (
                <PaperClipOutlined />
              ) : (
                <EditOutlined />
              ),
            content:
              e.kind === 'history' ? (
                <HistoryItem e={e} />
              ) : e.kind === 'comment' ? (
                <CommentItem e={e} onRemove={(cid) => removeComment.mutate(cid)} />
              ) : (
                <FileItem e={e} onRemove={(fid) => removeFile.mutate(fid)} />
              ),
          }))}
        />
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={timeline.isLoading ? '加载中…' : '暂无动态'}
        />
      )}
    </div>
  );
}
