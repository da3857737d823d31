import { message } from 'antd';

/** Spec section 9: toasts last 2 s (success), 3 s (error) and 2.5 s (warning). */
export const TOAST_SECONDS = { success: 2, error: 3, warning: 2.5, info: 2 } as const;

message.config({ top: 56, maxCount: 4 });

/**
 * Toast wrappers with the spec's durations. The same text is keyed once, so a burst of
 * identical failures shows a single toast.
 */
export const toast = {
  success(content: string, seconds: number = TOAST_SECONDS.success) {
    return message.open({ type: 'success', content, duration: seconds, key: `s:${content}` });
  },
  error(content: string, seconds: number = TOAST_SECONDS.error) {
    return message.open({ type: 'error', content, duration: seconds, key: `e:${content}` });
  },
  warning(content: string, seconds: number = TOAST_SECONDS.warning) {
    return message.open({ type: 'warning', content, duration: seconds, key: `w:${content}` });
  },
  info(content: string, seconds: number = TOAST_SECONDS.info) {
    return message.open({ type: 'info', content, duration: seconds, key: `i:${content}` });
  },
};
