import type { ModalFuncProps } from 'antd';

/** Spec section 9: toasts last 2 s (success), 3 s (error) and 2.5 s (warning). */
export const TOAST_SECONDS = { success: 2, error: 3, warning: 2.5, info: 2 } as const;

type ToastType = 'success' | 'error' | 'warning' | 'info';

/* Ant Design's message and Modal load with the first toast or confirmation: pages paint without them. */
const load = () => import('./feedback-ui.ts');

function show(type: ToastType, content: string, seconds: number) {
  void load().then(({ message }) =>
    message.open({ type, content, duration: seconds, key: `${type[0]}:${content}` }),
  );
}

/**
 * Toast wrappers with the spec's durations. The same text is keyed once, so a burst of
 * identical failures shows a single toast.
 */
export const toast = {
  success(content: string, seconds: number = TOAST_SECONDS.success) {
    show('success', content, seconds);
  },
  error(content: string, seconds: number = TOAST_SECONDS.error) {
    show('error', content, seconds);
  },
  warning(content: string, seconds: number = TOAST_SECONDS.warning) {
    show('warning', content, seconds);
  },
  info(content: string, seconds: number = TOAST_SECONDS.info) {
    show('info', content, seconds);
  },
};

/** `Modal.confirm`: asks before a destructive action (批量删除). */
export function confirm(props: ModalFuncProps): void {
  void load().then(({ Modal }) => Modal.confirm(props));
}
