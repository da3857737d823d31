import { SearchOutlined } from '@ant-design/icons';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { MenuModel } from '../../platform/menu/menu-model.ts';
import { navigateTo } from '../../platform/navigation.ts';
import { isTyping, neighbourOf, shortcutOf } from '../../platform/shortcuts.ts';

const SearchPalette = lazy(() => import('./search-palette.tsx').then((m) => ({ default: m.SearchPalette })));
const ShortcutsHelp = lazy(() => import('./shortcuts-help.tsx').then((m) => ({ default: m.ShortcutsHelp })));

const visible = (el: Element) =>
  (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed';

/** The dialog on top, if one is open (Ant Design keeps closed ones in the page, hidden). */
function openDialog(): Element | undefined {
  const wraps = [...document.querySelectorAll('.ant-modal-wrap, .ant-drawer-content-wrapper')].filter(
    (w) => getComputedStyle(w).display !== 'none' && w.querySelector('.ant-modal, .ant-drawer-content'),
  );
  return wraps[wraps.length - 1];
}

/** The active tab's page (the kept-alive others are hidden). */
const activePage = () => document.querySelector('.rm-page[data-active="true"]') ?? undefined;

const label = (b: Element) => (b.textContent ?? '').replace(/\s+/g, '');

/** A visible, enabled button of `scope` whose text passes `test`. */
function buttonIn(
  scope: Element | undefined,
  test: (text: string) => boolean,
): HTMLButtonElement | undefined {
  if (!scope) return undefined;
  return [...scope.querySelectorAll<HTMLButtonElement>('button')].find(
    (b) => !b.disabled && visible(b) && test(label(b)),
  );
}

/** Ctrl+S: the open dialog's 确定/保存, else the page's 保存 (提交 where a form has no 保存). */
function save(): boolean {
  const dialog = openDialog();
  const target = dialog
    ? (buttonIn(dialog, (t) => t === '保存' || t === '确定' || t === '确认') ??
      [...dialog.querySelectorAll<HTMLButtonElement>('.ant-modal-footer .ant-btn-primary')].find(
        (b) => !b.disabled,
      ))
    : (buttonIn(activePage(), (t) => t === '保存') ?? buttonIn(activePage(), (t) => t === '提交'));
  target?.click();
  return Boolean(target);
}

/**
 * Alt+←/→ on a record's page (`?id=`): the record before or after it in the list the user last
 * looked at, read from the list's page in the query cache (the kit keeps every page it showed).
 */
function stepRecord(client: QueryClient, step: 1 | -1): void {
  const params = new URLSearchParams(window.location.search);
  const id = Number(params.get('id'));
  if (!Number.isSafeInteger(id) || id <= 0) return;
  const cache = client.getQueryCache();
  const newest = <T extends { state: { dataUpdatedAt: number } }>(qs: T[]) =>
    [...qs].sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  const info = newest(
    cache.findAll({
      predicate: (q) => q.queryKey[0] === 'resource' && q.queryKey[2] === 'info' && q.queryKey[3] === id,
    }),
  )[0];
  if (!info) return;
  const pages = newest(cache.findAll({ queryKey: ['resource', info.queryKey[1], 'page'] }));
  for (const p of pages) {
    const ids = ((p.state.data as { list?: { id: number }[] } | undefined)?.list ?? []).map((r) =>
      Number(r.id),
    );
    if (!ids.includes(id)) continue;
    const next = neighbourOf(ids, id, step);
    if (next) {
      params.set('id', String(next));
      navigateTo(`${window.location.pathname}?${params.toString()}`, { replace: true });
    }
    return;
  }
}

/**
 * The shell's keyboard (issue 41 §2): Ctrl+K opens 全局搜索, 「?」 the list of shortcuts, and the
 * shortcuts of forms, lists and details act on the open dialog or the active page
 * (`platform/shortcuts.ts`). The dialogs load when first opened.
 */
export function GlobalKeys({ model }: { model: MenuModel }) {
  const client = useQueryClient();
  const [searching, setSearching] = useState(false);
  const [helping, setHelping] = useState(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const id = shortcutOf(e);
      if (!id) return;
      const typing = isTyping(e.target);
      switch (id) {
        case 'search':
          e.preventDefault();
          setHelping(false);
          setSearching(true);
          return;
        case 'save':
          // Never the browser's 「save page」; the form's own 保存 if there is one.
          e.preventDefault();
          save();
          return;
        case 'help':
          if (typing) return;
          e.preventDefault();
          setHelping(true);
          return;
        case 'new': {
          if (openDialog()) return;
          const add = buttonIn(activePage(), (t) => t.startsWith('新增') || t.startsWith('新建'));
          if (!add) return;
          e.preventDefault();
          add.click();
          return;
        }
        case 'find': {
          if (typing || openDialog()) return;
          const input = [
            ...(activePage()?.querySelectorAll<HTMLInputElement>('.rm-search input:not([type=hidden])') ??
              []),
          ].find(visible);
          if (!input) return;
          e.preventDefault();
          input.focus();
          return;
        }
        case 'next':
        case 'previous':
          if (typing || openDialog()) return;
          e.preventDefault();
          stepRecord(client, id === 'next' ? 1 : -1);
          return;
        default:
          return;
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [client]);

  return (
    <>
      <button
        type="button"
        className="rm-header-action rm-search-trigger"
        aria-label="全局搜索（Ctrl+K）"
        title="全局搜索（Ctrl+K）"
        onClick={() => setSearching(true)}
        data-testid="global-search-button"
      >
        <SearchOutlined className="rm-header-icon" />
      </button>
      <Suspense fallback={null}>
        {searching && (
          <SearchPalette
            model={model}
            onClose={() => setSearching(false)}
            onHelp={() => {
              setSearching(false);
              setHelping(true);
            }}
          />
        )}
        {helping && <ShortcutsHelp onClose={() => setHelping(false)} />}
      </Suspense>
    </>
  );
}
