/**
 * Keyboard shortcuts (issue 41 §2): one list, which the shell's handler acts on and its help dialog
 * (「?」) shows. They act on what is on the screen — the open dialog, else the active tab's page —
 * through the buttons a user would click, so every page that has a 保存 or 新增 button gets them.
 */
export interface Shortcut {
  id: 'search' | 'help' | 'save' | 'new' | 'find' | 'next' | 'previous' | 'close';
  /** As shown in the help dialog. */
  keys: string[];
  label: string;
  /** Where it acts. */
  where: '全局' | '表单' | '列表' | '详情';
}

export const SHORTCUTS: Shortcut[] = [
  { id: 'search', keys: ['Ctrl', 'K'], label: '全局搜索：菜单页面、单据号、编码、名称', where: '全局' },
  { id: 'help', keys: ['?'], label: '显示快捷键帮助（Shift + /）', where: '全局' },
  { id: 'close', keys: ['Esc'], label: '关闭对话框或搜索框', where: '全局' },
  { id: 'save', keys: ['Ctrl', 'S'], label: '保存当前表单（对话框中为「确定」）', where: '表单' },
  { id: 'new', keys: ['Alt', 'N'], label: '新增一条记录', where: '列表' },
  { id: 'find', keys: ['/'], label: '光标移到列表的搜索条件', where: '列表' },
  { id: 'previous', keys: ['Alt', '←'], label: '上一条记录（按列表中的顺序）', where: '详情' },
  { id: 'next', keys: ['Alt', '→'], label: '下一条记录（按列表中的顺序）', where: '详情' },
];

/** Which shortcut a key press is, if any (Ctrl or ⌘ alike). */
export function shortcutOf(e: KeyboardEvent): Shortcut['id'] | undefined {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  if (mod && !e.altKey && key === 'k') return 'search';
  if (mod && !e.altKey && key === 's') return 'save';
  if (e.altKey && !mod && (key === 'n' || e.code === 'KeyN')) return 'new';
  if (e.altKey && !mod && key === 'arrowright') return 'next';
  if (e.altKey && !mod && key === 'arrowleft') return 'previous';
  if (!mod && !e.altKey && e.key === '?') return 'help';
  if (!mod && !e.altKey && !e.shiftKey && e.key === '/') return 'find';
  return undefined;
}

/** Is the user typing (an input, a text area, an editable element)? Plain keys then belong to the field. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  const tag = el.tagName.toLowerCase();
  return tag === 'input' || tag === 'textarea' || tag === 'select' || el.isContentEditable;
}

/** The record before or after `id` in `ids` (a list's page as the user last saw it). */
export function neighbourOf(ids: readonly number[], id: number, step: 1 | -1): number | undefined {
  const at = ids.indexOf(id);
  if (at < 0) return undefined;
  return ids[at + step];
}
