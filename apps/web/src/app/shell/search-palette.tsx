import { FileTextOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Input, type InputRef, Modal, Spin, Tag } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { MenuIcon } from '../../platform/menu/menu-icons.tsx';
import type { MenuModel, NavItem } from '../../platform/menu/menu-model.ts';
import { navigateTo } from '../../platform/navigation.ts';
import { CameraScanButton } from '../../platform/scan/camera-scan.tsx';
import { openScanned } from '../../platform/scan/scan-open.ts';

/** What a scanner types: printable ASCII without spaces (document numbers, codes). */
const NUMBER_LIKE = /^[\x21-\x7e]{3,}$/;

/** A document or master record the server found (`GET /api/v1/search`). */
interface SearchHit {
  resource: string;
  resourceLabel: string;
  id: number;
  code: string | null;
  name: string | null;
  state: string | null;
  link: string | null;
}

interface PageHit {
  path: string;
  title: string;
  trail: string;
  icon?: string;
}

/** Every page of the user's menu (what his roles grant and the menus list), with its trail. */
function pagesOf(nav: readonly NavItem[]): PageHit[] {
  const out: PageHit[] = [];
  const walk = (items: readonly NavItem[], trail: string[]) => {
    for (const item of items) {
      if (item.children?.length) walk(item.children, [...trail, item.title]);
      else if (item.path && item.type === '2')
        out.push({ path: item.path, title: item.title, trail: trail.join(' / '), icon: item.icon });
    }
  };
  walk(nav, []);
  return out;
}

/** Waits for the user to pause typing (the server is asked once per pause, not per key). */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

const MAX_PAGES = 8;

/**
 * 全局搜索 (Ctrl+K): the menu pages the user may open, matched here as he types, and documents
 * and master records by number, code or name from the server (`/api/v1/search`, filtered by his
 * permissions there). ↑/↓ choose, Enter opens, Esc closes. A scanned code (USB scanner, or the
 * camera button) opens the record it names.
 */
export function SearchPalette({
  model,
  onClose,
  onHelp,
}: {
  model: MenuModel;
  onClose: () => void;
  onHelp: () => void;
}) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<InputRef>(null);
  const q = text.trim();
  const asked = useDebounced(q, 120);
  const pages = useMemo(() => pagesOf(model.nav), [model]);
  const pageHits = useMemo(() => {
    if (!q) return pages.slice(0, MAX_PAGES);
    const lower = q.toLowerCase();
    return pages
      .filter((p) => p.title.toLowerCase().includes(lower) || p.trail.toLowerCase().includes(lower))
      .sort(
        (a, b) =>
          Number(!a.title.toLowerCase().includes(lower)) - Number(!b.title.toLowerCase().includes(lower)),
      )
      .slice(0, MAX_PAGES);
  }, [pages, q]);
  const found = useQuery({
    queryKey: ['global-search', asked],
    queryFn: ({ signal }) =>
      http.get<{ hits: SearchHit[] }>('/api/v1/search', { q: asked }, { signal, silent: true }),
    // The server searches from two characters on.
    enabled: [...asked].length >= 2,
    staleTime: 15_000,
    placeholderData: keepPreviousData,
  });
  const records = asked && found.data ? found.data.hits.filter((h) => h.link) : [];
  const items: { key: string; go: string }[] = [
    ...pageHits.map((p) => ({ key: `page:${p.path}`, go: p.path })),
    ...records.map((h) => ({ key: `record:${h.resource}:${h.id}`, go: h.link as string })),
  ];
  const current = Math.min(active, Math.max(items.length - 1, 0));

  const open = (to: string) => {
    onClose();
    navigateTo(to);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((i) => (items.length ? (i + 1) % items.length : 0));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => (items.length ? (i - 1 + items.length) % items.length : 0));
    } else if (e.key === 'Enter' && (asked !== q || found.isFetching) && NUMBER_LIKE.test(q)) {
      // A USB scanner types the code and Enter faster than the search answers: open what it names.
      e.preventDefault();
      void openScanned(q).then((opened) => opened && onClose());
    } else if (e.key === 'Enter' && items[current]) {
      e.preventDefault();
      open(items[current].go);
    }
  };
  const row = (key: string, go: string, body: React.ReactNode, index: number) => (
    <li
      key={key}
      role="option"
      aria-selected={index === current}
      className={`rm-palette-item${index === current ? ' rm-palette-active' : ''}`}
      onMouseEnter={() => setActive(index)}
      onMouseDown={(e) => {
        e.preventDefault();
        open(go);
      }}
      data-testid="palette-item"
    >
      {body}
    </li>
  );

  return (
    <Modal
      open
      onCancel={onClose}
      footer={null}
      closable={false}
      width={640}
      className="rm-palette"
      afterOpenChange={(o) => o && input.current?.focus()}
      destroyOnHidden
      title={null}
    >
      <Input
        ref={input}
        autoFocus
        size="large"
        prefix={<SearchOutlined />}
        suffix={found.isFetching ? <Spin size="small" /> : null}
        addonAfter={
          <CameraScanButton onCode={(c) => void openScanned(c).then((opened) => opened && onClose())} />
        }
        placeholder="搜索菜单页面、单据号、编码或名称"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        maxLength={50}
        aria-label="全局搜索"
        data-testid="global-search-input"
      />
      <ul className="rm-palette-list" role="listbox" aria-label="搜索结果">
        {pageHits.length > 0 && <li className="rm-palette-group">页面</li>}
        {pageHits.map((p, i) =>
          row(
            `page:${p.path}`,
            p.path,
            <>
              <MenuIcon name={p.icon} />
              <span className="rm-palette-title">{p.title}</span>
              <span className="rm-palette-sub">{p.trail}</span>
            </>,
            i,
          ),
        )}
        {records.length > 0 && <li className="rm-palette-group">单据与档案</li>}
        {records.map((h, i) =>
          row(
            `record:${h.resource}:${h.id}`,
            h.link as string,
            <>
              <FileTextOutlined />
              <span className="rm-palette-title">{h.code ?? h.name}</span>
              {h.code && h.name && <span className="rm-palette-name">{h.name}</span>}
              <span className="rm-palette-sub">
                {h.resourceLabel}
                {h.state && <Tag className="rm-palette-state">{h.state}</Tag>}
              </span>
            </>,
            pageHits.length + i,
          ),
        )}
        {q && !found.isFetching && asked === q && items.length === 0 && (
          <li className="rm-palette-empty">没有找到「{q}」相关的页面、单据或档案</li>
        )}
      </ul>
      <div className="rm-palette-foot">
        ↑↓ 选择 · Enter 打开 · Esc 关闭 ·{' '}
        <button type="button" className="rm-palette-help" onClick={onHelp}>
          ? 快捷键
        </button>
      </div>
    </Modal>
  );
}
